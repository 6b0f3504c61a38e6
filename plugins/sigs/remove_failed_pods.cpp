#include "remove_failed_pods.hpp"

namespace kd::plugins::sigs {

bool RemoveFailedPods::matches(const Pod& pod, int64_t now_ms) const {
    if (pod.phase() != KD_POD_FAILED) return false;
    if (!in_scope(args_.namespaces, args_.labelSelector, pod)) return false;
    if (args_.minPodLifetimeSeconds) {
        // A pod created after `now` (clock skew) counts as not old enough.
        auto age = age_seconds(pod, now_ms);
        if (!age || *age < *args_.minPodLifetimeSeconds) return false;
    }
    for (auto o : pod.owners())
        if (listed(args_.excludeOwnerKinds, o.kind())) return false;
    ContainerLists lists{args_.includingInitContainers, false};
    if (!args_.reasons.empty()) {
        bool found = listed(args_.reasons, pod.status_reason()) && !pod.status_reason().empty();
        found = found || any_container(pod, lists, [&](const ContainerStatus& c) {
                    return (c.waiting() || c.terminated()) && !c.reason().empty() && listed(args_.reasons, c.reason());
                });
        if (!found) return false;
    }
    if (!args_.exitCodes.empty() && !any_container(pod, lists, [&](const ContainerStatus& c) {
            return c.terminated() && listed(args_.exitCodes, c.exit_code());
        }))
        return false;
    return true;
}

void RemoveFailedPods::deschedule(Cycle& cycle) {
    auto snap = cycle.snapshot();
    int64_t now = cycle.now_ms();
    // Node by node, in the node's own pod order; a node's limit ends that node, the total limit
    // the cycle (removefailedpods/failedpods.go@v0.35.1).
    std::vector<Pod> candidates;
    for (auto node : snap.nodes()) {
        candidates.clear();
        for (auto pod : snap.pods_on_node(node.name()))
            if (matches(pod, now) && evictor_admits(cycle, pod)) candidates.push_back(pod);
        auto tally = evict_in_order(cycle, candidates, loop_of("failed pod", true));
        if (tally.stopped_by == KD_EVICT_LIMIT_TOTAL) return;
    }
}

}  // namespace kd::plugins::sigs
