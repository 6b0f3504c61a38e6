#include "node_taints.hpp"

#include "node_fit.hpp"

namespace kd::plugins::sigs {

namespace {

// A taint is named in `list` by its key, or by "key=value" when it has a value (upstream's
// includeTaint/excludeTaint): "key=" never names a taint without a value.
bool names_taint(const std::vector<std::string>& list, const Taint& taint) {
    if (listed(list, taint.key())) return true;
    if (taint.value().empty()) return false;
    std::string key_value;
    key_value.reserve(taint.key().size() + 1 + taint.value().size());
    key_value.append(taint.key()).append(1, '=').append(taint.value());
    return listed(list, key_value);
}

}  // namespace

void RemovePodsViolatingNodeTaintsArgs::validate(Errors& errs, const std::string& path) const {
    if (!excludedTaints.empty() && includedTaints && !includedTaints->empty())
        errs.add(path, "either includedTaints or excludedTaints can be set, but not both");
}

bool RemovePodsViolatingNodeTaints::considers(const Taint& taint) const {
    // NoExecute is the kubelet's (taint manager's) to act on, not this plugin's (upstream).
    bool effect =
        taint.effect() == "NoSchedule" || (args_.includePreferNoSchedule && taint.effect() == "PreferNoSchedule");
    if (!effect || names_taint(args_.excludedTaints, taint)) return false;
    return !args_.includedTaints || names_taint(*args_.includedTaints, taint);
}

bool RemovePodsViolatingNodeTaints::matches(const Pod& pod, const Node& node) const {
    if (pod.finished() || !in_scope(args_.namespaces, args_.labelSelector, pod)) return false;
    return !tolerates_taints_where(pod, node, [this](const Taint& t) { return considers(t); });
}

void RemovePodsViolatingNodeTaints::deschedule(Cycle& cycle) {
    auto snap = cycle.snapshot();
    // Node by node in the node's pod order; a node's limit ends that node, the total limit the
    // cycle (removepodsviolatingnodetaints/node_taint.go@v0.35.1).
    std::vector<Pod> candidates;
    for (auto node : snap.nodes()) {
        candidates.clear();
        for (auto pod : snap.pods_on_node(node.name()))
            if (matches(pod, node) && evictor_admits(cycle, pod)) candidates.push_back(pod);
        auto tally = evict_in_order(cycle, candidates, loop_of("pod does not tolerate a taint of its node", true));
        if (tally.stopped_by == KD_EVICT_LIMIT_TOTAL) return;
    }
}

}  // namespace kd::plugins::sigs
