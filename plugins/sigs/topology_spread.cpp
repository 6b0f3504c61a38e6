#include "topology_spread.hpp"

#include "node_fit.hpp"
#include "topology_spread_constraint.hpp"
#include "topology_spread_domains.hpp"

#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace kd::plugins::sigs {

namespace {

constexpr const char* kDoNotSchedule = "DoNotSchedule";
constexpr const char* kScheduleAnyway = "ScheduleAnyway";

// The evictor's Filter, asked once per pod and only about pods that matter: those declaring a
// constraint and those a constraint counts. Upstream filters every pod while listing them; the
// answer is the same (the Filter has no side effects), and `--explain` lists no unrelated pod
// as filtered.
class Admission {
public:
    explicit Admission(const Cycle& cycle) : cycle_(cycle) {}
    bool operator()(const Pod& pod) {
        auto it = known_.find(pod.raw());
        if (it == known_.end()) it = known_.emplace(pod.raw(), cycle_.filter(pod).allowed).first;
        return it->second;
    }

private:
    const Cycle& cycle_;
    std::unordered_map<const kd_pod*, bool> known_;
};

// Every constraint of the namespace's pods whose action is balanced, once each, in the order the
// pods and their constraints come.
std::vector<SpreadConstraint> constraints_of(const Cycle& cycle, Admission& admits, const std::vector<Pod>& pods,
                                             const std::vector<std::string>& actions) {
    std::vector<SpreadConstraint> out;
    std::unordered_set<std::string> seen;
    for (const Pod& pod : pods) {
        auto declared = pod.topology_spread_constraints();
        bool balanced = false;
        for (auto c : declared) balanced = balanced || listed(actions, c.when_unsatisfiable());
        if (!balanced || !admits(pod)) continue;
        size_t index = 0;
        for (auto c : declared) {
            size_t at = index++;
            if (!listed(actions, c.when_unsatisfiable())) continue;
            std::string why;
            auto constraint = SpreadConstraint::of(pod, c, why);
            if (!constraint) {
                cycle.warn("pod " + pod.key() + ": topologySpreadConstraints[" + std::to_string(at) +
                           "] is passed over: " + why + " (fix the pod's labelSelector)");
                continue;
            }
            if (seen.insert(constraint->identity()).second) out.push_back(std::move(*constraint));
        }
    }
    return out;
}

// The constraint's domains: every value of its key among the nodes it includes, then the pods
// it selects counted where they run (a pod on a node it does not include still counts).
// The pods of one namespace, and an index of them by label (key, value): a constraint whose
// selector requires a label reads only the pods carrying it instead of the whole namespace.
class NamespacePods {
public:
    void add(const Pod& pod) {
        all_.push_back(pod);
        KeyValues labels = pod.labels();
        for (size_t i = 0; i < labels.size(); ++i) by_label_[{labels.key(i), labels.value(i)}].push_back(pod);
    }
    const std::vector<Pod>& all() const { return all_; }
    // Every pod `c` could select, in listing order.
    const std::vector<Pod>& candidates(const SpreadConstraint& c) const {
        auto label = c.required_label();
        if (!label) return all_;
        auto it = by_label_.find(*label);
        return it == by_label_.end() ? none_ : it->second;
    }

private:
    std::vector<Pod> all_, none_;
    std::map<std::pair<std::string_view, std::string_view>, std::vector<Pod>> by_label_;
};

// The domains a constraint starts from: every value of its key among the nodes it includes. Most
// constraints include every node: theirs are made once per topology key.
class DomainSkeletons {
public:
    explicit DomainSkeletons(const std::vector<Node>& nodes) : nodes_(nodes) {}
    SpreadDomains of(const SpreadConstraint& c) {
        if (!c.includes_every_node()) return walk(c, [&](const Node& node) { return c.includes(node); });
        auto it = every_node_.find(c.topology_key());
        if (it == every_node_.end())
            it = every_node_.emplace(c.topology_key(), walk(c, [](const Node&) { return true; })).first;
        return it->second;
    }

private:
    template <class Includes>
    SpreadDomains walk(const SpreadConstraint& c, Includes&& includes) const {
        SpreadDomains domains;
        for (const Node& node : nodes_)
            if (auto value = node.labels().get(c.topology_key()); value && includes(node))
                domains.try_emplace(std::string(*value));
        return domains;
    }
    const std::vector<Node>& nodes_;
    std::map<std::string, SpreadDomains, std::less<>> every_node_;
};

SpreadDomains domains_of(const SpreadConstraint& c, Admission& admits, DomainSkeletons& skeletons,
                         const std::unordered_map<std::string_view, Node>& node_by_name, const NamespacePods& pods,
                         size_t& counted) {
    SpreadDomains domains = skeletons.of(c);
    counted = 0;
    for (const Pod& pod : pods.candidates(c)) {
        if (pod.terminating() || !c.selects(pod) || !admits(pod)) continue;
        auto node = node_by_name.find(pod.node_name());
        if (node == node_by_name.end()) continue;
        auto value = node->second.labels().get(c.topology_key());
        if (!value) continue;
        auto domain = domains.find(*value);
        if (domain == domains.end()) domain = domains.try_emplace(std::string(*value)).first;
        domain->second.push_back(pod);
        ++counted;
    }
    return domains;
}

}  // namespace

