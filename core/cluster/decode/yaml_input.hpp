// YAML snapshots: yaml-cpp, converted to RapidJSON, through the same decoding as JSON.
#pragma once

#include "cluster/decode/file_context.hpp"

#include <string_view>

namespace kd::core::decode {

// One or more documents (`---`), each an object, a List or a list of objects.
void decode_yaml(std::string_view text, FileContext& ctx);

}  // namespace kd::core::decode
