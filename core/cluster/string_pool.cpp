#include "cluster/string_pool.hpp"

#include <algorithm>
#include <cstring>

namespace kd::core {

namespace {
// Chunks grow from 4 KiB to 64 KiB: the unused end of the last one is all that is wasted, and a
// 300,000-pod model still makes only a few hundred allocations.
constexpr size_t kFirstChunk = 4 << 10;
constexpr size_t kMaxChunk = 64 << 10;
}  // namespace

std::string_view TextArena::copy(std::string_view s) {
    if (s.empty()) return {};
    if (s.size() > left_) {
        next_chunk_ = next_chunk_ ? std::min(next_chunk_ * 2, kMaxChunk) : kFirstChunk;
        size_t size = std::max(next_chunk_, s.size());
        chunks_.push_back(std::make_unique_for_overwrite<char[]>(size));
        next_ = chunks_.back().get();
        left_ = size;
    }
    std::memcpy(next_, s.data(), s.size());
    std::string_view out(next_, s.size());
    next_ += s.size();
    left_ -= s.size();
    used_ += s.size();
    return out;
}

kd_str StringPool::intern(std::string_view s) {
    if (s.empty()) return kd_str{nullptr, 0};
    uint64_t h = fast_hash(s);
    std::string_view& recent = recent_[h >> 56];
    if (recent == s) return kd_str{recent.data(), recent.size()};
    std::string_view found = set_.find(s, h);
    if (found.data() == nullptr) {
        found = arena_.copy(s);
        set_.insert(found, h);
    }
    recent = found;
    return kd_str{found.data(), found.size()};
}

std::string_view StringPool::find(std::string_view s) const {
    if (s.empty()) return {};
    return set_.find(s, fast_hash(s));
}

}  // namespace kd::core
