// Inter-pod (anti-)affinity terms as kubernetes-sigs/descheduler v0.35.1 reads them
// (pkg/utils/predicates.go and pkg/descheduler/node/node.go): which pods a term selects, in which
// namespaces, whether two nodes share a topology domain, and the two anti-affinity checks built on
// them: "does this pod's required anti-affinity forbid that node" (NodeFit's
// podMatchesInterPodAntiAffinity) and "is this pod's required anti-affinity violated where it runs"
// (CheckPodsWithAntiAffinityExist).
//
//     for (auto term : pod.pod_anti_affinity_terms())
//         if (kd::affinity_selector_problem(term).empty() && kd::pod_matches_affinity_term(pod, term, other)) …
//     kd::AntiAffinityMatch m = kd::anti_affinity_match_on_node(pod, node, snapshot.pods_on_node(node.name()));
//
// What upstream v0.35.1 does and these functions therefore do too:
//   * A term without a labelSelector selects no pod; an empty one selects every pod
//     (metav1.LabelSelectorAsSelector).
//   * A term's namespaces are its `namespaces` list, or the declaring pod's own namespace when the
//     list is empty; `namespaceSelector` is not read (GetNamespacesFromPodAffinityTerm), so a term
//     with only a namespaceSelector applies to the pod's own namespace.
//   * `matchLabelKeys` / `mismatchLabelKeys` are not read: the API server already merged them into
//     the stored labelSelector when the pod was created.
//   * Another pod with the same name as the declaring pod is never counted, whatever its
//     namespace (the pods are told apart by name only).
//   * A selector the API server would refuse (unknown operator, In/NotIn without values,
//     Exists/DoesNotExist with values, a bad key or value) makes the whole check fail
//     (AntiAffinityMatch::invalid): upstream stops at its conversion error.
#pragma once

#include <kdesched/label_selector.hpp>
#include <kdesched/view.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kd {

// Why a term's labelSelector could not be used ("" when it can): what
// metav1.LabelSelectorAsSelector refuses.
inline std::string affinity_selector_problem(const PodAffinityTerm& term) {
    if (!term.has_label_selector()) return "";
    KeyValues labels = term.match_labels();
    for (size_t i = 0; i < labels.size(); ++i) {
        std::string key_problem = label_key_problem(labels.key(i));
        if (!key_problem.empty()) return "matchLabels key: " + key_problem;
        if (!label_value_valid(labels.value(i)))
            return "matchLabels value \"" + std::string(labels.value(i)) + "\" is not a valid label value";
    }
    for (auto r : term.match_expressions()) {
        std::string key_problem = label_key_problem(r.key());
        if (!key_problem.empty()) return "matchExpressions key: " + key_problem;
        std::string op(r.op());
        if (op == "In" || op == "NotIn") {
            if (r.value_count() == 0) return "matchExpressions operator " + op + " needs values";
        } else if (op == "Exists" || op == "DoesNotExist") {
            if (r.value_count() != 0) return "matchExpressions operator " + op + " takes no values";
        } else {
            return "matchExpressions operator \"" + op + "\" is unknown";
        }
        for (size_t i = 0; i < r.value_count(); ++i)
            if (!label_value_valid(r.value(i)))
                return "matchExpressions value \"" + std::string(r.value(i)) + "\" is not a valid label value";
    }
    return "";
}

namespace detail {

// affinity_selector_matches for a selector already known to be valid: the checks' inner loops
// validate each term once, as upstream converts it once.
inline bool valid_affinity_selector_matches(const PodAffinityTerm& term, const KeyValues& labels) {
    if (!term.has_label_selector()) return false;
    KeyValues want = term.match_labels();
    for (size_t i = 0; i < want.size(); ++i) {
        auto got = labels.get(want.key(i));
        if (!got || *got != want.value(i)) return false;
    }
    for (auto r : term.match_expressions()) {
        auto got = labels.get(r.key());
        bool listed = false;
        for (size_t i = 0; got && i < r.value_count() && !listed; ++i) listed = r.value(i) == *got;
        std::string_view op = r.op();
        if ((op == "In" && !listed) || (op == "NotIn" && listed) || (op == "Exists" && !got) ||
            (op == "DoesNotExist" && got))
            return false;
    }
    return true;
}

}  // namespace detail

// Whether a term's labelSelector selects a pod with these labels: never without a selector,
// always with an empty one. An invalid selector (affinity_selector_problem) selects nothing.
inline bool affinity_selector_matches(const PodAffinityTerm& term, const KeyValues& labels) {
    return affinity_selector_problem(term).empty() && detail::valid_affinity_selector_matches(term, labels);
}

// Whether a term declared by a pod in namespace `own` applies to namespace `ns`: `ns` is in the
// term's `namespaces`, or is `own` when the list is empty. The namespaceSelector is not read, as
// upstream v0.35.1's GetNamespacesFromPodAffinityTerm does not read it.
inline bool affinity_term_applies_to_namespace(const PodAffinityTerm& term, std::string_view own, std::string_view ns) {
    if (term.namespace_count() == 0) return ns == own;
    for (size_t i = 0; i < term.namespace_count(); ++i)
        if (term.namespace_(i) == ns) return true;
    return false;
}

