// NodeFit (Koordinator's pkg/descheduler/node): would a pod fit another node? Taints,
// nodeSelector, required node affinity, `spec.unschedulable` and requested resources against what
// is left on the node.
//
//     kd::NodeRequestTotals totals(cycle.snapshot());       // one per snapshot; sums lazily
//     if (!kd::pod_fits_any_other_node(cycle.snapshot(), pod, totals)) …
//
// Kubernetes semantics are followed where they are observable (toleration matching, In/NotIn/Gt/Lt,
// a malformed requirement matching nothing). Inter-pod (anti-)affinity is not evaluated: the
// snapshot does not carry it.
#pragma once

#include <kdesched/view.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kd {

// Why a pod does not fit a node; `none` = it fits. Checks run in this order, cheapest first.
enum class NodeFitFailure { none, unschedulable, taints, node_selector, resources };

// Stable name of a NodeFitFailure ("Unschedulable", "Taints", "NodeSelector", "Resources", "").
inline const char* node_fit_failure_name(NodeFitFailure f) {
    switch (f) {
        case NodeFitFailure::none:
            return "";
        case NodeFitFailure::unschedulable:
            return "Unschedulable";
        case NodeFitFailure::taints:
            return "Taints";
        case NodeFitFailure::node_selector:
            return "NodeSelector";
        case NodeFitFailure::resources:
            return "Resources";
    }
    return "";
}

// Kubernetes Toleration.ToleratesTaint: effect ("" = all), key ("" = all), then Exists or Equal ("" = Equal).
inline bool toleration_tolerates_taint(const Toleration& t, const Taint& taint) {
    if (!t.effect().empty() && t.effect() != taint.effect()) return false;
    if (!t.key().empty() && t.key() != taint.key()) return false;
    if (t.op() == "Exists") return true;
    if (t.op().empty() || t.op() == "Equal") return t.value() == taint.value();
    return false;  // unknown operator tolerates nothing, as in Kubernetes
}

// True when the pod tolerates every NoSchedule and NoExecute taint of the node (PreferNoSchedule is ignored).
inline bool pod_tolerates_node_taints(const Pod& pod, const Node& node) {
    for (auto taint : node.taints()) {
        if (taint.effect() != "NoSchedule" && taint.effect() != "NoExecute") continue;
        bool tolerated = false;
        for (auto t : pod.tolerations()) {
            if (toleration_tolerates_taint(t, taint)) {
                tolerated = true;
                break;
            }
        }
        if (!tolerated) return false;
    }
    return true;
}

namespace detail {

// Go's strconv.ParseInt(s, 10, 64): optional sign, decimal digits only, int64 range.
inline std::optional<int64_t> parse_int64(std::string_view s) {
    bool neg = false;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        neg = s[0] == '-';
        s.remove_prefix(1);
    }
    if (s.empty()) return std::nullopt;
    // Accumulate as a negative number so that INT64_MIN parses without overflow.
    int64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        int d = c - '0';
        if (v < (INT64_MIN + d) / 10) return std::nullopt;
        v = v * 10 - d;
    }
    if (!neg) {
        if (v == INT64_MIN) return std::nullopt;
        v = -v;
    }
    return v;
}

// True when `v` is one of the requirement's values.
inline bool requirement_has_value(const SelectorRequirement& r, std::string_view v) {
    for (size_t i = 0; i < r.value_count(); ++i)
        if (r.value(i) == v) return true;
    return false;
}

}  // namespace detail

namespace detail {

// Kubernetes' content.IsDecimalInteger then strconv.ParseInt: "0" or an optional '-' and digits
// without a leading zero, within int64 (k8s.io/apimachinery pkg/api/validate/content, v0.35.1).
inline std::optional<int64_t> parse_canonical_int64(std::string_view s) {
    std::string_view digits = !s.empty() && s[0] == '-' ? s.substr(1) : s;
    if (digits.empty() || (digits[0] == '0' && s != "0")) return std::nullopt;
    if (s[0] == '+') return std::nullopt;
    return parse_int64(s);
}

}  // namespace detail

