#include "inter_pod_anti_affinity.hpp"

#include "utilization_eviction.hpp"

#include <kdesched/address_table.hpp>
#include <kdesched/pod_affinity.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kd::plugins::sigs {

namespace {

// The pods that count against each other, by namespace and node: the in-scope pods on the
// profile's nodes, minus those already evicted this cycle (upstream's podsInANamespace and
// removePodFromNamespaceMap). A term is checked against the pods of its topology domain only
// (the nodes sharing the term's key value with the pod's node), not the whole namespace. Nodes are
// known by their index in the extension point's list. The pods are kept in one list, namespace
// by namespace, each namespace's in node order: no container per namespace and node.
class CountedPods {
public:
    CountedPods(const std::vector<Node>& nodes, const std::unordered_map<std::string_view, uint32_t>& index)
        : nodes_(nodes), index_(index) {}
    // The number of a namespace, for add().
    uint32_t namespace_id(std::string_view ns) {
        return namespace_ids_.try_emplace(ns, static_cast<uint32_t>(namespace_ids_.size())).first->second;
    }
    // Pods come node by node, in the nodes' order; `ns` is namespace_id(pod.ns()).
    void add(const Pod& pod, uint32_t node, uint32_t ns) { listed_.push_back({pod, node, ns}); }
    // After the last add: groups the pods by namespace (stable, so each stays in node order).
    void seal() {
        begin_.assign(namespace_ids_.size() + 1, 0);
        for (const Listed& l : listed_) ++begin_[l.ns + 1];
        for (size_t i = 1; i < begin_.size(); ++i) begin_[i] += begin_[i - 1];
        std::vector<size_t> next(begin_.begin(), begin_.end() - 1);
        pods_.assign(listed_.size(), Counted{Pod(nullptr), 0, false});
        for (const Listed& l : listed_) pods_[next[l.ns]++] = {l.pod, l.node, true};
        listed_.clear();
        listed_.shrink_to_fit();
    }
    void remove(const Pod& pod) {
        auto ns = namespace_ids_.find(pod.ns());
        auto node = index_.find(pod.node_name());
        if (ns == namespace_ids_.end() || node == index_.end()) return;
        auto [first, last] = on_node(ns->second, node->second);
        for (auto it = first; it != last; ++it)
            if (it->live && it->pod.name() == pod.name()) {
                it->live = false;
                return;
            }
    }
    // The pods of `ns` on the nodes of `home`'s domain of `key` (home alone when it lacks the key).
    std::vector<Pod> in_domain(std::string_view ns, std::string_view key, const Node& home) {
        std::vector<Pod> out;
        auto id = namespace_ids_.find(ns);
        if (id == namespace_ids_.end()) return out;
        auto add_range = [&](auto first, auto last) {
            for (auto it = first; it != last; ++it)
                if (it->live) out.push_back(it->pod);
        };
        auto value = home.labels().get(key);
        if (!value) {
            if (auto at = index_.find(home.name()); at != index_.end()) {
                auto [first, last] = on_node(id->second, at->second);
                add_range(first, last);
            }
            return out;
        }
        const Domain& d = domain(key, *value);
        auto first = pods_.begin() + static_cast<ptrdiff_t>(begin_[id->second]);
        auto last = pods_.begin() + static_cast<ptrdiff_t>(begin_[id->second + 1]);
        if (static_cast<size_t>(last - first) <= d.nodes.size()) {
            // Fewer pods in the namespace than nodes in the domain: read the namespace's pods.
            for (auto it = first; it != last; ++it)
                if (it->live && d.holds(it->node)) out.push_back(it->pod);
        } else {
            for (uint32_t node : d.nodes) {
                auto [from, to] = on_node(id->second, node);
                add_range(from, to);
            }
        }
        return out;
    }

private:
    struct Listed {
        Pod pod;
        uint32_t node, ns;
    };
    struct Counted {
        Pod pod;
        uint32_t node;
        bool live;
    };
    // The nodes of one value of a key, ascending, and a membership test over them.
    struct Domain {
        std::vector<uint32_t> nodes;
        bool holds(uint32_t node) const { return std::binary_search(nodes.begin(), nodes.end(), node); }
    };

    std::pair<std::vector<Counted>::iterator, std::vector<Counted>::iterator> on_node(uint32_t ns, uint32_t node) {
        auto first = pods_.begin() + static_cast<ptrdiff_t>(begin_[ns]);
        auto last = pods_.begin() + static_cast<ptrdiff_t>(begin_[ns + 1]);
        return std::equal_range(first, last, Counted{Pod(nullptr), node, false},
                                [](const Counted& a, const Counted& b) { return a.node < b.node; });
    }
    // The profile's nodes by their value of `key`, indexed once per key.
    const Domain& domain(std::string_view key, std::string_view value) {
        auto k = domains_.find(key);
        if (k == domains_.end()) {
            k = domains_.try_emplace(std::string(key)).first;
            for (uint32_t n = 0; n < nodes_.size(); ++n)
                if (auto v = nodes_[n].labels().get(key)) k->second[*v].nodes.push_back(n);
        }
        auto v = k->second.find(value);
        return v == k->second.end() ? none_ : v->second;
    }

