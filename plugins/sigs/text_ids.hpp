// Numbers distinct byte strings 0, 1, 2… in the order they are first seen. The text goes into one
// arena and the ids into an open-addressing table, so numbering tens of thousands of keys a cycle
// (RemoveDuplicates' owner keys) costs a few allocations, not a node and a string each, and
// nothing to free one by one at the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kd::plugins::sigs {

class TextIds {
public:
    TextIds() : slots_(1024, kEmpty) {}

    // The id of `text`, a new one when it was never seen.
    size_t id_of(std::string_view text) {
        const size_t hash = std::hash<std::string_view>{}(text);
        size_t at = slot_of(text, hash);
        if (slots_[at] != kEmpty) return slots_[at];
        if ((spans_.size() + 1) * 4 > slots_.size() * 3) {
            grow();
            at = slot_of(text, hash);
        }
        slots_[at] = static_cast<uint32_t>(spans_.size());
        spans_.push_back({arena_.size(), text.size(), hash});
        arena_.append(text);
        return slots_[at];
    }
    size_t size() const { return spans_.size(); }

private:
    struct Span {
        size_t at, length, hash;
    };
    static constexpr uint32_t kEmpty = UINT32_MAX;

    std::string_view text_of(const Span& s) const { return std::string_view(arena_).substr(s.at, s.length); }
    size_t slot_of(std::string_view text, size_t hash) const {
        const size_t mask = slots_.size() - 1;
        size_t at = hash & mask;
        while (slots_[at] != kEmpty) {
            const Span& s = spans_[slots_[at]];
            if (s.hash == hash && text_of(s) == text) break;
            at = (at + 1) & mask;
        }
        return at;
    }
    void grow() {
        slots_.assign(slots_.size() * 2, kEmpty);
        const size_t mask = slots_.size() - 1;
        for (uint32_t id = 0; id < spans_.size(); ++id) {
            size_t at = spans_[id].hash & mask;
            while (slots_[at] != kEmpty) at = (at + 1) & mask;
            slots_[at] = id;
        }
    }

    std::string arena_;
    std::vector<Span> spans_;      // by id
    std::vector<uint32_t> slots_;  // ids, kEmpty where none; a power of two long
};

}  // namespace kd::plugins::sigs
