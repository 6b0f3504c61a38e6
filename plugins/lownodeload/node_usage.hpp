// Node usage from the NodeMetric, as Koordinator's loadaware plugin computes it: usage =
// systemUsage + Σ podsMetric, prod usage = Σ podsMetric of the node's prod pods, pod counts, raw
// allocatable, and which podsMetric entry belongs to which pod.
//
// Done in two steps because the second is the expensive one (every pod's labels, every metric
// entry matched to its pod): load() reads the NodeMetric of every pool node; resolve() lists and
// matches the pods of a node, and is called only for the nodes where it can change an outcome —
// sources, prod targets, and nodes whose prod usage bounds (0 ≤ prod ≤ Σ podsMetric) do not
// already settle the prod classification (see LowNodeLoad::process_pool). The results are those
// of computing everything for every node.
#pragma once

#include "pool_state.hpp"

#include <kdesched/view.hpp>

#include <cstdint>
#include <vector>

namespace kd::plugins::lownodeload {

class NodeUsageLoader {
public:
    // Appends `node` to `state` with its usage (kUsage, kPodSum, kAlloc) and returns true; returns
    // false (and adds nothing) when the node has no NodeMetric, no status.nodeMetric, no
    // updateTime, or a metric at least `expiration_seconds` old at `now_ms`.
    bool load(PoolState& state, const kd::Snapshot& snapshot, kd::Node node, const ResourceSlots& slots, int64_t now_ms,
              int64_t expiration_seconds);
    // The same with the node's NodeMetric already looked up (`metric`, may be null); `next` is the
    // NodeMetric of the node loaded after this one (may be null), whose first entries are
    // prefetched so that consecutive nodes overlap their cache misses.
    bool load(PoolState& state, kd::Node node, const kd_node_metric* metric, const kd_node_metric* next,
              const kd::Snapshot& snapshot, const ResourceSlots& slots, int64_t now_ms, int64_t expiration_seconds);

    // Lists the node's non-finished pods with their priority class, matches podsMetric entries to
    // them, and fills kProdUsage and the pod counts. Does nothing for a resolved node.
    void resolve(PoolState& state, const kd::Snapshot& snapshot, size_t node, const ResourceSlots& slots);

private:
    // The pod of this node with the podsMetric entry's namespace/name, as an index into the
    // node's pods, or -1. Entry j usually describes pod j, so that is tried before any hashing.
    int32_t find_pod(const PoolState& state, const NodeEntry& n, size_t j, std::string_view ns, std::string_view name);
    void build_index(const PoolState& state, const NodeEntry& n);

    std::vector<int32_t> table_;  // open addressing: local pod index, -1 = empty (reused scratch)
    size_t mask_ = 0;
    bool indexed_ = false;
};

}  // namespace kd::plugins::lownodeload
