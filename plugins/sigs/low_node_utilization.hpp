// LowNodeUtilization (kubernetes-sigs/descheduler
// pkg/framework/plugins/nodeutilization/lownodeutilization.go@v0.35.1): finds nodes whose pods
// request little (under `thresholds` in every resource) and nodes whose pods request much (over
// `targetThresholds` in some resource), and evicts from the fullest of the latter, lowest
// priority first, while they stay over their targets and the underutilized nodes have room.
// Utilization is the pods' resource requests against the node's allocatable, or with
// metricsUtilization the usage metrics-server measured (actual_usage.hpp).
#pragma once

#include "actual_usage.hpp"
#include "utilization_args.hpp"

#include <kdesched/plugin.hpp>

#include <string>
#include <vector>

namespace kd::plugins::sigs {

class LowNodeUtilization {
public:
    static constexpr const char* kName = "LowNodeUtilization";
    static constexpr const char* kVersion = "0.35.1";
    static constexpr const char* kDescription =
        "evicts pods from nodes over targetThresholds (by requests) while nodes under thresholds have room";
    using Args = LowNodeUtilizationArgs;

    // Throws when metricsUtilization asks for a source this run does not collect (upstream's
    // usageClientForMetrics) or for Prometheus, which kdesched does not read.
    LowNodeUtilization(Host& host, Args args);
    void balance(Cycle& cycle);

private:
    Args args_;
    bool actual_usage_ = false;           // metricsUtilization: metrics.k8s.io instead of requests
    std::vector<std::string> resources_;  // what is measured: the thresholds' resources, cpu, memory, pods
};

}  // namespace kd::plugins::sigs
