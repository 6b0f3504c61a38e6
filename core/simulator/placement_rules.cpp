#include "simulator/placement_rules.hpp"

#include <kdesched/node_fit.hpp>
#include <kdesched/view_selector.hpp>

#include <algorithm>
#include <limits>

namespace kd::core {

namespace {

std::optional<std::string_view> label(const kd::Node& node, std::string_view key) {
    return node.labels().get(key);
}

bool selector_matches(const kd::LabelSelector& s, const kd::Pod& p) {
    return s.matches([&](const std::string& k) { return p.labels().get(k); });
}

// A min-max normalisation to 0–100 (kube-scheduler's DefaultNormalizeScore and the plugins' own).
double scaled(int64_t raw, int64_t lo, int64_t hi) {
    return hi > lo ? 100.0 * double(raw - lo) / double(hi - lo) : 0.0;
}

}  // namespace

bool PlacementRules::Term::matches(const kd::Pod& other) const {
    if (!valid) return false;
    if (!all_namespaces && namespaces.find(other.ns()) == namespaces.end()) return false;
    return selector_matches(selector, other);
}

// The namespaces of a term as the scheduler takes them: the term's list and the namespaces its
// namespaceSelector selects ({} selects all); neither: the owner's own namespace.
PlacementRules::Term PlacementRules::term_of(const kd::Pod& owner, const kd::PodAffinityTerm& t) const {
    Term out;
    out.topology_key = t.topology_key();
    out.weight = t.weight();
    if (t.has_label_selector()) {
        out.selector = kd::label_selector_of(t.match_labels(), t.match_expressions());
        kd::Errors errs;
        out.selector.validate(errs, "labelSelector");
        out.valid = errs.empty();
        // matchLabelKeys / mismatchLabelKeys: the owner's values joined to the selector.
        for (size_t i = 0; i < t.match_label_key_count(); ++i)
            if (auto v = owner.labels().get(t.match_label_key(i)))
                out.selector.matchExpressions.push_back({std::string(t.match_label_key(i)), "In", {std::string(*v)}});
        for (size_t i = 0; i < t.mismatch_label_key_count(); ++i)
            if (auto v = owner.labels().get(t.mismatch_label_key(i)))
                out.selector.matchExpressions.push_back(
                    {std::string(t.mismatch_label_key(i)), "NotIn", {std::string(*v)}});
    } else {
        out.valid = false;  // no labelSelector: the term selects no pod
    }
    for (size_t i = 0; i < t.namespace_count(); ++i) out.namespaces.emplace(t.namespace_(i));
    if (t.has_namespace_selector()) {
        kd::LabelSelector ns = kd::label_selector_of(t.namespace_match_labels(), t.namespace_match_expressions());
        if (ns.empty()) {
            out.all_namespaces = true;
        } else {
            for (const auto& [key, n] : model_.namespaces())
                if (ns.matches_map(n.labels)) out.namespaces.insert(n.name);
        }
    } else if (out.namespaces.empty()) {
        out.namespaces.emplace(owner.ns());
    }
    return out;
}

PlacementRules::PlacementRules(const ClusterModel& model, const std::vector<const kd_node*>& nodes, const kd::Pod& pod,
                               bool anti_affinity)
    : model_(model), nodes_(nodes), pod_(pod) {
    for (auto t : pod.pod_affinity_terms()) affinity_.push_back({term_of(pod, t), {}});
    for (auto t : pod.pod_anti_affinity_terms()) anti_affinity_.push_back({term_of(pod, t), {}});
    std::vector<Term> preferred;
    for (auto t : pod.preferred_pod_affinity_terms()) preferred.push_back(term_of(pod, t));
    for (auto t : pod.preferred_pod_anti_affinity_terms()) {
        preferred.push_back(term_of(pod, t));
        preferred.back().weight = -preferred.back().weight;
    }
    for (auto c : pod.topology_spread_constraints()) {
        Spread s;
        s.topology_key = c.topology_key();
        s.max_skew = c.max_skew();
        s.min_domains = c.min_domains().value_or(0);
        s.honor_affinity = c.node_affinity_policy() != "Ignore";
        s.honor_taints = c.node_taints_policy() == "Honor";
        if (c.has_label_selector()) {
            kd::LabelSelector sel = kd::label_selector_of(c.match_labels(), c.match_expressions());
            for (size_t i = 0; i < c.match_label_key_count(); ++i)
                if (auto v = pod.labels().get(c.match_label_key(i)))
                    sel.matchExpressions.push_back({std::string(c.match_label_key(i)), "In", {std::string(*v)}});
            kd::Errors errs;
            sel.validate(errs, "labelSelector");
            if (errs.empty()) s.selector = std::move(sel);
        }
        s.self_match = s.selector && selector_matches(*s.selector, pod);
        (c.when_unsatisfiable() == "ScheduleAnyway" ? soft_spread_ : hard_spread_).push_back(std::move(s));
    }

    // One walk over the bound, unfinished pods: what the pod's terms find, and which existing
    // pods' anti-affinity the pod itself would break.
    const bool own_terms = !affinity_.empty() || !anti_affinity_.empty() || !preferred.empty();
    for (const kd_pod* raw : own_terms || anti_affinity ? model.pods() : std::vector<const kd_pod*>{}) {
        kd::Pod other(raw);
        if (other.node_name().empty() || other.finished() || other.uid() == pod.uid()) continue;
        const kd_node* on = model.node_by_name(other.node_name());
        if (!on) continue;
        kd::Node node(on);
        for (auto t : other.pod_anti_affinity_terms()) {
            Term term = term_of(other, t);
            if (!term.matches(pod)) continue;
            if (auto v = label(node, term.topology_key)) forbidden_.insert({term.topology_key, std::string(*v)});
        }
        if (!own_terms) continue;
        for (auto& [term, domains] : affinity_) {
            if (!term.matches(other)) continue;
            affinity_matches_anywhere_ = true;
            if (auto v = label(node, term.topology_key)) domains.emplace(*v);
        }
        for (auto& [term, domains] : anti_affinity_)
            if (term.matches(other))
                if (auto v = label(node, term.topology_key)) domains.emplace(*v);
        for (const Term& term : preferred)
            if (term.matches(other))
                if (auto v = label(node, term.topology_key))
                    preferred_pods_[{term.topology_key, std::string(*v)}] += term.weight;
    }
    for (auto& [term, domains] : affinity_) pod_matches_own_affinity_ = pod_matches_own_affinity_ && term.matches(pod);
    for (Spread& s : hard_spread_) count_spread(s);
    for (Spread& s : soft_spread_) count_spread(s);

    preferences_ = !pod.preferred_node_terms().empty() || !preferred_pods_.empty() || !soft_spread_.empty();
    if (!preferences_) return;
    bool first = true;
    for (const kd_node* n : nodes_) {
        kd::Node node(n);
        int64_t na = raw_node_affinity(node), pa = raw_pod_affinity(node), sp = raw_spread(node);
        min_node_affinity_ = first ? na : std::min(min_node_affinity_, na);
        max_node_affinity_ = first ? na : std::max(max_node_affinity_, na);
        min_pod_affinity_ = first ? pa : std::min(min_pod_affinity_, pa);
        max_pod_affinity_ = first ? pa : std::max(max_pod_affinity_, pa);
        min_spread_ = first ? sp : std::min(min_spread_, sp);
        max_spread_ = first ? sp : std::max(max_spread_, sp);
        first = false;
    }
}

// The nodes a constraint counts on (its node inclusion policies, and the topology key present).
bool PlacementRules::eligible(const Spread& s, const kd::Node& node) const {
    if (!label(node, s.topology_key)) return false;
    if (s.honor_affinity && !kd::pod_matches_node_selector(pod_, node)) return false;
    if (s.honor_taints && !kd::pod_tolerates_node_taints(pod_, node)) return false;
    return true;
}

// Matching pods of the pod's namespace per domain, over the eligible nodes (every domain of one
// present, with 0); terminating and finished pods do not count.
void PlacementRules::count_spread(Spread& s) const {
    for (const kd_node* n : nodes_) {
        kd::Node node(n);
        if (!eligible(s, node)) continue;
        int64_t& count = s.counts[std::string(*label(node, s.topology_key))];
        if (!s.selector) continue;
        for (const kd_pod* raw : model_.pods_on_node(node.name())) {
            kd::Pod other(raw);
            if (other.ns() != pod_.ns() || other.terminating() || other.finished() || other.uid() == pod_.uid())
                continue;
            if (selector_matches(*s.selector, other)) ++count;
        }
    }
}

// kube-scheduler's order: PodTopologySpread, then InterPodAffinity (the pod's affinity, its
// anti-affinity, the existing pods' anti-affinity); the first failure names the node's reason.
std::string PlacementRules::filter(const kd::Node& node) const {
    for (const Spread& s : hard_spread_) {
        auto v = label(node, s.topology_key);
        if (!v) return "node(s) didn't match pod topology spread constraints (missing required label)";
        int64_t lowest = std::numeric_limits<int64_t>::max();
        for (const auto& [domain, count] : s.counts) lowest = std::min(lowest, count);
        if (s.counts.empty() || int64_t(s.counts.size()) < s.min_domains) lowest = 0;
        auto here = s.counts.find(*v);
        int64_t count = here == s.counts.end() ? 0 : here->second;
        if (count + (s.self_match ? 1 : 0) - lowest > s.max_skew)
            return "node(s) didn't match pod topology spread constraints";
    }
    bool affinity_ok = true;
    for (const auto& [term, domains] : affinity_) {
        auto v = label(node, term.topology_key);
        if (!v || domains.find(*v) == domains.end()) affinity_ok = false;
    }
    // The first pod of a group whose terms select itself may go anywhere (kube-scheduler's rule).
    if (!affinity_ok && !(!affinity_matches_anywhere_ && pod_matches_own_affinity_))
        return "node(s) didn't match pod affinity rules";
    for (const auto& [term, domains] : anti_affinity_)
        if (auto v = label(node, term.topology_key); v && domains.find(*v) != domains.end())
            return "node(s) didn't match pod anti-affinity rules";
    for (const auto& [key, value] : forbidden_)
        if (auto v = label(node, key); v && *v == value)
            return "node(s) didn't satisfy existing pods anti-affinity rules";
    return "";
}

int64_t PlacementRules::raw_node_affinity(const kd::Node& node) const {
    int64_t sum = 0;
    for (auto t : pod_.preferred_node_terms())
        if (kd::node_selector_term_matches(t.preference(), node)) sum += t.weight();
    return sum;
}

int64_t PlacementRules::raw_pod_affinity(const kd::Node& node) const {
    int64_t sum = 0;
    for (const auto& [domain, weight] : preferred_pods_)
        if (auto v = label(node, domain.first); v && *v == domain.second) sum += weight;
    return sum;
}

// Fewer matching pods in the node's domains is better: the count is negated.
int64_t PlacementRules::raw_spread(const kd::Node& node) const {
    int64_t sum = 0;
    for (const Spread& s : soft_spread_) {
        auto v = label(node, s.topology_key);
        auto here = v ? s.counts.find(*v) : s.counts.end();
        sum -= here == s.counts.end() ? 0 : here->second;
    }
    return sum;
}

double PlacementRules::preference(const kd::Node& node) const {
    if (!preferences_) return 0;
    return 2 * scaled(raw_node_affinity(node), std::min<int64_t>(0, min_node_affinity_), max_node_affinity_) +
           2 * scaled(raw_pod_affinity(node), min_pod_affinity_, max_pod_affinity_) +
           2 * scaled(raw_spread(node), min_spread_, max_spread_);
}

}  // namespace kd::core
