// A 128-bit digest of an object's content, built piece by piece. The model uses it to recognise
// a pod template (or an annotation set) it has already interned without interning each of its
// strings again; 128 bits make an accidental collision practically impossible (~n²/2¹²⁹).
#pragma once

#include "cluster/byte_set.hpp"

#include <cstdint>
#include <string_view>
#include <type_traits>
#include <vector>

namespace kd::core {

struct ContentKey {
    uint64_t a = 0x243F6A8885A308D3ULL, b = 0x13198A2E03707344ULL;

    // Adds one element of one or more strings. Their hashes are folded into one word first, off
    // the dependency chains of a and b, so that an element costs one step of them.
    template <class... More>
    ContentKey& add(std::string_view s, const More&... more) {
        uint64_t w = fast_hash(s);
        ((w = w * 0x9FB21C651E98DF25ULL + fast_hash(more)), ...);
        return add_word(w);
    }
    ContentKey& add_word(uint64_t w) {
        a = hash_mix(a ^ w, 0xA0761D6478BD642FULL);
        b = hash_mix(b + w, 0xE7037ED1A0B428DBULL) ^ (b >> 29);
        return *this;
    }
    bool operator==(const ContentKey&) const = default;
};

// A map from ContentKey to a small value, flat (open addressing): a lookup is one probe into one
// array, where std::unordered_map costs a bucket, a node and a division (two cache misses per pod
// on a big model).
template <class V>
class ContentMap {
    static_assert(std::is_trivially_copyable_v<V>);

public:
    const V* find(const ContentKey& key) const {
        if (slots_.empty()) return nullptr;
        size_t mask = slots_.size() - 1;
        for (size_t i = key.a & mask;; i = (i + 1) & mask) {
            const Slot& s = slots_[i];
            if (!s.used) return nullptr;
            if (s.key == key) return &s.value;
        }
    }
    // Adds a key known to be absent.
    void insert(const ContentKey& key, const V& value) {
        if ((count_ + 1) * 4 > slots_.size() * 3) grow();
        place(Slot{key, value, true});
        ++count_;
    }
    // The value stored under `key`, or make()'s, then stored.
    template <class Make>
    V find_or_make(const ContentKey& key, Make&& make) {
        if (const V* found = find(key)) return *found;
        V made = make();
        insert(key, made);
        return made;
    }

private:
    struct Slot {
        ContentKey key;
        V value{};
        bool used = false;
    };
    void place(const Slot& s) {
        size_t mask = slots_.size() - 1;
        size_t i = s.key.a & mask;
        while (slots_[i].used) i = (i + 1) & mask;
        slots_[i] = s;
    }
    void grow() {
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
        for (const Slot& s : old)
            if (s.used) place(s);
    }
    std::vector<Slot> slots_;
    size_t count_ = 0;
};

}  // namespace kd::core
