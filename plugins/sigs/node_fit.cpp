#include "node_fit.hpp"

#include <kdesched/pod_affinity.hpp>

namespace kd::plugins::sigs {

bool UpstreamNodeFit::fits(const Pod& pod, const Node& node) {
    // Upstream's order (cheapest first); the answer does not depend on it.
    if (node.unschedulable()) return false;
    if (!pod_matches_node_selector(pod, node)) return false;
    if (!tolerates_taints_where(pod, node,
                                [](const Taint& t) { return t.effect() == "NoSchedule" || t.effect() == "NoExecute"; }))
        return false;
    if (anti_affinity_conflict(pod, node)) return false;
    // The pod's own node already holds its requests: upstream checks resources only elsewhere.
    if (pod.node_name().empty() || pod.node_name() != node.name())
        return totals_.resources_fit(pod, node) && room_for_a_pod(pod, node);
    return true;
}

bool UpstreamNodeFit::anti_affinity_conflict(const Pod& pod, const Node& node) {
    // An invalid selector counts as a conflict: upstream's NodeFit returns its conversion error.
    return anti_affinity_match_on_node(pod, node, snap_.pods_on_node(node.name())) != AntiAffinityMatch::none;
}

bool UpstreamNodeFit::room_for_a_pod(const Pod& pod, const Node& node) {
    // Upstream's fitsRequest: at least one pod slot must be free whatever the pod asks. A node
    // whose allocatable does not list `pods` (only a hand-written snapshot) is not limited, as
    // RemovePodsViolatingTopologySpreadConstraint's fit has it; upstream finds no slot there.
    auto slots = node.allocatable().find("pods");
    if (!slots) return true;
    auto it = unfinished_pods_.find(std::string(node.name()));
    if (it == unfinished_pods_.end()) {
        int64_t count = 0;
        for (auto p : snap_.pods_on_node(node.name()))
            if (!p.finished()) ++count;
        it = unfinished_pods_.emplace(std::string(node.name()), count).first;
    }
    int64_t free_milli = *slots - it->second * 1000;
    return pod.requests().milli("pods") <= free_milli && free_milli > 0;
}

}  // namespace kd::plugins::sigs
