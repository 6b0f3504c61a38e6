#include "node_affinity.hpp"

#include "node_fit.hpp"

#include <algorithm>

namespace kd::plugins::sigs {

void RemovePodsViolatingNodeAffinityArgs::validate(Errors& errs, const std::string& path) const {
    if (nodeAffinityType.empty()) errs.add(field_path(path, "nodeAffinityType"), "nodeAffinityType needs to be set");
    // Another value is accepted, as upstream accepts it, and skipped with an error in the log
    // every cycle (see deschedule).
    for (size_t i = 0; i < nodeAffinityType.size(); ++i)
        if (nodeAffinityType[i] == kPreferredAffinity)
            errs.add(index_path(field_path(path, "nodeAffinityType"), i),
                     std::string(kPreferredAffinity) +
                         " is not supported yet: kdesched does not read a pod's preferred node affinity "
                         "(docs/compatibility.md); use " +
                         kRequiredAffinity);
}

bool RemovePodsViolatingNodeAffinity::violates_required(const Pod& pod, const Node& node, UpstreamNodeFit& fit,
                                                        const Snapshot& snap) const {
    // Upstream takes only pods with a required node affinity; their nodeSelector counts too.
    if (!pod.has_required_node_affinity()) return false;
    if (pod_matches_node_selector(pod, node)) return false;
    return fit.fits_any(pod, snap.nodes());
}

template <class Violates>
bool RemovePodsViolatingNodeAffinity::evict_where(Cycle& cycle, std::string_view reason,
                                                  std::vector<std::string>& evicted, Violates&& violates) {
    auto snap = cycle.snapshot();
    std::vector<Pod> candidates;
    for (auto node : snap.nodes()) {
        candidates.clear();
        for (auto pod : snap.pods_on_node(node.name())) {
            if (finished(pod) || !in_scope(args_.namespaces, args_.labelSelector, pod)) continue;
            // A pod evicted by an earlier nodeAffinityType is not asked for again.
            if (listed(evicted, pod.uid())) continue;
            if (violates(pod, node) && evictor_admits(cycle, pod)) candidates.push_back(pod);
        }
        auto tally =
            evict_in_order(cycle, candidates, loop_of(reason, true), [&](const Pod& pod, const EvictOutcome& out) {
                if (out.evicted()) evicted.emplace_back(pod.uid());
            });
        if (tally.stopped_by == KD_EVICT_LIMIT_TOTAL) return false;
    }
    return true;
}

void RemovePodsViolatingNodeAffinity::deschedule(Cycle& cycle) {
    auto snap = cycle.snapshot();
    UpstreamNodeFit fit(snap);
    std::vector<std::string> evicted;
    for (const auto& type : args_.nodeAffinityType) {
        bool go_on = true;
        if (type == kRequiredAffinity) {
            go_on =
                evict_where(cycle, "pod violates its required node affinity", evicted,
                            [&](const Pod& pod, const Node& node) { return violates_required(pod, node, fit, snap); });
        } else {
            cycle.log(LogLevel::error, "invalid nodeAffinityType \"" + type + "\" skipped: the known ones are " +
                                           kRequiredAffinity + " and " + kPreferredAffinity);
        }
        if (!go_on) return;
    }
}

}  // namespace kd::plugins::sigs
