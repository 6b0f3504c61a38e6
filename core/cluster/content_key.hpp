// A 128-bit digest of an object's content, built piece by piece. The model uses it to recognise
// a pod template (or an annotation set) it has already interned without interning each of its
// strings again; 128 bits make an accidental collision practically impossible (~n²/2¹²⁹).
#pragma once

#include "cluster/byte_set.hpp"

#include <cstdint>
#include <functional>
#include <string_view>

namespace kd::core {

struct ContentKey {
    uint64_t a = 0x243F6A8885A308D3ULL, b = 0x13198A2E03707344ULL;

    ContentKey& add(std::string_view s) {
        uint64_t h = fast_hash(s.data(), s.size());
        return add_word(h);
    }
    ContentKey& add_word(uint64_t w) {
        a = mix(a ^ w, 0xA0761D6478BD642FULL);
        b = mix(b + w, 0xE7037ED1A0B428DBULL) ^ (b >> 29);
        return *this;
    }
    bool operator==(const ContentKey&) const = default;

private:
    static uint64_t mix(uint64_t x, uint64_t k) {
        __uint128_t r = static_cast<__uint128_t>(x) * k;
        return static_cast<uint64_t>(r) ^ static_cast<uint64_t>(r >> 64);
    }
};

struct ContentKeyHash {
    size_t operator()(const ContentKey& k) const { return static_cast<size_t>(k.a); }
};

}  // namespace kd::core
