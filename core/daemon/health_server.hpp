// /healthz, /readyz and /metrics over HTTP (Boost.Beast), on threads of their own so that a probe
// is answered while a hook runs — and fails when the control loop has stopped moving.
//  - /healthz: 200 while the control loop's heartbeat is recent; 500 naming how long it has been
//    stuck otherwise.
//  - /readyz: 200 once every kind has synced; 503 listing what is missing.
//  - /metrics: the Prometheus text exposition.
//  - /debug/model (with /metrics): the digest of the model, kind by kind (model_probe.hpp); 503
//    when the control loop does not answer in time.
//  - /debug/explain (with /metrics): why the last cycle's candidates stayed (live_explain.hpp);
//    its handler gets the query string and answers at once.
// healthzBindAddress and metricsBindAddress may be the same address (the default): one listener
// then serves all three. The secure port, when given, serves every endpoint over TLS
// (secure_serving.hpp).
//
// Anything that can reach the port can connect, so no client may hold the others up: connections
// are served concurrently, each within a deadline, their number and their requests' size bounded
// (the limits below, listed in docs/operations.md). A probe is answered by the I/O thread, which
// never waits; /metrics and /debug/model, whose handlers may block (model_digest waits for the
// control loop), each run on a worker thread of their own.
#pragma once

#include "daemon/secure_serving.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace kd::core::daemon {

// Connections open at once; at the bound, the oldest one is closed to make room for the new one, so
// that clients holding connections cannot lock a probe out.
constexpr size_t kMaxConnections = 128;
// From the connection's accept to the last byte of its answer (one request per connection): a client
// that sends slowly, never finishes its request or never reads its answer is cut off after this.
constexpr std::chrono::milliseconds kMaxRequestDuration{std::chrono::seconds(10)};
// Request line and header fields: more is answered 431. No endpoint reads a body: a longer one
// (by its Content-Length or as it arrives) is answered 413.
constexpr size_t kMaxRequestHeaderBytes = 8u << 10;
constexpr size_t kMaxRequestBodyBytes = 4u << 10;

// The limits a server enforces (the defaults above; tests use shorter deadlines and fewer connections).
struct HealthServerLimits {
    size_t max_connections = kMaxConnections;
    std::chrono::milliseconds max_request_duration = kMaxRequestDuration;
};

// A handler's answer: content type and body (200).
struct DebugAnswer {
    std::string content_type, body;
};
using DebugHandler = std::function<DebugAnswer(std::string_view query)>;

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
                 std::function<std::optional<std::string>()> model_digest = {}, HealthServerLimits limits = {},
                 DebugHandler explain = {}, std::shared_ptr<ServingCertificates> secure = {});
    ~HealthServer();
    HealthServer(const HealthServer&) = delete;
    HealthServer& operator=(const HealthServer&) = delete;

    // The ports actually bound (healthz first, the secure port last), for logs and tests.
    std::vector<int> ports() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace kd::core::daemon
