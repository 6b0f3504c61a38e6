// Would a pod fit another node? Upstream's node.PodFitsAnyOtherNode (pkg/descheduler/node/node.go
// @v0.35.1) over a given node list: unschedulable, nodeSelector and required node affinity,
// NoSchedule/NoExecute taints, requested resources against what the node's running pods leave,
// and a free pod slot. Inter-pod anti-affinity is not checked: the model does not carry it.
#pragma once

#include <kdesched/node_fit.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kd::plugins::sigs {

class SpreadNodeFit {
public:
    explicit SpreadNodeFit(Snapshot snapshot) : snap_(snapshot), totals_(snapshot) {}

    // True when the pod fits some node of `nodes` other than its own.
    bool fits_another(const Pod& pod, const std::vector<Node>& nodes) {
        for (const Node& node : nodes)
            if (node.name() != pod.node_name() && fits(pod, node)) return true;
        return false;
    }

    bool fits(const Pod& pod, const Node& node) { return totals_.fits(pod, node) && has_pod_slot(node); }

private:
    // Upstream counts a node's non-finished pods against its allocatable `pods`; a node whose
    // allocatable does not list `pods` (a hand-written snapshot) is not limited here.
    bool has_pod_slot(const Node& node) {
        auto slots = node.allocatable().find("pods");
        if (!slots) return true;
        return *slots / 1000 - running_pods(node) > 0;
    }
    int64_t running_pods(const Node& node) {
        auto it = running_.find(node.name());
        if (it != running_.end()) return it->second;
        int64_t n = 0;
        for (auto p : snap_.pods_on_node(node.name()))
            if (p.phase() != KD_POD_SUCCEEDED && p.phase() != KD_POD_FAILED) ++n;
        running_.emplace(std::string(node.name()), n);
        return n;
    }

    Snapshot snap_;
    NodeRequestTotals totals_;
    std::map<std::string, int64_t, std::less<>> running_;
};

}  // namespace kd::plugins::sigs
