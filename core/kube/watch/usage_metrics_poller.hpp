// Polling metrics-server's usage (metrics.k8s.io/v1beta1 NodeMetrics and PodMetrics) for the
// daemon when the policy enables the KubernetesMetrics source. The API cannot watch these kinds,
// so a thread of its own LISTs both every interval (5 s, upstream's collector period:
// pkg/descheduler/metricscollector/metricscollector.go@v0.35.1) and smooths node usage
// (cluster/usage_smoothing.hpp); the control thread takes each new result into the model.
//
// metrics.k8s.io missing (404: no metrics-server; 503: its APIService is not available) or
// forbidden (403) is logged once per condition, not fatal: the poller keeps trying, and a plugin
// finds no NodeMetrics for a node — which LowNodeUtilization reports as an error of its run, never
// as zero usage.
#pragma once

#include "cluster/usage_smoothing.hpp"
#include "kube/client/api_client.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace kd::core::kube {

struct UsagePollerOptions {
    std::chrono::milliseconds interval{std::chrono::seconds(5)};
};

class UsageMetricsPoller {
public:
    explicit UsageMetricsPoller(ApiClient& client, UsagePollerOptions options = {});
    ~UsageMetricsPoller();
    UsageMetricsPoller(const UsageMetricsPoller&) = delete;
    UsageMetricsPoller& operator=(const UsageMetricsPoller&) = delete;

    // Polls now and then every interval on a thread of its own, until stop() (or destruction).
    void start();
    void stop();
    // One round, on the caller's thread: LIST nodes, then pods. True when both answered.
    bool poll_once();
    // Waits until the first round has ended (answered or not), at most `timeout`.
    void wait_first_round(std::chrono::milliseconds timeout);

    // The smoothed usage when it changed since the round numbered `*seen` (then `*seen` moves on).
    std::optional<UsageMetrics> take_if_newer(uint64_t* seen) const;
    // "" while metrics.k8s.io answers; else why it does not, as logged.
    std::string problem() const;

private:
    // The items of one LIST, or nullopt with problem_ set (logged once per distinct problem).
    template <class Item, class Read>
    std::optional<std::vector<Item>> list(const char* resource, Read read);
    void set_problem(std::string problem);

    ApiClient& client_;
    UsagePollerOptions options_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    UsageSmoothing smoothing_;
    uint64_t rounds_ = 0;
    std::string problem_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace kd::core::kube
