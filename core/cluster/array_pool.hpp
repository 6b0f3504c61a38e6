// Interned arrays of boundary structs (label sets, owner lists, tolerations, …). The pods of one
// workload share identical arrays, so each distinct array is stored once. Elements must be built
// zero-filled (padding included) because equality is byte equality; their strings are interned,
// so equal text means equal pointers.
#pragma once

#include "cluster/byte_set.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

namespace kd::core {

template <class T>
class ArrayPool {
    static_assert(std::is_trivially_copyable_v<T>);

public:
    // A stable pointer to an array equal to [data, data+n) (nullptr when n == 0).
    const T* intern(const T* data, size_t n) {
        if (n == 0) return nullptr;
        std::string_view bytes(reinterpret_cast<const char*>(data), n * sizeof(T));
        uint64_t h = fast_hash(bytes.data(), bytes.size());
        std::string_view found = set_.find(bytes, h);
        if (found.data()) return reinterpret_cast<const T*>(found.data());
        T* stored = allocate(n);
        std::memcpy(static_cast<void*>(stored), data, bytes.size());
        set_.insert(std::string_view(reinterpret_cast<const char*>(stored), bytes.size()), h);
        ++count_;
        return stored;
    }
    const T* intern(const std::vector<T>& v) { return intern(v.data(), v.size()); }
    size_t size() const { return count_; }

private:
    // Bump allocation in chunks: arrays never move and cost no per-array heap block.
    T* allocate(size_t n) {
        if (n > left_) {
            chunk_ = chunk_ ? std::min(chunk_ * 2, kMaxChunk) : kFirstChunk;
            size_t size = std::max<size_t>(chunk_, n);
            chunks_.push_back(std::make_unique_for_overwrite<T[]>(size));
            next_ = chunks_.back().get();
            left_ = size;
        }
        T* out = next_;
        next_ += n;
        left_ -= n;
        return out;
    }
    // Chunks grow from 1 KiB to 64 KiB: the unused end of the last one is all that is wasted.
    static constexpr size_t kFirstChunk = std::max<size_t>(1, (1 << 10) / sizeof(T));
    static constexpr size_t kMaxChunk = std::max<size_t>(1, (64 << 10) / sizeof(T));
    size_t chunk_ = 0;
    std::vector<std::unique_ptr<T[]>> chunks_;
    T* next_ = nullptr;
    size_t left_ = 0;
    size_t count_ = 0;
    ByteSet set_;
};

// A zero-filled T (padding included), for building elements that ArrayPool compares bytewise.
template <class T>
T zeroed() {
    static_assert(std::is_trivially_copyable_v<T>);
    T t;
    std::memset(static_cast<void*>(&t), 0, sizeof t);
    return t;
}

}  // namespace kd::core
