#include "too_many_restarts.hpp"

#include <algorithm>
#include <utility>

namespace kd::plugins::sigs {

void RemovePodsHavingTooManyRestartsArgs::validate(Errors& errs, const std::string& path) const {
    if (podRestartThreshold < 1)
        errs.add(field_path(path, "podRestartThreshold"), "invalid PodsHavingTooManyRestarts threshold");
    static const std::vector<std::string> allowed = {"Running", "CrashLoopBackOff"};
    if (std::any_of(states.begin(), states.end(), [&](const std::string& s) { return !listed(allowed, s); }))
        errs.add(field_path(path, "states"), "states must be one of " + go_list(allowed));
}

bool RemovePodsHavingTooManyRestarts::matches(const Pod& pod) const {
    if (!in_scope(args_.namespaces, args_.labelSelector, pod)) return false;
    ContainerLists lists{args_.includingInitContainers, false};
    if (total_restarts(pod, lists) < args_.podRestartThreshold) return false;
    // `states` reads the phase and waiting reasons only, not terminated ones (upstream).
    if (!args_.states.empty() && !listed(args_.states, phase_name(pod.phase())) &&
        !any_container(pod, lists,
                       [&](const ContainerStatus& c) { return c.waiting() && listed(args_.states, c.reason()); }))
        return false;
    return true;
}

void RemovePodsHavingTooManyRestarts::deschedule(Cycle& cycle) {
    auto snap = cycle.snapshot();
    ContainerLists lists{args_.includingInitContainers, false};
    std::vector<std::pair<int64_t, Pod>> ranked;
    std::vector<Pod> candidates;
    for (auto node : snap.nodes()) {
        ranked.clear();
        auto on_node = snap.pods_on_node(node.name());
        // The restart counts are in each pod's container statuses, an array of its own.
        for (auto p : on_node) __builtin_prefetch(p.container_statuses().data());
        for (auto pod : on_node)
            if (matches(pod) && evictor_admits(cycle, pod)) ranked.emplace_back(total_restarts(pod, lists), pod);
        // Most restarts first; ties keep the node's pod order.
        std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        candidates.clear();
        for (auto& [restarts, pod] : ranked) candidates.push_back(pod);
        auto tally = evict_in_order(cycle, candidates, loop_of("too many container restarts", true));
        if (tally.stopped_by == KD_EVICT_LIMIT_TOTAL) return;
    }
}

}  // namespace kd::plugins::sigs
