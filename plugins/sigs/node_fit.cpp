#include "node_fit.hpp"

namespace kd::plugins::sigs {

bool UpstreamNodeFit::fits(const Pod& pod, const Node& node) {
    // Upstream's order (cheapest first); the answer does not depend on it.
    if (node.unschedulable()) return false;
    if (!pod_matches_node_selector(pod, node)) return false;
    if (!tolerates_taints_where(pod, node,
                                [](const Taint& t) { return t.effect() == "NoSchedule" || t.effect() == "NoExecute"; }))
        return false;
    // The pod's own node already holds its requests: upstream checks resources only elsewhere.
    if (pod.node_name().empty() || pod.node_name() != node.name())
        return totals_.resources_fit(pod, node) && room_for_a_pod(pod, node);
    return true;
}

bool UpstreamNodeFit::room_for_a_pod(const Pod& pod, const Node& node) {
    auto it = unfinished_pods_.find(std::string(node.name()));
    if (it == unfinished_pods_.end()) {
        int64_t count = 0;
        for (auto p : snap_.pods_on_node(node.name()))
            if (!finished(p)) ++count;
        it = unfinished_pods_.emplace(std::string(node.name()), count).first;
    }
    // Upstream's fitsRequest: `pods` is always checked, a node without it in allocatable has
    // none free, and at least one must be free whatever the pod asks.
    int64_t free_milli = node.allocatable().milli("pods") - it->second * 1000;
    return pod.requests().milli("pods") <= free_milli && free_milli > 0;
}

}  // namespace kd::plugins::sigs
