// kd::AddressTable<K, T>: a value per record the host hands out, keyed by its address, for plugins
// that work something out once per record rather than once per use. kd::SpecTable<T> is one per
// pod template (kd_pod_spec): pods share specs by the thousand (the host stores each template
// once), so a pass over 300k pods meets a few tens of thousands of specs and answers most pods from
// the table. kd::PodTable<T> is one per pod (e.g. a filter's answer, asked once). Open addressing
// over one array (no node per entry, nothing to free one by one): cheaper than std::unordered_map
// on these paths. Addresses hold for one cycle: build a table per cycle, never keep one across.
#pragma once

#include <kdesched/abi.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace kd {

template <class K, class T>
class AddressTable {
public:
    explicit AddressTable(size_t expected = 1024) { rehash(capacity_for(expected)); }

    // The value of `record` and whether it was just added (default-constructed): fill it in then.
    // The reference holds until the next call of this table.
    std::pair<T&, bool> try_emplace(const K* record) {
        size_t at = slot_of(record);
        if (slots_[at].key == record) return {slots_[at].value, false};
        if ((size_ + 1) * 4 > slots_.size() * 3) {
            rehash(slots_.size() * 2);
            at = slot_of(record);
        }
        slots_[at].key = record;
        ++size_;
        return {slots_[at].value, true};
    }
    // The value of `record`, or nullptr when it has none.
    const T* find(const K* record) const {
        const Slot& s = slots_[slot_of(record)];
        return s.key == record ? &s.value : nullptr;
    }
    size_t size() const { return size_; }

private:
    struct Slot {
        const K* key = nullptr;
        T value{};
    };
    static size_t capacity_for(size_t expected) {
        size_t c = 16;
        while (c * 3 < expected * 4) c *= 2;
        return c;
    }
    // Records are aligned: the low bits say nothing, the multiply spreads the rest.
    size_t home(const K* record) const {
        uint64_t h = (reinterpret_cast<uintptr_t>(record) >> 3) * 0x9E3779B97F4A7C15ull;
        return static_cast<size_t>(h >> shift_);
    }
    // Where `record` is, or the empty slot where it would go.
    size_t slot_of(const K* record) const {
        size_t mask = slots_.size() - 1;
        size_t at = home(record);
        while (slots_[at].key != nullptr && slots_[at].key != record) at = (at + 1) & mask;
        return at;
    }
    void rehash(size_t capacity) {
        std::vector<Slot> old(capacity);
        old.swap(slots_);
        shift_ = 64;
        for (size_t c = capacity; c > 1; c >>= 1) --shift_;
        for (Slot& s : old)
            if (s.key) slots_[slot_of(s.key)] = std::move(s);
    }

    std::vector<Slot> slots_;  // a power of two long
    size_t size_ = 0;
    unsigned shift_ = 64;
};

template <class T>
using SpecTable = AddressTable<kd_pod_spec, T>;
template <class T>
using PodTable = AddressTable<kd_pod, T>;

}  // namespace kd
