// Kubernetes timestamps: the SDK's RFC 3339 parser and formatter, shared with plugins.
#pragma once

#include <kdesched/rfc3339.hpp>

namespace kd::core {

using kd::format_rfc3339;
using kd::parse_rfc3339_ms;

}  // namespace kd::core
