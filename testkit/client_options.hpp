// An API client set up for the test API server: no rate limit, quick retries, a short deadline —
// so a test of a failure path ends in milliseconds, not client-go's seconds.
#pragma once

#include "fake_apiserver.hpp"
#include "kube/client/api_client.hpp"

#include <chrono>

namespace kd_test {

inline kd::core::kube::ClientOptions quick_client_options() {
    kd::core::kube::ClientOptions c;
    c.qps = 0;
    c.backoff_base = std::chrono::milliseconds(20);
    c.max_attempts = 2;
    c.timeout = std::chrono::seconds(5);
    return c;
}

inline kd::core::kube::Connection connection_to(FakeApiServer& server) {
    kd::core::kube::Connection c;
    c.server = server.url();
    return c;
}

}  // namespace kd_test
