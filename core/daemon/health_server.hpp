// /healthz, /readyz and /metrics over HTTP (Boost.Beast), on a thread of its own so that a probe
// is answered while a hook runs — and fails when the control loop has stopped moving.
//  - /healthz: 200 while the control loop's heartbeat is recent; 500 naming how long it has been
//    stuck otherwise.
//  - /readyz: 200 once every kind has synced; 503 listing what is missing.
//  - /metrics: the Prometheus text exposition.
//  - /debug/model (with /metrics): the digest of the model, kind by kind (model_probe.hpp); 503
//    when the control loop does not answer in time.
// healthzBindAddress and metricsBindAddress may be the same address (the default): one listener
// then serves all three.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace kd::core::daemon {

struct HealthState {
    std::atomic<int64_t> heartbeat_ms{0};  // steady clock, ms: the control loop's last sign of life
    std::chrono::milliseconds stuck_after{std::chrono::minutes(3)};
    std::mutex mutex;
    std::string not_ready = "starting";  // "" when ready
    void beat();
    void set_ready(std::string missing);
};

class HealthServer {
public:
    // Throws kd::core::Error when an address cannot be bound (in use, not local).
    HealthServer(const std::string& healthz_address, const std::string& metrics_address, HealthState& state,
                 std::function<std::string()> metrics_text,
                 std::function<std::optional<std::string>()> model_digest = {});
    ~HealthServer();
    HealthServer(const HealthServer&) = delete;
    HealthServer& operator=(const HealthServer&) = delete;

    // The ports actually bound (healthz first), for logs and tests.
    std::vector<int> ports() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace kd::core::daemon
