// Upstream's NodeFit (kubernetes-sigs/descheduler pkg/descheduler/node/node.go@v0.35.1), which the
// node-affinity and topology-spread plugins ask themselves (not through the evictor's nodeFit):
// would the pod fit this node? Built on the SDK's checks (kdesched/node_fit.hpp), with what upstream does differently:
//   * tolerations with the `Lt` / `Gt` operators count (upstream enables the comparisons);
//   * the pod's required pod anti-affinity against the pods on the node;
//   * the node's resources are not checked for the pod's own node;
//   * a node must have room for one more pod: allocatable `pods` above its unfinished pods (a node
//     without `pods` in allocatable is not limited: upstream finds no room there).
#pragma once

#include "common.hpp"

#include <kdesched/node_fit.hpp>

#include <cstdint>
#include <string>
#include <unordered_map>

namespace kd::plugins::sigs {

// One per hook call: caches each node's summed requests and pod count.
class UpstreamNodeFit {
public:
    explicit UpstreamNodeFit(Snapshot snapshot) : snap_(snapshot), totals_(snapshot) {}

    // NodeFit: unschedulable, nodeSelector and required node affinity, NoSchedule and NoExecute
    // taints, required pod anti-affinity, then (another node only) requests and the pod count.
    bool fits(const Pod& pod, const Node& node);

    // PodFitsAnyNode: the pod fits one of `nodes` (its own node included).
    template <class Range>
    bool fits_any(const Pod& pod, const Range& nodes) {
        for (auto node : nodes)
            if (fits(pod, node)) return true;
        return false;
    }
    // PodFitsAnyOtherNode: the pod fits one of `nodes` other than its own.
    template <class Range>
    bool fits_any_other(const Pod& pod, const Range& nodes) {
        for (auto node : nodes)
            if (node.name() != pod.node_name() && fits(pod, node)) return true;
        return false;
    }

    // upstream's podMatchesInterPodAntiAffinity: a required anti-affinity term of the pod selects
    // an unfinished pod of another name on the node, in the term's namespaces (the pod's own when
    // it lists none; the namespaceSelector is not read, as upstream), and the node has the term's
    // topology key. A term whose labelSelector is invalid counts as a conflict (upstream's error).
    bool anti_affinity_conflict(const Pod& pod, const Node& node);

private:
    bool room_for_a_pod(const Pod& pod, const Node& node);

    Snapshot snap_;
    NodeRequestTotals totals_;
    std::unordered_map<std::string, int64_t> unfinished_pods_;
};

// True when every taint of `node` that `considered` selects is tolerated by one of the pod's
// tolerations (upstream's utils.TolerationsTolerateTaintsWithFilter, comparisons enabled).
template <class Considered>
bool tolerates_taints_where(const Pod& pod, const Node& node, Considered&& considered) {
    for (auto taint : node.taints()) {
        if (!considered(taint)) continue;
        bool tolerated = false;
        for (auto t : pod.tolerations()) {
            if (toleration_tolerates_taint_comparing(t, taint)) {
                tolerated = true;
                break;
            }
        }
        if (!tolerated) return false;
    }
    return true;
}

}  // namespace kd::plugins::sigs
