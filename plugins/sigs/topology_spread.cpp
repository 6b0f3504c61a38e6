#include "topology_spread.hpp"

#include "node_fit.hpp"
#include "topology_spread_constraint.hpp"
#include "topology_spread_domains.hpp"

#include <kdesched/address_table.hpp>

#include <map>
#include <optional>
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
        auto [allowed, fresh] = known_.try_emplace(pod.raw());
        if (fresh) allowed = cycle_.filter(pod).allowed;
        return allowed;
    }

private:
    const Cycle& cycle_;
    PodTable<bool> known_;
};

// Whether the pod declares a constraint whose action is balanced.
bool declares_balanced(const Pod& pod, const std::vector<std::string>& actions) {
    for (auto c : pod.topology_spread_constraints())
        if (listed(actions, c.when_unsatisfiable())) return true;
    return false;
}

// Every constraint of the namespace's pods whose action is balanced, once each, in the order the
// pods and their constraints come.
template <class Listed>
std::vector<SpreadConstraint> constraints_of(const Cycle& cycle, Admission& admits, const std::vector<Listed>& pods,
                                             const std::vector<std::string>& actions) {
    std::vector<SpreadConstraint> out;
    std::unordered_set<std::string> seen;
    // Specs whose constraints are all in `out` already: a constraint reads only its pod's spec
    // (labels, node selector and affinity, tolerations) and whether the pod has required node
    // affinity (a flag of the pod's own), so another pod of that spec and flag adds none.
    std::set<std::pair<const kd_pod_spec*, bool>> done;
    for (const auto& entry : pods) {
        const Pod& pod = entry.pod;
        auto declared = pod.topology_spread_constraints();
        if (!declares_balanced(pod, actions) || !admits(pod)) continue;
        const std::pair<const kd_pod_spec*, bool> spec{pod.raw()->spec, pod.has_required_node_affinity()};
        if (done.count(spec)) continue;
        bool all_valid = true;
        size_t index = 0;
        for (auto c : declared) {
            size_t at = index++;
            if (!listed(actions, c.when_unsatisfiable())) continue;
            std::string why;
            auto constraint = SpreadConstraint::of(pod, c, why);
            if (!constraint) {
                all_valid = false;
                cycle.warn("pod " + pod.key() + ": topologySpreadConstraints[" + std::to_string(at) +
                           "] is passed over: " + why + " (fix the pod's labelSelector)");
                continue;
            }
            if (seen.insert(constraint->identity()).second) out.push_back(std::move(*constraint));
        }
        // A spec with an invalid constraint is read again for each pod: each warns.
        if (all_valid) done.insert(spec);
    }
    return out;
}

// A pod the constraints may count, with the index of the node it was listed under and its spec
// (read while the pod was at hand: indexing a namespace by label then reads no pod record).
struct ListedPod {
    Pod pod;
    const kd_pod_spec* spec;
    uint32_t node;
};

// The pods of one namespace, and an index of them by the value of a label key: a constraint
// whose selector requires a label reads only the pods carrying it instead of the whole namespace.
// A key is indexed when a constraint first asks for it: constraints name few keys.
class NamespacePods {
public:
    void add(const Pod& pod, uint32_t node, bool declares) {
        all_.push_back({pod, pod.raw()->spec, node});
        if (declares) declaring_.push_back(all_.back());
    }
    // The pods declaring a balanced constraint, in listing order.
    const std::vector<ListedPod>& declaring() const { return declaring_; }
    // Every pod `c` could select, in listing order.
    const std::vector<ListedPod>& candidates(const SpreadConstraint& c) {
        auto label = c.required_label();
        if (!label) return all_;
        auto key = by_key_.find(label->first);
        if (key == by_key_.end()) {
            key = by_key_.try_emplace(std::string(label->first)).first;
            // Labels are the spec's: each spec's value is looked up once (the table is this
            // key's alone), its pods are filed under it.
            SpecTable<std::optional<std::string_view>> value_of(all_.size() / 4);
            for (const ListedPod& entry : all_) {
                auto [value, fresh] = value_of.try_emplace(entry.spec);
                if (fresh) value = entry.pod.labels().get(label->first);
                if (value) key->second[*value].push_back(entry);
            }
        }
        auto it = key->second.find(label->second);
        return it == key->second.end() ? none_ : it->second;
    }

private:
    std::vector<ListedPod> all_, declaring_, none_;
    // label key (owned: the constraint asking goes away) -> label value (the snapshot's) -> pods
    std::map<std::string, std::unordered_map<std::string_view, std::vector<ListedPod>>, std::less<>> by_key_;
};