// Whether `other` is a pod that `declaring`'s term selects: in one of the term's namespaces and
// matching its labelSelector (PodMatchesTermsNamespaceAndSelector). The caller skips `declaring`
// itself (upstream compares names only: see pod_affinity_skips).
inline bool pod_matches_affinity_term(const Pod& declaring, const PodAffinityTerm& term, const Pod& other) {
    return affinity_term_applies_to_namespace(term, declaring.ns(), other.ns()) &&
           affinity_selector_matches(term, other.labels());
}

namespace detail {
// pod_matches_affinity_term for a term whose selector is known to be valid.
inline bool pod_matches_valid_affinity_term(const Pod& declaring, const PodAffinityTerm& term, const Pod& other) {
    return affinity_term_applies_to_namespace(term, declaring.ns(), other.ns()) &&
           valid_affinity_selector_matches(term, other.labels());
}
}  // namespace detail

// Whether upstream leaves `other` out when checking `declaring`'s terms: it has the same name,
// whatever its namespace.
inline bool pod_affinity_skips(const Pod& declaring, const Pod& other) {
    return other.name() == declaring.name();
}

// Whether two nodes are in the same domain of `topology_key`: the same node, or both carry the
// label with the same value (hasSameLabelValue).
inline bool same_topology_domain(const Node& a, const Node& b, std::string_view topology_key) {
    if (a.name() == b.name()) return true;
    auto va = a.labels().get(topology_key);
    auto vb = b.labels().get(topology_key);
    return va && vb && *va == *vb;
}

// The outcome of an anti-affinity check: no pod in the way, one is, or a term's selector is
// invalid (upstream's error: NodeFit then refuses the node, the plugin evicts nothing for the pod).
enum class AntiAffinityMatch { none, match, invalid };

// NodeFit's podMatchesInterPodAntiAffinity (pkg/descheduler/node/node.go@v0.35.1): does one of
// `pod`'s required anti-affinity terms select a pod running on `node` while `node` carries the
// term's topologyKey label (any value)? `pods_on_node`: the node's pods (e.g.
// snapshot.pods_on_node(node.name())); Succeeded and Failed ones are left out here, as upstream
// lists them. Only `pod`'s own terms are read, not those of the pods already there.
template <class PodRange>
AntiAffinityMatch anti_affinity_match_on_node(const Pod& pod, const Node& node, const PodRange& pods_on_node) {
    for (auto term : pod.pod_anti_affinity_terms()) {
        if (!affinity_selector_problem(term).empty()) return AntiAffinityMatch::invalid;
        if (!node.labels().has(term.topology_key())) continue;
        for (auto element : pods_on_node) {
            Pod other(element);
            if (other.finished()) continue;
            if (pod_affinity_skips(pod, other)) continue;
            if (detail::pod_matches_valid_affinity_term(pod, term, other)) return AntiAffinityMatch::match;
        }
    }
    return AntiAffinityMatch::none;
}

// CheckPodsWithAntiAffinityExist (pkg/utils/predicates.go@v0.35.1): does one of `pod`'s required
// anti-affinity terms select another pod running in the same topology domain as `pod`?
//   * `pods_in(ns, topology_key, home)`: the pods to consider in namespace `ns` (a range of kd::Pod
//     or const kd_pod*); the caller decides which (upstream: the plugin's in-scope pods on the
//     profile's nodes, minus those it already evicted), and may leave out those outside `home`'s
//     domain of `topology_key` (same_topology_domain is checked here anyway): upstream walks the
//     whole namespace for every term, which is quadratic in the pods.
//   * `node_of(p)`: the node `p` runs on, or std::nullopt when that node is not one to consider;
//     a pod whose own node is not one yields none.
template <class PodsIn, class NodeOf>
AntiAffinityMatch anti_affinity_violated(const Pod& pod, PodsIn&& pods_in, NodeOf&& node_of) {
    std::optional<Node> home = node_of(pod);
    if (!home) return AntiAffinityMatch::none;
    for (auto term : pod.pod_anti_affinity_terms()) {
        if (!affinity_selector_problem(term).empty()) return AntiAffinityMatch::invalid;
        auto in_namespace = [&](std::string_view ns) {
            for (auto element : pods_in(ns, term.topology_key(), *home)) {
                Pod other(element);
                if (pod_affinity_skips(pod, other) || !detail::pod_matches_valid_affinity_term(pod, term, other))
                    continue;
                std::optional<Node> there = node_of(other);
                if (there && same_topology_domain(*home, *there, term.topology_key())) return true;
            }
            return false;
        };
        if (term.namespace_count() == 0) {
            if (in_namespace(pod.ns())) return AntiAffinityMatch::match;
            continue;
        }
        for (size_t i = 0; i < term.namespace_count(); ++i)
            if (in_namespace(term.namespace_(i))) return AntiAffinityMatch::match;
    }
    return AntiAffinityMatch::none;
}

}  // namespace kd
