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
    // Pods carry what the kubernetes-sigs plugins read (kdesched-bench --sigs): a quarter of the
    // workloads a zone spread constraint (ScheduleAnyway), another quarter required anti-affinity
    // by host name, one pod in ten a container restarted 1–19 times, one in two hundred Failed
    // (Evicted).
    bool descheduler_fields = false;
};

void generate_cluster(std::ostream& out, const GeneratorOptions& options);

}  // namespace kd::tools
