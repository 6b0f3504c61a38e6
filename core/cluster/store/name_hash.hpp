// The hashes the stores' indexes by name use.
#pragma once

#include "cluster/byte_set.hpp"

#include <cstddef>
#include <functional>
#include <string_view>

namespace kd::core {

inline size_t hash_ns_name(std::string_view ns, std::string_view name) {
    return fast_hash(ns) * 1000003u ^ fast_hash(name);
}

// For a std::string-keyed unordered map looked up by string_view without building a std::string
// (with std::equal_to<>). The same values as std::hash<std::string>, so iteration order is too.
struct StringViewHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

}  // namespace kd::core
