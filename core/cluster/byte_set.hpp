// A flat open-addressing set of byte strings (the text itself lives elsewhere, in an arena), with
// a fast hash: interning is on the snapshot decoder's hot path, where std::unordered_set's node
// allocations and pointer chasing cost more than the JSON parsing.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace kd::core {

// The wyhash multiply-mix: the 128-bit product's halves folded together.
inline uint64_t hash_mix(uint64_t a, uint64_t b) {
    __uint128_t r = static_cast<__uint128_t>(a) * b;
    return static_cast<uint64_t>(r) ^ static_cast<uint64_t>(r >> 64);
}

// 64-bit hash over 8-byte words (wyhash-style multiply-mix); good spread for short keys. The
// last bytes are read as overlapping words, not one by one: most keys are short, so the tail is
// most of the work.
inline uint64_t fast_hash(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    auto load = [](const unsigned char* at, auto word) {
        std::memcpy(&word, at, sizeof word);
        return static_cast<uint64_t>(word);
    };
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ n;
    uint64_t tail = 0;
    if (n > 8) {
        for (; n > 8; p += 8, n -= 8) h = hash_mix(h ^ load(p, uint64_t{}), 0xA0761D6478BD642FULL);
        tail = load(p + n - 8, uint64_t{});  // the last 8 bytes, overlapping the last word
    } else if (n >= 4) {
        tail = load(p, uint32_t{}) << 32 | load(p + n - 4, uint32_t{});
    } else if (n > 0) {  // an empty view may have a null data pointer
        tail = uint64_t{p[0]} << 16 | uint64_t{p[n / 2]} << 8 | p[n - 1];
    }
    return hash_mix(h ^ tail, 0xE7037ED1A0B428DBULL);
}
inline uint64_t fast_hash(std::string_view s) {
    return fast_hash(s.data(), s.size());
}

class ByteSet {
public:
    // The stored key equal to `key`, or an empty view; `hash` is fast_hash(key).
    std::string_view find(std::string_view key, uint64_t hash) const {
        if (slots_.empty()) return {};
        size_t mask = slots_.size() - 1;
        uint32_t tag = static_cast<uint32_t>(hash >> 32);
        for (size_t i = hash & mask;; i = (i + 1) & mask) {
            const Slot& s = slots_[i];
            if (!s.data) return {};
            if (s.tag == tag && s.size == key.size() && std::memcmp(s.data, key.data(), key.size()) == 0)
                return {s.data, s.size};
        }
    }
    // Adds a key known to be absent; `stored` must outlive the set (keys are at most 4 GiB).
    void insert(std::string_view stored, uint64_t hash) {
        if ((count_ + 1) * 4 > slots_.size() * 3) grow();
        place(Slot{stored.data(), static_cast<uint32_t>(stored.size()), static_cast<uint32_t>(hash >> 32)}, hash);
        ++count_;
    }
    size_t size() const { return count_; }

private:
    // 16 bytes: the text, its size and the hash's upper half (a cheap filter before memcmp).
    struct Slot {
        const char* data = nullptr;
        uint32_t size = 0;
        uint32_t tag = 0;
    };
    void place(const Slot& s, uint64_t hash) {
        size_t mask = slots_.size() - 1;
        size_t i = hash & mask;
        while (slots_[i].data) i = (i + 1) & mask;
        slots_[i] = s;
    }
    void grow() {
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{});
        for (const Slot& s : old)
            if (s.data) place(s, fast_hash(s.data, s.size));
    }
    std::vector<Slot> slots_;
    size_t count_ = 0;
};

}  // namespace kd::core
