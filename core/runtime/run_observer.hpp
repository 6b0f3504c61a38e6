// What happens during a run, for whoever reports on it (the simulator's report, the daemon's
// metrics): eviction requests and their outcomes, filter rejections, plugin reports, log lines,
// Pod Picker requests and the time of each hook call.
#pragma once

#include <kdesched/abi.h>

#include <cstdint>
#include <string_view>

namespace kd::core {

// One eviction request and what became of it. Views and the pod are valid during the
// on_eviction call only (thousands of requests a cycle: nothing is copied unless kept).
struct EvictionRecord {
    std::string_view profile;
    std::string_view requested_by;  // plugin whose hook asked
    const kd_pod* pod = nullptr;
    std::string_view reason;
    kd_evict_code code = KD_EVICT_FAILED;
    std::string_view decided_by;  // filter or evict plugin that decided; empty for limits and dry run
    std::string_view detail;      // its reason
};

// Receives what happens during cycles: eviction outcomes and plugin log lines.
class RunObserver {
public:
    virtual ~RunObserver() = default;
    virtual void on_eviction(const EvictionRecord&) {}
    // A filter plugin rejected a pod that `requested_by` asked about (Filter or PreEvictionFilter).
    virtual void on_filter_rejection(std::string_view /*profile*/, std::string_view /*requested_by*/,
                                     const kd_pod& /*pod*/, std::string_view /*filter*/, std::string_view /*reason*/) {}
    // A plugin's kd_host.report: a fact about a node or pod.
    virtual void on_report(std::string_view /*profile*/, std::string_view /*plugin*/, std::string_view /*kind*/,
                           std::string_view /*subject*/, std::string_view /*key*/, std::string_view /*value*/) {}
    virtual void on_plugin_log(std::string_view profile, std::string_view plugin, int32_t level,
                               std::string_view message);
    // One increment of descheduler_pods_evicted: a plugin's kd_host.count_eviction, a framework
    // dry-run eviction ("success") or a limit that stopped one (EvictionLimiter::metric_result).
    // `dry_run`: the profile's run is a dry run (nothing was written).
    virtual void on_pods_evicted(std::string_view /*profile*/, const kd_pod& /*pod*/, std::string_view /*result*/,
                                 std::string_view /*strategy*/, bool /*dry_run*/) {}
    // kd_host.pick_pods: one increment of descheduler_pod_picker_requests_total{result}, where
    // result is "success" or why the request failed (config, secret, connection, timeout,
    // http-status, invalid-answer).
    virtual void on_pod_picker_request(std::string_view /*profile*/, std::string_view /*plugin*/,
                                       std::string_view /*result*/) {}
    // One hook call of a plugin ("deschedule", "balance", "tick") and how long it took.
    virtual void on_plugin_call(std::string_view /*profile*/, std::string_view /*plugin*/, std::string_view /*point*/,
                                double /*seconds*/) {}
};

}  // namespace kd::core
