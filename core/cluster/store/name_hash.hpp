// The hash the stores' indexes by name use for a namespaced name.
#pragma once

#include "cluster/byte_set.hpp"

#include <cstddef>
#include <string_view>

namespace kd::core {

inline size_t hash_ns_name(std::string_view ns, std::string_view name) {
    return fast_hash(ns) * 1000003u ^ fast_hash(name);
}

}  // namespace kd::core
