// The JSON fast path (see json_input.cpp).
#pragma once

#include "cluster/decode/file_context.hpp"

#include <cstddef>
#include <string_view>

namespace kd::core::decode {

// Decodes `size` bytes of JSON at `text`, in place: the buffer is overwritten (strings are
// unescaped where they lie, and the drafts point into it). text[size] must be '\0'. One object,
// a List, an array of objects, or several of those concatenated. An object without kind (and
// apiVersion) is taken to be `item_kind` (`item_api`) when given: the items of an API server's
// LIST carry neither.
void decode_json(char* text, size_t size, FileContext& ctx, std::string_view item_kind = {},
                 std::string_view item_api = {});

}  // namespace kd::core::decode
