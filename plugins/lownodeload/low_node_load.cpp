#include "low_node_load.hpp"

#include "capacity.hpp"
#include "scoring.hpp"
#include "thresholds.hpp"

#include <string>
#include <utility>

namespace kd::plugins::lownodeload {

namespace {

int64_t detector_cache_ttl_ms(const LowNodeLoadArgs& args, int64_t interval_ms) {
    int64_t ttl = duration_ms_ceil(args.detectorCacheTimeout.value_or(kDefaultDetectorCacheTimeout));
    // [quirk] At start-up koord-descheduler raises a cache timeout shorter than the descheduling
    // interval to the interval, so a detector survives from one cycle to the next.
    if (interval_ms > 0 && ttl < interval_ms) ttl = interval_ms;
    return ttl;
}

// The class names of kd_host.report.
const char* bucket_name(Bucket b) {
    switch (b) {
        case Bucket::low:
            return "low";
        case Bucket::high:
            return "high";
        case Bucket::prod_low:
            return "prodLow";
        case Bucket::prod_high:
            return "prodHigh";
        case Bucket::both_low:
            return "bothLow";
        case Bucket::none:
            break;
    }
    return "appropriate";
}

std::string quoted(std::string_view s) {
    std::string out = "\"";
    out.append(s);
    out += '"';
    return out;
}

}  // namespace

LowNodeLoad::LowNodeLoad(kd::Host& host, Args args)
    : args_(std::move(args)),
      pools_(build_pools(args_)),
      filter_(args_),
      node_detectors_(detector_cache_ttl_ms(args_, host.descheduling_interval_ms())),
      prod_detectors_(detector_cache_ttl_ms(args_, host.descheduling_interval_ms())) {}

void LowNodeLoad::balance(kd::Cycle& cycle) {
    if (args_.paused.value_or(false)) {
        cycle.info("LowNodeLoad is paused and will do nothing.");
        return;
    }
    const int64_t now = cycle.now_ms();
    node_detectors_.sweep(now);
    prod_detectors_.sweep(now);
    processed_.clear();
    limits_.clear();
    kd::NodeRequestTotals requests(cycle.snapshot());
    for (const Pool& pool : pools_) process_pool(cycle, pool, requests);
}

void LowNodeLoad::filter_abnormal(const Pool& pool, const std::vector<uint32_t>& nodes, DetectorCache& cache,
                                  int64_t now_ms, std::vector<uint32_t>& out) {
    out.clear();
    if (!pool.anomaly) {
        out = nodes;  // no detector: every overloaded node counts at once
        return;
    }
    for (uint32_t n : nodes) {
        std::string_view name = kd::sv(state_.nodes[n].node->name);
        AnomalyDetector& d = cache.get_or_create(name, *pool.anomaly, now_ms);
        if (d.mark(false, now_ms) == AnomalyDetector::State::anomaly) out.push_back(n);
        cache.touch(name, now_ms);
    }
}

void LowNodeLoad::log_criteria(const kd::Cycle& cycle, const Pool& pool, size_t pool_nodes) const {
    const Buckets& b = buckets_;
    size_t classified = b.low.size() + b.high.size() + b.prod_low.size() + b.prod_high.size() + b.both_low.size();
    std::string line =
        "Criteria for nodes under low thresholds and above high thresholds nodePool=" + quoted(pool.name) +
        " nodesUnderUtilization=" + std::to_string(b.low.size()) +
        " nodesAboveTargetUtilization=" + std::to_string(b.high.size()) +
        " prodUnderUtilization=" + std::to_string(b.prod_low.size()) +
        " prodAboveTargetUtilization=" + std::to_string(b.prod_high.size()) +
        " bothUnderUtilization=" + std::to_string(b.both_low.size()) +
        " nodesAppropriatelyUtilized=" + std::to_string(state_.nodes.size() - classified) +
        " nodesWithoutUsage=" + std::to_string(pool_nodes - state_.nodes.size()) +
        " useDeviationThresholds=" + (pool.deviation ? "true" : "false");
    const auto& t = pool.thresholds;
    for (const auto& entry : t.low) {
        const std::string& name = entry.first;
        auto pct = [&name](const ResourceThresholds& m) {
            auto it = m.find(name);
            return format_percent(it == m.end() ? 0 : it->second);
        };
        line += " " + name + "=" +
                quoted(format_percent(entry.second) + "%(lowNode)-" + pct(t.high) + "%(highNode)," + pct(t.prod_low) +
                       "%(prodLow)-" + pct(t.prod_high) + "%(prodHigh)");
    }
    cycle.info(line);
}

void LowNodeLoad::report_nodes(const kd::Cycle& cycle, const Pool& pool) const {
    // For the host's reports (`kdesched simulate`): which pool saw the node (the last one wins when
    // pools overlap) and how it was classified. Nodes without usable metrics get no class.
    for (const kd_node* n : pool_nodes_) cycle.report_node(kd::sv(n->name), "pool", pool.name);
    for (const NodeEntry& n : state_.nodes) cycle.report_node(kd::sv(n.node->name), "class", bucket_name(n.bucket));
}

void LowNodeLoad::process_pool(kd::Cycle& cycle, const Pool& pool, kd::NodeRequestTotals& requests) {
    kd::Snapshot snap = cycle.snapshot();
    const int64_t now = cycle.now_ms();

    // 1. The pool's nodes. [quirk] only a pool with a selector skips nodes that an earlier pool
    //    found overloaded; a pool without one takes every node.
    pool_nodes_.clear();
    for (auto node : snap.nodes()) {
        if (pool.selector) {
            if (processed_.count(node.name())) continue;
            kd::KeyValues labels = node.labels();
            if (!pool.selector->matches([&](const std::string& k) { return labels.get(k); })) continue;
        }
        pool_nodes_.push_back(node.raw());
    }
    if (pool_nodes_.empty()) {
        cycle.debug("No nodes in node pool nodePool=" + quoted(pool.name));
        return;
    }

    // 2. Usage, absolute thresholds, classification.
    // Pods are a good guess for podsMetric entries (one each); the arrays only grow beyond it.
    state_.reset(pool.slots.size(), pool_nodes_.size(), snap.raw()->pod_count);
    const int64_t expiration = args_.nodeMetricExpirationSeconds.value_or(kDefaultNodeMetricExpirationSeconds);
    // Every NodeMetric first, so that loading one node can prefetch the next one's entries.
    pool_metrics_.clear();
    const kd_snapshot* raw = snap.raw();
    for (const kd_node* n : pool_nodes_) pool_metrics_.push_back(raw->node_metric(raw, n->name));
    const size_t count = pool_nodes_.size();
    for (size_t i = 0; i < count; ++i) {
        // A pipeline of prefetches, each hop asked for once the previous one has had time to
        // arrive: records three nodes ahead, their entry arrays and allocatable two ahead (load()
        // asks for the next node's resource lists).
        if (i + 3 < count) {
            __builtin_prefetch(pool_nodes_[i + 3]);
            if (pool_metrics_[i + 3]) __builtin_prefetch(pool_metrics_[i + 3]);
        }
        if (i + 2 < count) {
            __builtin_prefetch(pool_nodes_[i + 2]->raw_allocatable.items);
            if (pool_metrics_[i + 2]) __builtin_prefetch(pool_metrics_[i + 2]->pods);
        }
        loader_.load(state_, kd::Node(pool_nodes_[i]), pool_metrics_[i], i + 1 < count ? pool_metrics_[i + 1] : nullptr,
                     snap, pool.slots, now, expiration);
    }
    auto resolve = [&](size_t i) { loader_.resolve(state_, snap, i, pool.slots); };
    // Deviation thresholds average the prod usage of every node: it is needed everywhere.
    if (pool.deviation)
        for (size_t i = 0; i < state_.nodes.size(); ++i) resolve(i);
    compute_node_thresholds(state_, pool.slots, pool.percents, pool.deviation);
    for (size_t i = 0; i < state_.nodes.size(); ++i)
        if (!prod_settled_by_bounds(state_, i, pool.slots.thresholds)) resolve(i);
    classify(state_, pool.slots.thresholds, buckets_);
    log_criteria(cycle, pool, pool_nodes_.size());
    report_nodes(cycle, pool);

    // 3.-4. Overloaded nodes, gated by the anomaly detectors (marked even if we stop below).
    if (buckets_.high.empty() && buckets_.prod_high.empty()) {
        cycle.debug("All nodes are under target utilization, nothing to do here nodePool=" + quoted(pool.name));
        return;
    }
    filter_abnormal(pool, buckets_.high, node_detectors_, now, abnormal_);
    filter_abnormal(pool, buckets_.prod_high, prod_detectors_, now, abnormal_prod_);
    if (abnormal_.empty() && abnormal_prod_.empty()) {
        cycle.debug("No overloaded node has been abnormal long enough, nothing to do here nodePool=" +
                    quoted(pool.name));
        return;
    }

    // 5. Somewhere to move pods to.
    if (buckets_.low.empty() && buckets_.prod_low.empty() && buckets_.both_low.empty()) {
        cycle.debug("No node is underutilized, nothing to do here nodePool=" + quoted(pool.name));
        return;
    }

    // 6. Under-used nodes start their anomaly count over.
    auto reset = [&](const std::vector<uint32_t>& nodes, DetectorCache& cache) {
        for (uint32_t n : nodes)
            if (AnomalyDetector* d = cache.find(kd::sv(state_.nodes[n].node->name), now)) d->reset(now);
    };
    reset(buckets_.low, node_detectors_);
    reset(buckets_.both_low, node_detectors_);
    reset(buckets_.prod_low, prod_detectors_);

    // 7.-8.
    const size_t low_count = buckets_.low.size() + buckets_.prod_low.size() + buckets_.both_low.size();
    if (low_count <= static_cast<size_t>(args_.numberOfNodes.value_or(0))) {
        cycle.debug("Number of nodes underutilized is less or equal than NumberOfNodes, nothing to do here nodePool=" +
                    quoted(pool.name) + " underutilizedNodes=" + std::to_string(low_count));
        return;
    }
    if (low_count == pool_nodes_.size()) {
        cycle.debug("All nodes are underutilized, nothing to do here nodePool=" + quoted(pool.name));
        return;
    }

    // 9. Most loaded sources first. The node score reads the pod count only when "pods" weighs
    //    something; otherwise each source is resolved when the eviction gets to it.
    if (pool.slots.pods >= pool.slots.thresholds && pool.weights[pool.slots.pods] != 0)
        for (uint32_t i : abnormal_) resolve(i);
    sort_nodes_by_usage(abnormal_, state_, PoolState::kUsage, pool.slots, pool.weights);
    sort_nodes_by_usage(abnormal_prod_, state_, PoolState::kProdUsage, pool.slots, pool.weights);

    // 10. The node phase, then the prod phase with what the shared nodes have left.
    const size_t n = pool.slots.thresholds;
    // The prod budgets read the prod usage of the prod targets; without a prod source the prod
    // phase has nothing to do and they are not needed.
    const bool prod_phase = !abnormal_prod_.empty();
    if (prod_phase) {
        for (uint32_t i : buckets_.prod_low) resolve(i);
        for (uint32_t i : buckets_.both_low) resolve(i);
    }
    Budgets budgets = initial_budgets(state_, buckets_.low, buckets_.both_low, buckets_.prod_low, n, prod_phase);
    node_targets_ = buckets_.low;
    node_targets_.insert(node_targets_.end(), buckets_.both_low.begin(), buckets_.both_low.end());
    prod_targets_ = buckets_.prod_low;
    prod_targets_.insert(prod_targets_.end(), buckets_.both_low.begin(), buckets_.both_low.end());
    PhaseRunner runner{cycle,
                       pool,
                       state_,
                       requests,
                       filter_,
                       limits_,
                       args_.dryRun.value_or(false),
                       args_.nodeFit.value_or(true),
                       [&](uint32_t i) { resolve(i); },
                       args_.podPicker ? &*args_.podPicker : nullptr,
                       picker_log_,
                       scratch_};
    runner.run(abnormal_, node_targets_, budgets.node_total, false, node_detectors_);
    if (prod_phase) {
        std::vector<int64_t> prod_total = prod_total_after_node_phase(budgets);
        runner.run(abnormal_prod_, prod_targets_, prod_total, true, prod_detectors_);
    }

    // 11. One normal mark for every source.
    for (uint32_t i : abnormal_)
        if (AnomalyDetector* d = node_detectors_.find(kd::sv(state_.nodes[i].node->name), now)) d->mark(true, now);
    for (uint32_t i : abnormal_prod_)
        if (AnomalyDetector* d = prod_detectors_.find(kd::sv(state_.nodes[i].node->name), now)) d->mark(true, now);

    // 12. Node-overloaded nodes are done for pools with a selector.
    for (uint32_t i : buckets_.high) processed_.insert(kd::sv(state_.nodes[i].node->name));
}

}  // namespace kd::plugins::lownodeload
