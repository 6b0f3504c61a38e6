#include "node_fit.hpp"

#include <kdesched/label_selector.hpp>

namespace kd::plugins::sigs {

namespace {

// A term's labelSelector as a decodable one, to validate and match it with the SDK's rules.
LabelSelector anti_affinity_selector(const PodAffinityTerm& term) {
    LabelSelector s;
    KeyValues labels = term.match_labels();
    for (size_t i = 0; i < labels.size(); ++i) s.matchLabels[std::string(labels.key(i))] = labels.value(i);
    for (auto r : term.match_expressions()) {
        LabelSelectorRequirement req{std::string(r.key()), std::string(r.op()), {}};
        for (size_t i = 0; i < r.value_count(); ++i) req.values.emplace_back(r.value(i));
        s.matchExpressions.push_back(std::move(req));
    }
    return s;
}

bool term_covers_namespace(const PodAffinityTerm& term, const Pod& owner, std::string_view ns) {
    if (term.namespace_count() == 0) return ns == owner.ns();
    for (size_t i = 0; i < term.namespace_count(); ++i)
        if (term.namespace_(i) == ns) return true;
    return false;
}

}  // namespace

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
    auto terms = pod.pod_anti_affinity_terms();
    if (terms.empty()) return false;
    KeyValues node_labels = node.labels();
    for (auto term : terms) {
        // No labelSelector selects no pod (metav1.LabelSelectorAsSelector(nil)).
        if (!term.has_label_selector()) continue;
        LabelSelector selector = anti_affinity_selector(term);
        Errors invalid;
        selector.validate(invalid, "");
        if (!invalid.empty()) return true;
        if (!node_labels.has(term.topology_key())) continue;
        for (auto other : snap_.pods_on_node(node.name())) {
            if (finished(other) || other.name() == pod.name()) continue;
            if (!term_covers_namespace(term, pod, other.ns())) continue;
            KeyValues labels = other.labels();
            if (selector.matches([&](const std::string& k) { return labels.get(k); })) return true;
        }
    }
    return false;
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
            if (!finished(p)) ++count;
        it = unfinished_pods_.emplace(std::string(node.name()), count).first;
    }
    int64_t free_milli = *slots - it->second * 1000;
    return pod.requests().milli("pods") <= free_milli && free_milli > 0;
}

}  // namespace kd::plugins::sigs
