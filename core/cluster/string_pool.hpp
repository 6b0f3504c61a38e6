// Interned strings for the cluster model. Names, label keys and values, resource names and the
// like repeat across thousands of objects, so each distinct text is stored once and every object
// points at it. Strings live until the pool is destroyed: interned text is shared and cheap, and
// objects that churn keep their unique strings (UIDs, names) elsewhere (see UniqueStrings).
#pragma once

#include "cluster/byte_set.hpp"

#include <kdesched/abi.h>

#include <array>
#include <functional>
#include <memory>
#include <string_view>
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

// Hashes and compares interned strings by address: one text, one address.
struct InternedHash {
    size_t operator()(std::string_view s) const { return std::hash<const void*>()(s.data()); }
};
struct InternedEqual {
    bool operator()(std::string_view a, std::string_view b) const { return a.data() == b.data(); }
};

inline std::string_view view(kd_str s) {
    return s.data ? std::string_view(s.data, s.size) : std::string_view();
}

}  // namespace kd::core
