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

// The pods that count against each other, by namespace: the in-scope pods on the profile's nodes,
// minus those already evicted this cycle (upstream's podsInANamespace and removePodFromNamespaceMap).
class CountedPods {
public:
    void add(const Pod& pod) { by_namespace_[std::string(pod.ns())].push_back(pod); }
    const std::vector<Pod>& in(std::string_view ns) const {
        auto it = by_namespace_.find(ns);
        return it == by_namespace_.end() ? none_ : it->second;
    }
    void remove(const Pod& pod) {
        auto it = by_namespace_.find(pod.ns());
        if (it == by_namespace_.end()) return;
        auto& pods = it->second;
        auto at = std::find_if(pods.begin(), pods.end(), [&](const Pod& p) { return p.name() == pod.name(); });
        if (at != pods.end()) pods.erase(at);
    }

private:
    std::map<std::string, std::vector<Pod>, std::less<>> by_namespace_;
    std::vector<Pod> none_;
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
    CountedPods counted;
    for (auto node : snap.nodes()) {
        nodes.emplace(std::string(node.name()), node);
        auto& list = on_node[std::string(node.name())];
        for (auto pod : snap.pods_on_node(node.name())) {
            if (finished(pod) || !in_scope(args_.namespaces, args_.labelSelector, pod)) continue;
            list.push_back(pod);
            counted.add(pod);
        }
    }
    auto pods_in = [&](std::string_view ns) -> const std::vector<Pod>& { return counted.in(ns); };
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