    const std::vector<Node>& nodes_;
    const std::unordered_map<std::string_view, uint32_t>& index_;
    std::unordered_map<std::string_view, uint32_t> namespace_ids_;
    std::vector<Listed> listed_;
    std::vector<Counted> pods_;  // namespace by namespace, each in node order
    std::vector<size_t> begin_;  // by namespace id: where its pods start in pods_ (one past: the end)
    std::map<std::string, std::unordered_map<std::string_view, Domain>, std::less<>> domains_;
    Domain none_;
};

// Upstream logs the conversion error and leaves the pod alone; so do we, saying which term.
void warn_invalid_term(const Cycle& cycle, const Pod& pod) {
    size_t index = 0;
    for (auto term : pod.pod_anti_affinity_terms()) {
        std::string problem = affinity_selector_problem(term);
        if (!problem.empty()) {
            cycle.warn("pod " + pod.key() + ": podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[" +
                       std::to_string(index) + "].labelSelector: " + problem +
                       "; its anti-affinity is not checked (fix the pod's labelSelector)");
            return;
        }
        ++index;
    }
}

}  // namespace

void RemovePodsViolatingInterPodAntiAffinity::deschedule(Cycle& cycle) {
    auto snap = cycle.snapshot();
    // Upstream lists every in-scope pod of the profile's nodes first, not Succeeded or Failed; the
    // evictor's filters are asked only about a pod found in violation.
    std::vector<Node> nodes;
    std::unordered_map<std::string_view, uint32_t> index;
    for (auto node : snap.nodes()) {
        index.emplace(node.name(), static_cast<uint32_t>(nodes.size()));
        nodes.push_back(node);
    }
    std::vector<std::vector<Pod>> on_node(nodes.size());  // the pods declaring required anti-affinity
    CountedPods counted(nodes, index);
    // What the listing reads of a pod besides its phase is its spec's (namespace, labels, terms):
    // worked out once per spec.
    struct Listing {
        bool in_scope = false, has_terms = false;
        uint32_t ns = 0;
    };
    SpecTable<Listing> listing_of;
    for (uint32_t n = 0; n < nodes.size(); ++n) {
        auto pods = snap.pods_on_node(nodes[n].name());
        prefetch_specs(pods);
        for (auto pod : pods) {
            if (pod.finished()) continue;
            auto [listing, fresh] = listing_of.try_emplace(pod.raw()->spec);
            if (fresh && in_scope(args_.namespaces, args_.labelSelector, pod))
                listing = {true, !pod.pod_anti_affinity_terms().empty(), counted.namespace_id(pod.ns())};
            if (!listing.in_scope) continue;
            // Only a pod with required anti-affinity terms is ever checked; the others count.
            if (listing.has_terms) on_node[n].push_back(pod);
            counted.add(pod, n, listing.ns);
        }
    }
    counted.seal();
    auto pods_in = [&](std::string_view ns, std::string_view key, const Node& home) {
        return counted.in_domain(ns, key, home);
    };
    auto node_of = [&](const Pod& pod) -> std::optional<Node> {
        auto it = index.find(pod.node_name());
        return it == index.end() ? std::nullopt : std::optional<Node>(nodes[it->second]);
    };
    EvictOptions options;
    options.pre_eviction_filter = false;  // asked just before, as upstream asks it
    for (uint32_t n = 0; n < nodes.size(); ++n) {
        auto& pods = on_node[n];
        // podutil.SortPodsBasedOnPriorityLowToHigh, as the utilization plugins order their pods.
        // Upstream sorts all the node's pods and skips those without terms: a stable sort of just
        // the pods with terms puts them in the same order.
        sort_pods_for_eviction(pods);
        for (const Pod& pod : pods) {
            AntiAffinityMatch found = anti_affinity_violated(pod, pods_in, node_of);
            if (found == AntiAffinityMatch::invalid) warn_invalid_term(cycle, pod);
            if (found != AntiAffinityMatch::match) continue;
            if (!evictor_admits(cycle, pod)) continue;
            EvictOutcome out = cycle.evict(pod, "violates its required inter-pod anti-affinity", options);
            // An evicted pod no longer stands in the way of the pods after it.
            if (out.evicted()) counted.remove(pod);
            if (out.code == KD_EVICT_LIMIT_NODE) break;
            if (out.code == KD_EVICT_LIMIT_TOTAL) return;
        }
    }
}

}  // namespace kd::plugins::sigs
