// HighNodeUtilization (kubernetes-sigs/descheduler
// pkg/framework/plugins/nodeutilization/highnodeutilization.go@v0.35.1): bin-packing. Nodes whose
// pods request little (under `thresholds` in every resource) are emptied, the least used first,
// into the schedulable nodes above them while those have room, so that the emptied nodes can be
// scaled down. Utilization is the pods' resource requests against the node's allocatable.
#pragma once

#include "utilization_args.hpp"

#include <kdesched/plugin.hpp>

#include <string>
#include <vector>

namespace kd::plugins::sigs {

class HighNodeUtilization {
public:
    static constexpr const char* kName = "HighNodeUtilization";
    static constexpr const char* kVersion = "0.35.1";
    static constexpr const char* kDescription =
        "evicts pods from nodes under thresholds (by requests) into the other schedulable nodes, to pack them";
    using Args = HighNodeUtilizationArgs;

    HighNodeUtilization(Host&, Args args);
    void balance(Cycle& cycle);

private:
    Args args_;
    std::vector<std::string> resources_;  // what is measured: the thresholds' resources, cpu, memory, pods
    bool only_thresholding_resources_ = false;
};

}  // namespace kd::plugins::sigs
