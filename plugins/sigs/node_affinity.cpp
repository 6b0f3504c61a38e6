#include "node_affinity.hpp"

#include "node_fit.hpp"

#include <algorithm>

namespace kd::plugins::sigs {

void RemovePodsViolatingNodeAffinityArgs::validate(Errors& errs, const std::string& path) const {
    if (nodeAffinityType.empty()) errs.add(field_path(path, "nodeAffinityType"), "nodeAffinityType needs to be set");
    // Another value is accepted, as upstream accepts it, and skipped with an error in the log
    // every cycle (see deschedule).
}

namespace {

// The sum of the weights of the pod's preferred terms that the node matches (upstream's
// GetNodeWeightGivenPodPreferredAffinity); a malformed or empty term matches no node.
int64_t preferred_weight(const Pod& pod, const Node& node) {
    int64_t sum = 0;
    for (auto term : pod.preferred_node_terms())
        if (node_selector_term_matches(term.preference(), node)) sum += term.weight();
    return sum;
}

}  // namespace

bool RemovePodsViolatingNodeAffinity::violates_required(const Pod& pod, const Node& node, UpstreamNodeFit& fit,
                                                        const Snapshot& snap) const {
    // Upstream takes only pods with a required node affinity; their nodeSelector counts too.
    if (!pod.has_required_node_affinity()) return false;
    if (pod_matches_node_selector(pod, node)) return false;
    return fit.fits_any(pod, snap.nodes());
}

bool RemovePodsViolatingNodeAffinity::violates_preferred(const Pod& pod, const Node& node, UpstreamNodeFit& fit,
                                                         const Snapshot& snap) const {
    if (pod.preferred_node_terms().empty()) return false;
    // The best weight over every node, fitting or not, as upstream's
    // GetBestNodeWeightGivenPodPreferredAffinity: the evictor's nodeFit, when on, then asks for
    // another node that fits. Weights first: they are cheaper than the fit.
    int64_t here = preferred_weight(pod, node);
    bool heavier = false;
    for (auto other : snap.nodes()) {
        if (preferred_weight(pod, other) > here) {
            heavier = true;
            break;
        }
    }
    return heavier && fit.fits_any(pod, snap.nodes());
}

template <class Violates>
bool RemovePodsViolatingNodeAffinity::evict_where(Cycle& cycle, std::string_view reason,
                                                  std::vector<std::string>& evicted, Violates&& violates) {
    auto snap = cycle.snapshot();
    std::vector<Pod> candidates;
    for (auto node : snap.nodes()) {
        candidates.clear();
        for (auto pod : snap.pods_on_node(node.name())) {
            if (pod.finished() || !in_scope(args_.namespaces, args_.labelSelector, pod)) continue;
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
        } else if (type == kPreferredAffinity) {
            go_on =
                evict_where(cycle, "pod prefers another node by its node affinity", evicted,
                            [&](const Pod& pod, const Node& node) { return violates_preferred(pod, node, fit, snap); });
        } else {
            cycle.log(LogLevel::error, "invalid nodeAffinityType \"" + type + "\" skipped: the known ones are " +
                                           kRequiredAffinity + " and " + kPreferredAffinity);
        }
        if (!go_on) return;
    }
}

}  // namespace kd::plugins::sigs