void RemovePodsViolatingTopologySpreadConstraintArgs::validate(Errors& errs, const std::string& path) const {
    for (size_t i = 0; i < constraints.size(); ++i)
        if (constraints[i] != kDoNotSchedule && constraints[i] != kScheduleAnyway)
            errs.add(index_path(field_path(path, "constraints"), i),
                     "constraint " + constraints[i] + " is not one of map[DoNotSchedule:{} ScheduleAnyway:{}]");
}

std::vector<std::string> RemovePodsViolatingTopologySpreadConstraintArgs::balanced_actions() const {
    if (constraints.empty()) return {kDoNotSchedule};
    return constraints;
}

void RemovePodsViolatingTopologySpreadConstraint::balance(Cycle& cycle) {
    Snapshot snap = cycle.snapshot();
    std::vector<Node> nodes;
    std::unordered_map<std::string_view, Node> node_by_name;
    for (auto node : snap.nodes()) {
        nodes.push_back(node);
        node_by_name.emplace(node.name(), node);
    }

    // The pods that count are those the plugin could evict: running on the nodes, in scope and
    // passed by the evictor's Filter (upstream lists them through its pod filter), by namespace;
    // the Filter is asked when a pod first matters (Admission).
    std::map<std::string_view, NamespacePods> by_namespace;
    for (const Node& node : nodes)
        for (auto pod : snap.pods_on_node(node.name())) {
            if (pod.finished()) continue;
            if (in_scope(args_.namespaces, args_.labelSelector, pod)) by_namespace[pod.ns()].add(pod);
        }
    DomainSkeletons skeletons(nodes);
    Admission admits(cycle);

    const std::vector<std::string> actions = args_.balanced_actions();
    UpstreamNodeFit fit(snap);
    std::vector<Pod> chosen;
    std::unordered_set<const kd_pod*> taken;
    for (const auto& [ns, pods] : by_namespace) {
        for (const SpreadConstraint& c : constraints_of(cycle, admits, pods.all(), actions)) {
            size_t counted = 0;
            SpreadDomains domains = domains_of(c, admits, skeletons, node_by_name, pods, counted);
            if (spread_is_balanced(domains, c.max_skew())) continue;
            SpreadChoice choice =
                balance_domains(c, std::move(domains), counted, nodes, args_.topologyBalanceNodeFit, fit);
            for (const Pod& pod : choice.evict)
                if (taken.insert(pod.raw()).second) chosen.push_back(pod);
            for (const Pod& pod : choice.unfit) cycle.report_pod(pod, "skipped", "TopologyBalanceNodeFit");
        }
    }

    // Each pod once, in the order chosen; a node's limit passes over its remaining pods, the
    // total limit ends the cycle, any other refusal passes over that pod.
    std::set<std::string_view> full_nodes;
    for (const Pod& pod : chosen) {
        if (full_nodes.count(pod.node_name())) continue;
        EvictOutcome out = cycle.evict(pod, "pod violates its topology spread constraints");
        if (out.code == KD_EVICT_LIMIT_NODE) full_nodes.insert(pod.node_name());
        if (out.code == KD_EVICT_LIMIT_TOTAL) return;
    }
}

}  // namespace kd::plugins::sigs
