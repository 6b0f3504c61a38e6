// Interned strings for the cluster model. Names, label keys and values, resource names and the
// like repeat across thousands of objects, so each distinct text is stored once and every object
// points at it. Strings live until the pool is destroyed: interned text is shared and cheap, and
// objects that churn keep their unique strings (UIDs, names) elsewhere (the model's unique text).
#pragma once

#include "cluster/byte_set.hpp"

#include <kdesched/abi.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace kd::core {

// Bump allocator for text: chunks never move, so views into it stay valid.
class TextArena {
public:
    std::string_view copy(std::string_view s);
    size_t bytes() const { return used_; }

private:
    std::vector<std::unique_ptr<char[]>> chunks_;
    size_t left_ = 0;
    char* next_ = nullptr;
    size_t used_ = 0;
    size_t next_chunk_ = 0;
};

class StringPool {
public:
    kd_str intern(std::string_view s);
    // The interned copy of `s`, or an empty view when `s` was never interned.
    std::string_view find(std::string_view s) const;
    size_t bytes() const { return arena_.bytes(); }
    size_t size() const { return set_.size(); }

private:
    TextArena arena_;
    ByteSet set_;
    // The last string seen per hash bucket: the few texts every object repeats (resource names,
    // namespaces, condition types) are answered from here without probing the big table.
    std::array<std::string_view, 256> recent_{};
};

// A map keyed by interned strings, hashed and compared by address (one text, one address), in
// insertion order. Flat: a lookup is one probe into a small index and one entry, where
// std::unordered_map costs a bucket, a node and a division.
template <class V>
class InternedMap {
public:
    // The value of `key` (interned, or empty), added value-initialized when absent. The reference
    // is valid until the next insertion.
    V& operator[](std::string_view key) {
        if ((entries_.size() + 1) * 4 > index_.size() * 3) grow();
        uint32_t& at = index_[position(key.data())];
        if (at == 0) {
            entries_.emplace_back(key, V{});
            at = static_cast<uint32_t>(entries_.size());
        }
        return entries_[at - 1].second;
    }
    // The value of `key` (interned, or empty), or nullptr.
    const V* find(std::string_view key) const {
        if (index_.empty()) return nullptr;
        uint32_t at = index_[position(key.data())];
        return at == 0 ? nullptr : &entries_[at - 1].second;
    }
    size_t size() const { return entries_.size(); }
    auto begin() const { return entries_.begin(); }
    auto end() const { return entries_.end(); }

private:
    // Where `text` is in index_, or the free place where it would go.
    size_t position(const char* text) const {
        size_t mask = index_.size() - 1;
        uint64_t h = reinterpret_cast<uintptr_t>(text) * 0x9E3779B97F4A7C15ULL;
        for (size_t i = (h ^ (h >> 32)) & mask;; i = (i + 1) & mask)
            if (index_[i] == 0 || entries_[index_[i] - 1].first.data() == text) return i;
    }
    void grow() {
        index_.assign(index_.empty() ? 64 : index_.size() * 2, 0);
        for (size_t e = 0; e < entries_.size(); ++e)
            index_[position(entries_[e].first.data())] = static_cast<uint32_t>(e + 1);
    }
    std::vector<std::pair<std::string_view, V>> entries_;
    std::vector<uint32_t> index_;  // 1 + position in entries_; 0: free
};

inline std::string_view view(kd_str s) {
    return s.data ? std::string_view(s.data, s.size) : std::string_view();
}

}  // namespace kd::core
