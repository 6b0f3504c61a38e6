// LowNodeUtilization (kubernetes-sigs/descheduler
// pkg/framework/plugins/nodeutilization/lownodeutilization.go@v0.35.1): finds nodes whose pods
// request little (under `thresholds` in every resource) and nodes whose pods request much (over
// `targetThresholds` in some resource), and evicts from the fullest of the latter, lowest
// priority first, while they stay over their targets and the underutilized nodes have room.
// Utilization is the pods' resource requests against the node's allocatable.
#pragma once

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

    LowNodeUtilization(Host&, Args args);
    void balance(Cycle& cycle);

private:
    Args args_;
    std::vector<std::string> resources_;  // what is measured: the thresholds' resources, cpu, memory, pods
};

}  // namespace kd::plugins::sigs
