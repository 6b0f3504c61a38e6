// Writes a synthetic cluster snapshot as one JSON List, shaped like `kubectl get
// nodes,pods,replicasets,deployments,statefulsets,jobs,nodemetrics -A -o json`.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

namespace kd::tools {

struct GeneratorOptions {
    uint64_t nodes = 100, pods = 3000, seed = 1;
    double hot_share = 0.1;  // share of nodes whose pods run hot
    // Pods carry metadata.managedFields as an API server sends them (~6 KB a pod instead of ~2 KB):
    // for measuring a client against a server.
    bool managed_fields = false;
    // NodeMetrics' status.updateTime; "" = 2026-03-01T09:00:00Z (what the examples use). A daemon
    // on the wall clock needs "now" to treat them as fresh.
    std::string metric_time;
};

void generate_cluster(std::ostream& out, const GeneratorOptions& options);

}  // namespace kd::tools
