// The nodes a duplicate could land on, for RemoveDuplicates' getTargetNodes
// (pkg/framework/plugins/removeduplicates/removeduplicates.go@v0.35.1): a pod's tolerations,
// nodeSelector and required node affinity decide, so pods that agree on those land on the same
// nodes. Each distinct placement is checked against the nodes once per cycle, not once per owner
// group: the groups of a large cluster share a handful of placements.
#pragma once

#include <kdesched/view.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace kd::plugins::sigs {

class PlacementTargets {
public:
    explicit PlacementTargets(const Snapshot& snap);

    // Which placement `pod` has: equal for pods whose tolerations, nodeSelector and required node
    // affinity are written the same.
    size_t placement_of(const Pod& pod);
    // The indices (into the snapshot's nodes) of the nodes pods of placement `id` may land on:
    // their NoSchedule and NoExecute taints tolerated, their labels selected. Not `unschedulable`,
    // not resources, as upstream.
    const std::vector<uint32_t>& nodes_of(size_t id) const { return nodes_[id]; }
    // How many distinct nodes the placements in `ids` reach together, counting only placements
    // that reach more than one node (upstream's rule).
    size_t reach(const std::vector<size_t>& ids);

private:
    std::vector<Node> all_nodes_;
    std::unordered_map<std::string, size_t> id_of_text_;
    // The fields are the spec's, but for the pod's own required-affinity flag.
    std::map<std::pair<const kd_pod_spec*, bool>, size_t> id_of_spec_;
    std::vector<std::vector<uint32_t>> nodes_;
    std::vector<uint32_t> mark_;  // per node: the reach() call that last counted it
    uint32_t round_ = 0;
};

}  // namespace kd::plugins::sigs
