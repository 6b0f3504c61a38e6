// Secrets for host services (the Pod Picker's secretKeyRef headers), one GET each, kept for a
// short while: Secrets are never listed or watched, so kdesched needs no cluster-wide access to
// them — only `get` on the named ones.
#pragma once

#include "kube/client/api_client.hpp"

#include <chrono>
#include <map>
#include <mutex>
#include <string>

namespace kd::core::kube {

class SecretReader {
public:
    explicit SecretReader(ApiClient& client, std::chrono::seconds keep = std::chrono::seconds(30))
        : client_(client), keep_(keep) {}
    // Fills `data` (values base64, as stored) and returns "", or says why it cannot (not found,
    // forbidden — naming the RBAC rule —, unreachable).
    std::string read(std::string_view ns, std::string_view name, std::map<std::string, std::string>& data);

private:
    struct Cached {
        std::chrono::steady_clock::time_point at;
        std::map<std::string, std::string> data;
    };
    ApiClient& client_;
    std::chrono::seconds keep_;
    std::mutex mutex_;
    std::map<std::string, Cached> cache_;
};

}  // namespace kd::core::kube
