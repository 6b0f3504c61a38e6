// The JSON fast path (see json_input.cpp).
#pragma once

#include "cluster/decode/file_context.hpp"

#include <cstddef>

namespace kd::core::decode {

// Decodes `size` bytes of JSON at `text`, in place: the buffer is overwritten (strings are
// unescaped where they lie, and the drafts point into it). text[size] must be '\0'. One object,
// a List, an array of objects, or several of those concatenated.
void decode_json(char* text, size_t size, FileContext& ctx);

}  // namespace kd::core::decode
