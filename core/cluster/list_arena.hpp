// Where a draft's bound lists (cluster/schema/object_schema.hpp: lists of structs, string lists,
// string maps) keep their elements while one object is decoded: a buffer per list read, reused
// between objects so that decoding allocates nothing once warm. A buffer grows only while its list
// is read; when the list ends its items pointer is set to the buffer, whose data then stays put
// (a later buffer's growth moves no other buffer's data).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kd::core {

class ListArena {
public:
    // A new, empty buffer; returns its number.
    uint32_t open() {
        if (used_ == bufs_.size()) bufs_.emplace_back();
        bufs_[used_].clear();
        return used_++;
    }
    // Appends a zero-filled element of `size` bytes (a multiple of 8) to buffer `b`.
    std::byte* append(uint32_t b, size_t size) {
        std::vector<uint64_t>& v = bufs_[b];
        v.resize(v.size() + size / 8);
        return reinterpret_cast<std::byte*>(v.data() + v.size() - size / 8);
    }
    // Buffer b's elements (null when it has none) and their total size in bytes.
    const void* data(uint32_t b) const { return bufs_[b].empty() ? nullptr : bufs_[b].data(); }
    size_t bytes(uint32_t b) const { return bufs_[b].size() * 8; }
    // Forgets every buffer, keeping their capacity.
    void clear() { used_ = 0; }

private:
    std::vector<std::vector<uint64_t>> bufs_;
    uint32_t used_ = 0;
};

}  // namespace kd::core
