// LowNodeLoad: Koordinator's load-aware balance plugin (koord-descheduler's
// pkg/descheduler/framework/plugins/loadaware). Per node pool it classifies the nodes by their
// NodeMetric usage, gates overloaded nodes through an anomaly detector, and evicts pods from them
// towards the under-used nodes while capacity lasts. The KDESCHED_PLUGIN export lives in
// module.cpp so that tests can link this class without a second `kdesched_module`.
#pragma once

#include "anomaly.hpp"
#include "args.hpp"
#include "classify.hpp"
#include "eviction.hpp"
#include "node_usage.hpp"
#include "pod_filter.hpp"
#include "pool_state.hpp"
#include "pools.hpp"

#include <kdesched/node_fit.hpp>
#include <kdesched/plugin.hpp>

#include <cstdint>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace kd::plugins::lownodeload {

class LowNodeLoad {
public:
    static constexpr const char* kName = "LowNodeLoad";
    static constexpr const char* kVersion = "1.0.0";
    static constexpr const char* kDescription =
        "Evicts pods from nodes whose real usage (NodeMetric) stays above the high thresholds towards low nodes";
    using Args = LowNodeLoadArgs;

    LowNodeLoad(kd::Host& host, Args args);

    // Every pool in order (default pool first), each as koord's `processOneNodePool`; problems are
    // logged, never returned.
    void balance(kd::Cycle& cycle);

    const std::vector<Pool>& pools() const { return pools_; }
    const Args& args() const { return args_; }
    DetectorCache& node_detectors() { return node_detectors_; }
    DetectorCache& prod_detectors() { return prod_detectors_; }

private:
    void process_pool(kd::Cycle& cycle, const Pool& pool, kd::NodeRequestTotals& requests);
    // filterRealAbnormalNodes: the nodes whose detector is in Anomaly after one more abnormal mark.
    void filter_abnormal(const Pool& pool, const std::vector<uint32_t>& nodes, DetectorCache& cache, int64_t now_ms,
                         std::vector<uint32_t>& out);
    void log_criteria(const kd::Cycle& cycle, const Pool& pool, size_t pool_nodes) const;
    // Node facts for the host's reports: "pool" and "class" (high, low, prodHigh, prodLow, bothLow, appropriate).
    void report_nodes(const kd::Cycle& cycle, const Pool& pool) const;

    Args args_;
    std::vector<Pool> pools_;
    PodFilter filter_;
    DetectorCache node_detectors_;  // per node, node usage
    DetectorCache prod_detectors_;  // per node, prod usage

    // Working memory reused by every cycle (no per-cycle allocation once warm).
    NodeUsageLoader loader_;
    PoolState state_;
    Buckets buckets_;
    std::vector<const kd_node*> pool_nodes_;
    std::vector<const kd_node_metric*> pool_metrics_;  // parallel to pool_nodes_
    std::vector<uint32_t> abnormal_, abnormal_prod_, node_targets_, prod_targets_;
    PhaseRunner::Scratch scratch_;
    PickerFallbackLog picker_log_;
    EvictLimits limits_;
    std::unordered_set<std::string_view> processed_;  // names of high nodes of earlier pools (this call)
};

}  // namespace kd::plugins::lownodeload
