// Kubernetes timestamps: the SDK's RFC 3339 parser and formatter, shared with plugins, and the
// microsecond form (metav1.MicroTime) Events and Leases carry.
#pragma once

#include <kdesched/rfc3339.hpp>

#include <cstdio>
#include <string>

namespace kd::core {

using kd::format_rfc3339;
using kd::parse_rfc3339_ms;

// Unix milliseconds → "2026-11-25T20:15:04.123000Z".
inline std::string format_micro_time(int64_t unix_ms) {
    std::string whole = format_rfc3339(unix_ms);  // "…:04Z"
    char micro[16];
    std::snprintf(micro, sizeof micro, ".%06dZ", static_cast<int>(((unix_ms % 1000) + 1000) % 1000) * 1000);
    return whole.substr(0, whole.size() - 1) + micro;
}

}  // namespace kd::core
