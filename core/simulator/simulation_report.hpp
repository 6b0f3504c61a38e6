// What `kdesched simulate` reports: per cycle, the nodes as the descheduler saw them, every
// eviction request and its outcome, the migration jobs, the pods that moved and, with --explain,
// why each considered pod stayed.
#pragma once

#include "runtime/explain_table.hpp"

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace kd::core {

struct NodeReport {
    std::string name;
    std::string pool;                    // reported by a balance plugin (kd_host.report), "" when none did
    std::string klass;                   // high, low, prodHigh, prodLow, bothLow, appropriate, or ""
    double cpu_pct = 0, memory_pct = 0;  // NodeMetric usage over raw allocatable; -1 = no NodeMetric
};

struct EvictionReport {
    std::string pod;  // ns/name
    std::string node;
    std::string plugin;  // the plugin that asked
    std::string reason;
    std::string result;  // accepted, dry-run, filtered, limit-node, limit-namespace, limit-total, failed
    std::string decided_by, detail;
};

// One phase a migration job was seen in (after a cycle or a controller tick), with its reason.
struct JobPhaseChange {
    int64_t time_ms = 0;
    std::string phase, reason;
};

struct MigrationJobReport {
    std::string name, pod, phase, reason, message, source_node, target_node;
    bool passed_arbitration = false;
    std::vector<JobPhaseChange> history;  // every phase change so far, oldest first
};

// descheduler_pod_picker_requests_total{profile, plugin, result} = value.
struct PickerCounter {
    std::string profile, plugin, result;
    uint64_t value = 0;
};

// descheduler_pods_evicted{result, strategy, namespace, node} = value.
struct EvictedCounter {
    std::string result, strategy, ns, node;
    uint64_t value = 0;
};

// A pod the cluster moved between cycles: evicted from `from`, its replacement placed on `to`
// ("" when nothing could take it, `replacement` empty when no controller recreates it).
struct PodMove {
    std::string pod, from, replacement, to;
};

// A Kubernetes Event a plugin recorded.
struct EventReport {
    std::string kind, ns, name, type, reason, action, message, plugin;
};

struct CycleReport {
    uint64_t cycle = 0;
    int64_t time_ms = 0;
    std::string error;                     // why the cycle stopped early, if it did
    std::vector<std::string> tick_errors;  // failures of plugins' periodic work after the cycle
    std::vector<NodeReport> nodes;
    std::vector<EvictionReport> evictions;
    std::vector<MigrationJobReport> migration_jobs;
    std::vector<PodMove> moves;
    std::vector<EventReport> events;
    std::vector<ExplainEntry> explain;
};

struct SimulationReport {
    std::string config, start_time;
    int64_t interval_ms = 0;
    std::vector<CycleReport> cycles;
    bool explain = false;
    std::vector<EvictedCounter> pods_evicted;        // the metric at the end of the run, sorted by labels
    std::vector<PickerCounter> pod_picker_requests;  // descheduler_pod_picker_requests_total
};

// Totals over every cycle.
struct SimulationSummary {
    size_t requests = 0;        // eviction requests
    size_t evicted = 0;         // accepted or dry-run
    size_t moved = 0;           // replacements placed on a node
    size_t unplaced = 0;        // replacements left Pending
    uint64_t pods_evicted = 0;  // pods actually taken off their node (descheduler_pods_evicted, success)
};
bool evicted(const EvictionReport& e);
SimulationSummary summarize(const SimulationReport& report);

void write_json(std::ostream& out, const SimulationReport& report);
void write_table(std::ostream& out, const SimulationReport& report);

}  // namespace kd::core
