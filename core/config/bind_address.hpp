// healthzBindAddress / metricsBindAddress: kube-scheduler-style defaulting and validation.
#pragma once

#include <optional>
#include <string>

namespace kd::core {

inline constexpr const char* kDefaultBindAddress = "0.0.0.0:10251";

struct BindAddress {
    std::string value;    // normalised "host:port" (IPv6 hosts in brackets)
    std::string problem;  // non-empty when the address is invalid
};

// Absent or "" → 0.0.0.0:10251; ":port" → 0.0.0.0:port; a bare IP → IP:10251. The result must be
// an IP literal and a port in 1–65535 (apimachinery's IsValidSocketAddr).
BindAddress normalise_bind_address(const std::optional<std::string>& raw);

}  // namespace kd::core