// Kubernetes 1.35's Toleration.ToleratesTaint with comparison operators enabled, as
// kubernetes-sigs/descheduler v0.35.1 calls it (pkg/utils/predicates.go): toleration_tolerates_taint,
// plus `Lt` / `Gt`, which tolerate a taint whose value, a canonical decimal integer, is below /
// above the toleration's.
inline bool toleration_tolerates_taint_comparing(const Toleration& t, const Taint& taint) {
    if (t.op() != "Lt" && t.op() != "Gt") return toleration_tolerates_taint(t, taint);
    if (!t.effect().empty() && t.effect() != taint.effect()) return false;
    if (!t.key().empty() && t.key() != taint.key()) return false;
    auto bound = detail::parse_canonical_int64(t.value());
    auto value = detail::parse_canonical_int64(taint.value());
    if (!bound || !value) return false;
    return t.op() == "Lt" ? *value < *bound : *value > *bound;
}

// One matchExpressions requirement against node labels; a malformed one (wrong value count, non-integer Gt/Lt value,
// unknown operator) matches nothing, which makes its whole term fail as in Kubernetes.
inline bool node_label_requirement_matches(const SelectorRequirement& r, const KeyValues& labels) {
    std::string_view op = r.op();
    if (op == "In" || op == "NotIn") {
        if (r.value_count() == 0) return false;
        auto got = labels.get(r.key());
        bool in = got && detail::requirement_has_value(r, *got);
        return op == "In" ? in : !in;
    }
    if (op == "Exists" || op == "DoesNotExist") {
        if (r.value_count() != 0) return false;
        return labels.has(r.key()) == (op == "Exists");
    }
    if (op == "Gt" || op == "Lt") {
        if (r.value_count() != 1) return false;
        auto want = detail::parse_int64(r.value(0));
        if (!want) return false;
        auto got = labels.get(r.key());
        if (!got) return false;
        auto have = detail::parse_int64(*got);
        if (!have) return false;
        return op == "Gt" ? *have > *want : *have < *want;
    }
    return false;
}

// One matchFields requirement (In/NotIn with exactly one value; the only node field is metadata.name, others read "").
inline bool node_field_requirement_matches(const SelectorRequirement& r, const Node& node) {
    if (r.value_count() != 1) return false;
    std::string_view field = r.key() == "metadata.name" ? node.name() : std::string_view();
    if (r.op() == "In") return field == r.value(0);
    if (r.op() == "NotIn") return field != r.value(0);
    return false;
}

// One required-affinity term: every expression and field requirement holds; an empty term matches nothing.
inline bool node_selector_term_matches(const NodeSelectorTerm& term, const Node& node) {
    auto expressions = term.expressions();
    auto fields = term.fields();
    if (expressions.empty() && fields.empty()) return false;
    KeyValues labels = node.labels();
    for (auto r : expressions)
        if (!node_label_requirement_matches(r, labels)) return false;
    for (auto r : fields)
        if (!node_field_requirement_matches(r, node)) return false;
    return true;
}

// True when the pod's nodeSelector (all entries equal) and its required node affinity (terms OR-ed) match the node.
inline bool pod_matches_node_selector(const Pod& pod, const Node& node) {
    KeyValues selector = pod.node_selector();
    if (selector.size() > 0) {
        KeyValues labels = node.labels();
        for (size_t i = 0; i < selector.size(); ++i) {
            auto got = labels.get(selector.key(i));
            if (!got || *got != selector.value(i)) return false;
        }
    }
    auto terms = pod.affinity_terms();
    // The flag says "required affinity present" even with zero terms, which matches nothing.
    if (!pod.has_required_node_affinity() && terms.empty()) return true;
    for (auto term : terms)
        if (node_selector_term_matches(term, node)) return true;
    return false;
}

// Σ requests (milli-units) of one resource over a node's non-finished pods.
struct ResourceTotal {
    std::string name;
    int64_t milli = 0;
};

// Per-snapshot cache of each node's summed pod requests: a node's pods are walked once, on first use.
// Totals are owned copies, so the cache may be kept across hook calls that see the same pods (rebind());
// the Snapshot it reads from must be the current one.
class NodeRequestTotals {
public:
    // Reads pods from `snapshot` (which must outlive every call until the next rebind/reset).
    explicit NodeRequestTotals(Snapshot snapshot) : snap_(snapshot) {}

