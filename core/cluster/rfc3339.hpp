// Kubernetes timestamps (metav1.Time): RFC 3339 as Go's time.RFC3339 parses it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kd::core {

// "2024-05-01T12:00:00Z", "2024-05-01T12:00:00.123456+02:00", … → Unix milliseconds (a fraction
// finer than a millisecond is dropped, rounding toward the past). nullopt for anything else,
// including out-of-range fields (month 13, 24:00, second 60).
std::optional<int64_t> parse_rfc3339_ms(std::string_view text);

// Unix milliseconds → "2024-05-01T12:00:00Z" (whole seconds, UTC), as metav1.Time marshals.
std::string format_rfc3339(int64_t unix_ms);

}  // namespace kd::core
