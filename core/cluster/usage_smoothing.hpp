// Node usage smoothed over polls of metrics.k8s.io, as kubernetes-sigs/descheduler's metrics
// collector does (pkg/descheduler/metricscollector/metricscollector.go@v0.35.1): a node's first
// sample is taken as it is, each later one moves the kept value a tenth of the way towards it
// (value = round(0.9 × kept + 0.1 × sample), cpu in milli-cores, memory in bytes), and a node the
// poll did not return keeps its value. Only cpu and memory are kept, as there. Pod usage is not
// smoothed (upstream reads it fresh when it evicts): the last poll's answer replaces it.
#pragma once

#include "cluster/usage_metrics.hpp"

#include <vector>

namespace kd::core {

class UsageSmoothing {
public:
    // One poll's NodeMetrics.
    void take_nodes(const std::vector<NodeUsage>& listed);
    // One poll's PodMetrics (all of them), or none when the poll failed.
    void take_pods(std::vector<PodUsage> listed);
    const UsageMetrics& current() const { return current_; }

private:
    UsageMetrics current_;
};

}  // namespace kd::core
