// Base64 (RFC 4648, standard alphabet, padded), as Kubernetes stores Secret data.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kd::core::net {

// The decoded bytes, or nullopt when `text` is not padded standard base64.
std::optional<std::string> decode_base64(std::string_view text);

}  // namespace kd::core::net