    // Reads from another snapshot of the same pods (e.g. the next hook call of the same cycle), keeping totals.
    void rebind(Snapshot snapshot) { snap_ = snapshot; }
    // Forgets every total and reads from `snapshot` from now on.
    void reset(Snapshot snapshot) {
        snap_ = snapshot;
        totals_.clear();
    }
    // Number of nodes whose totals have been computed so far.
    size_t cached_nodes() const { return totals_.size(); }

    // Σ requests per resource of the node's pods that are not Succeeded/Failed (computed once per node).
    const std::vector<ResourceTotal>& totals(const Node& node) {
        auto it = totals_.find(node.name());
        if (it != totals_.end()) return it->second;
        std::vector<ResourceTotal> sum;
        auto pods = snap_.pods_on_node(node.name());
        // Each pod's request list is two pointer hops away (pod → spec → items): asking for every
        // pod's next hop before reading any overlaps the cache misses of the node's pods.
        prefetch_requests(pods);
        for (auto p : pods) {
            // Finished pods hold no resources (descheduler ListPodsOnANode skips them).
            if (p.finished()) continue;
            Resources req = p.requests();
            for (size_t i = 0; i < req.size(); ++i) add(sum, req.name(i), req.milli_at(i));
        }
        return totals_.emplace(std::string(node.name()), std::move(sum)).first->second;
    }

    // Σ requests (milli) of `resource` by the node's non-finished pods.
    int64_t requested(const Node& node, std::string_view resource) {
        for (const auto& t : totals(node))
            if (t.name == resource) return t.milli;
        return 0;
    }

    // True when every resource the pod requests is ≤ node allocatable − requested (absent from allocatable = 0).
    bool resources_fit(const Pod& pod, const Node& node) {
        Resources want = pod.requests();
        if (want.size() == 0) return true;
        Resources alloc = node.allocatable();
        for (size_t i = 0; i < want.size(); ++i) {
            std::string_view name = want.name(i);
            if (want.milli_at(i) > alloc.milli(name) - requested(node, name)) return false;
        }
        return true;
    }

    // The first NodeFit check the pod fails on the node (unschedulable, taints, selector/affinity,
    // resources), or none.
    NodeFitFailure check(const Pod& pod, const Node& node) {
        if (node.unschedulable()) return NodeFitFailure::unschedulable;
        if (!pod_tolerates_node_taints(pod, node)) return NodeFitFailure::taints;
        if (!pod_matches_node_selector(pod, node)) return NodeFitFailure::node_selector;
        if (!resources_fit(pod, node)) return NodeFitFailure::resources;
        return NodeFitFailure::none;
    }

    // True when the pod fits the node (passes every NodeFit check).
    bool fits(const Pod& pod, const Node& node) { return check(pod, node) == NodeFitFailure::none; }

private:
    static void add(std::vector<ResourceTotal>& sum, std::string_view name, int64_t milli) {
        for (auto& t : sum) {
            if (t.name == name) {
                t.milli += milli;
                return;
            }
        }
        sum.push_back({std::string(name), milli});
    }

    // Transparent hashing: look nodes up by string_view without building a std::string.
    struct NameHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };

    Snapshot snap_;
    std::unordered_map<std::string, std::vector<ResourceTotal>, NameHash, std::equal_to<>> totals_;
};

// True when the pod fits some ready node of snapshot.all_nodes() other than its own for which `keep(node)` holds.
template <class Keep>
bool pod_fits_any_other_node_if(const Snapshot& snapshot, const Pod& pod, NodeRequestTotals& totals, Keep&& keep) {
    std::string_view own = pod.node_name();
    for (auto node : snapshot.all_nodes()) {
        if (!node.ready() || node.name() == own || !keep(node)) continue;
        if (totals.fits(pod, node)) return true;
    }
    return false;
}

// True when the pod fits some ready node of snapshot.all_nodes() other than its own (descheduler PodFitsAnyOtherNode).
inline bool pod_fits_any_other_node(const Snapshot& snapshot, const Pod& pod, NodeRequestTotals& totals) {
    return pod_fits_any_other_node_if(snapshot, pod, totals, [](const Node&) { return true; });
}

}  // namespace kd