// What a constraint's domains start from: every value of its key among the nodes it includes,
// those nodes by value, and each node's value. Most constraints include every node: theirs are
// made once per topology key (upstream makes them per constraint).
struct TopologyKeyNodes {
    SpreadDomains skeleton;  // every value, no pods yet
    NodesByValue by_value;
    std::vector<std::optional<std::string_view>> value_of_node;  // by node index
};

class DomainSkeletons {
public:
    explicit DomainSkeletons(const std::vector<Node>& nodes) : nodes_(nodes) {}
    // The key's nodes for `c`: shared when `c` includes every node, else made into `own`.
    const TopologyKeyNodes& of(const SpreadConstraint& c, TopologyKeyNodes& own) {
        if (!c.includes_every_node()) {
            own = make(c);
            return own;
        }
        auto it = every_node_.find(c.topology_key());
        if (it == every_node_.end()) it = every_node_.emplace(c.topology_key(), make(c)).first;
        return it->second;
    }

private:
    TopologyKeyNodes make(const SpreadConstraint& c) const {
        TopologyKeyNodes out;
        out.by_value = nodes_by_value(c, nodes_);
        for (const auto& [value, nodes] : out.by_value) out.skeleton.try_emplace(std::string(value));
        out.value_of_node.reserve(nodes_.size());
        for (const Node& node : nodes_) out.value_of_node.push_back(node.labels().get(c.topology_key()));
        return out;
    }
    const std::vector<Node>& nodes_;
    std::map<std::string, TopologyKeyNodes, std::less<>> every_node_;
};

// The constraint's domains: every value of its key among the nodes it includes, then the pods
// it selects counted where they run (a pod on a node it does not include still counts).
SpreadDomains domains_of(const SpreadConstraint& c, Admission& admits, const TopologyKeyNodes& key, NamespacePods& pods,
                         size_t& counted) {
    SpreadDomains domains = key.skeleton;
    counted = 0;
    for (const ListedPod& entry : pods.candidates(c)) {
        const Pod& pod = entry.pod;
        if (pod.terminating() || !c.selects(pod) || !admits(pod)) continue;
        const auto& value = key.value_of_node[entry.node];
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
    for (auto node : snap.nodes()) nodes.push_back(node);

    // The pods that count are those the plugin could evict: running on the nodes, in scope and
    // passed by the evictor's Filter (upstream lists them through its pod filter), by namespace;
    // the Filter is asked when a pod first matters (Admission).
    // Namespaces in order of their names; each pod's found through a hash of them.
    // Whether a pod declares a balanced constraint is noted while it is listed (one read of its spec).
    const std::vector<std::string> actions = args_.balanced_actions();
    std::map<std::string_view, NamespacePods> by_namespace;
    // What the listing reads of a pod besides its phase is its spec's (namespace, labels,
    // constraints): worked out once per spec. No list: out of scope.
    struct Listing {
        NamespacePods* list = nullptr;
        bool declares = false;
    };
    SpecTable<Listing> listing_of;
    for (uint32_t n = 0; n < nodes.size(); ++n) {
        auto on_node = snap.pods_on_node(nodes[n].name());
        prefetch_specs(on_node);
        for (auto pod : on_node) {
            if (pod.finished()) continue;
            auto [listing, fresh] = listing_of.try_emplace(pod.raw()->spec);
            if (fresh && in_scope(args_.namespaces, args_.labelSelector, pod))
                listing = {&by_namespace[pod.ns()], declares_balanced(pod, actions)};
            if (listing.list) listing.list->add(pod, n, listing.declares);
        }
    }
    DomainSkeletons skeletons(nodes);
    Admission admits(cycle);

    UpstreamNodeFit fit(snap);
    std::vector<Pod> chosen;
    std::unordered_set<const kd_pod*> taken;
    for (auto& [ns, pods] : by_namespace) {
        for (const SpreadConstraint& c : constraints_of(cycle, admits, pods.declaring(), actions)) {
            size_t counted = 0;
            TopologyKeyNodes own;
            const TopologyKeyNodes& key = skeletons.of(c, own);
            SpreadDomains domains = domains_of(c, admits, key, pods, counted);
            if (spread_is_balanced(domains, c.max_skew())) continue;
            SpreadChoice choice =
                balance_domains(c, std::move(domains), counted, key.by_value, args_.topologyBalanceNodeFit, fit);
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
