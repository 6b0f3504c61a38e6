#include "inter_pod_anti_affinity.hpp"

#include "utilization_eviction.hpp"

#include <kdesched/pod_affinity.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kd::plugins::sigs {

namespace {

// The pods that count against each other, by namespace and node: the in-scope pods on the
// profile's nodes, minus those already evicted this cycle (upstream's podsInANamespace and
// removePodFromNamespaceMap). A term is checked against the pods of its topology domain only
// (the nodes sharing the term's key value with the pod's node), not the whole namespace.
class CountedPods {
public:
    explicit CountedPods(const std::map<std::string, Node, std::less<>>& nodes) : nodes_(nodes) {}
    void add(const Pod& pod) { by_namespace_[std::string(pod.ns())][std::string(pod.node_name())].push_back(pod); }
    void remove(const Pod& pod) {
        auto ns = by_namespace_.find(pod.ns());
        if (ns == by_namespace_.end()) return;
        auto node = ns->second.find(pod.node_name());
        if (node == ns->second.end()) return;
        auto& pods = node->second;
        auto at = std::find_if(pods.begin(), pods.end(), [&](const Pod& p) { return p.name() == pod.name(); });
        if (at != pods.end()) pods.erase(at);
    }
    // The pods of `ns` on the nodes of `home`'s domain of `key` (home alone when it lacks the key).
    std::vector<Pod> in_domain(std::string_view ns, std::string_view key, const Node& home) {
        std::vector<Pod> out;
        auto it = by_namespace_.find(ns);
        if (it == by_namespace_.end()) return out;
        auto add_node = [&](std::string_view node) {
            auto pods = it->second.find(node);
            if (pods != it->second.end()) out.insert(out.end(), pods->second.begin(), pods->second.end());
        };
        auto value = home.labels().get(key);
        if (!value) {
            add_node(home.name());
            return out;
        }
        for (const std::string& node : domain(key, *value)) add_node(node);
        return out;
    }

private:
    // The profile's nodes by their value of `key`, indexed once per key.
    const std::vector<std::string>& domain(std::string_view key, std::string_view value) {
        auto k = domains_.find(key);
        if (k == domains_.end()) {
            k = domains_.emplace(std::string(key), std::map<std::string, std::vector<std::string>, std::less<>>{})
                    .first;
            for (const auto& [name, node] : nodes_)
                if (auto v = node.labels().get(key)) k->second[std::string(*v)].push_back(name);
        }
        auto v = k->second.find(value);
        return v == k->second.end() ? none_ : v->second;
    }

    const std::map<std::string, Node, std::less<>>& nodes_;
    std::map<std::string, std::map<std::string, std::vector<Pod>, std::less<>>, std::less<>> by_namespace_;
    std::map<std::string, std::map<std::string, std::vector<std::string>, std::less<>>, std::less<>> domains_;
    std::vector<std::string> none_;
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
    std::map<std::string, Node, std::less<>> nodes;
    std::map<std::string, std::vector<Pod>, std::less<>> on_node;
    CountedPods counted(nodes);
    for (auto node : snap.nodes()) {
        nodes.emplace(std::string(node.name()), node);
        auto& list = on_node[std::string(node.name())];
        for (auto pod : snap.pods_on_node(node.name())) {
            if (pod.finished() || !in_scope(args_.namespaces, args_.labelSelector, pod)) continue;
            list.push_back(pod);
            counted.add(pod);
        }
    }
    auto pods_in = [&](std::string_view ns, std::string_view key, const Node& home) {
        return counted.in_domain(ns, key, home);
    };
    auto node_of = [&](const Pod& pod) -> std::optional<Node> {
        auto it = nodes.find(pod.node_name());
        return it == nodes.end() ? std::nullopt : std::optional<Node>(it->second);
    };
    EvictOptions options;
    options.pre_eviction_filter = false;  // asked just before, as upstream asks it
    for (auto node : snap.nodes()) {
        auto& pods = on_node[std::string(node.name())];
        // podutil.SortPodsBasedOnPriorityLowToHigh, as the utilization plugins order their pods.
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
