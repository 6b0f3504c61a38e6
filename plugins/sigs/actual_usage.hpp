// Actual usage for LowNodeUtilization's metricsUtilization (kubernetes-sigs/descheduler
// pkg/framework/plugins/nodeutilization/usageclients.go@v0.35.1, actualUsageClient): node usage
// from the host's NodeMetrics (metrics.k8s.io, already smoothed by the host as upstream's metrics
// collector smooths it: pkg/descheduler/metricscollector/metricscollector.go), the pods resource
// counted from the node's pods, and an evicted pod's usage from its PodMetrics.
#pragma once

#include "utilization_usage.hpp"

#include <kdesched/plugin.hpp>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kd::plugins::sigs {

// One hook call's metrics.k8s.io answers (Snapshot::list_objects, plugin API 1.8). PodMetrics are
// asked for and parsed on the first pod_usage only: most runs evict nothing, and a large cluster's
// list is long.
class ActualUsage {
public:
    explicit ActualUsage(const Snapshot& snapshot);

    // Every node of the extension point measured on `resources` from its NodeMetrics' cpu and
    // memory (the two the collector keeps) and its pod count. Throws std::runtime_error, failing
    // the whole run as upstream's sync does, when a node has no metrics yet or a resource is
    // not in them: no metrics is not zero usage.
    std::vector<NodeUtilization> measure_nodes(const Snapshot& snapshot,
                                               const std::vector<std::string>& resources) const;

    // The pod's usage summed over its containers for `resources` but pods; nullopt with the
    // reason in `why` when it has no PodMetrics or a container lacks one of them.
    std::optional<ResourceAmounts> pod_usage(const Pod& pod, const std::vector<std::string>& resources,
                                             std::string& why);

private:
    void read_pods();

    Snapshot snapshot_;
    bool pods_read_ = false;
    std::map<std::string, ResourceAmounts, std::less<>> nodes_;  // by name: cpu, memory
    struct Container {
        std::string name;
        ResourceAmounts usage;
    };
    std::map<std::pair<std::string, std::string>, std::vector<Container>, std::less<>> pods_;  // by ns, name
};

}  // namespace kd::plugins::sigs
