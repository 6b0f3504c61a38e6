#include "utilization_eviction.hpp"

#include <kdesched/node_fit.hpp>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace kd::plugins::sigs {

namespace {

constexpr std::string_view kPreferNoEviction = "descheduler.alpha.kubernetes.io/prefer-no-eviction";

int qos_rank(kd_qos_class qos) {
    switch (qos) {
        case KD_QOS_BEST_EFFORT:
            return 0;
        case KD_QOS_BURSTABLE:
            return 1;
        case KD_QOS_GUARANTEED:
            return 2;
    }
    return 1;
}

// What the destinations can take in all: each one's cap minus its usage, summed
// (assessAvailableResourceInNodes).
ResourceAmounts room_in(const std::vector<ClassifiedNode>& destinations, const std::vector<std::string>& resources) {
    ResourceAmounts room;
    for (const auto& name : resources) room[name] = 0;
    for (const auto& d : destinations)
        for (const auto& name : resources) room[name] += d.capacity.at(name) - d.measured->usage.at(name);
    return room;
}

bool excluded(const std::optional<Namespaces>& namespaces, const Pod& pod) {
    if (!namespaces) return false;
    const auto& list = namespaces->exclude;
    return std::find(list.begin(), list.end(), pod.ns()) != list.end();
}

// One source node's loop (upstream's evictPods). False when the total limit ended the cycle.
bool evict_from_node(Cycle& cycle, const ClassifiedNode& source, std::vector<Pod> pods, ResourceAmounts& room,
                     const std::vector<ClassifiedNode>& destinations, const SourceEviction& how) {
    ResourceAmounts usage = source.measured->usage;
    if (!how.keep_evicting(usage, source.capacity, room)) return true;
    sort_pods_for_eviction(pods);
    EvictOptions options;
    options.pre_eviction_filter = false;  // asked just before, as upstream does
    uint64_t evicted = 0;
    for (const auto& pod : pods) {
        if (how.node_limit && evicted >= *how.node_limit) break;
        // Why a pod stayed, for `kdesched simulate --explain` (the filters report themselves).
        if (!tolerates_some_destination(pod, destinations)) {
            cycle.report_pod(pod, "skipped", "Taints: tolerates no destination node's taints");
            continue;
        }
        if (excluded(how.evictableNamespaces, pod)) {
            cycle.report_pod(pod, "skipped", "EvictableNamespaces");
            continue;
        }
        if (!cycle.pre_eviction_filter(pod).allowed) continue;
        std::optional<ResourceAmounts> taken;
        if (how.pod_usage) {
            std::string why;
            taken = how.pod_usage(pod, why);
            if (!taken) {
                cycle.report_pod(pod, "skipped", "PodMetrics: " + why);
                cycle.warn("unable to get pod usage of " + std::string(pod.ns()) + "/" + std::string(pod.name()) +
                           ": " + why);
                continue;
            }
        }
        EvictOutcome out = cycle.evict(pod, how.reason, options);
        if (!out.evicted()) {
            if (out.code == KD_EVICT_LIMIT_TOTAL) return false;
            if (out.code == KD_EVICT_LIMIT_NODE) return true;
            continue;  // filtered, the namespace's limit or a failure: the next pod
        }
        ++evicted;
        // The pod's usage (its requests, or what metrics-server measured) leaves the node and
        // fills the destinations' room; `pods` counts one.
        for (auto& [name, left] : room) {
            int64_t amount = name == kPodsResource ? 1000
                             : taken               ? (taken->count(name) ? taken->at(name) : 0)
                                                   : pod.requests().milli(name);
            usage[name] -= amount;
            left -= amount;
        }
        if (!how.keep_evicting(usage, source.capacity, room)) break;
    }
    return true;
}

}  // namespace

bool has_room(const ResourceAmounts& room) {
    for (const auto& [name, left] : room)
        if (left <= 0) return false;
    return true;
}

void sort_by_usage(std::vector<ClassifiedNode>& nodes, bool ascending) {
    // Each node's key once, not once per comparison; the same stable order.
    std::vector<std::pair<int64_t, size_t>> keyed;
    keyed.reserve(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) keyed.emplace_back(usage_sort_key(nodes[i].measured->usage), i);
    std::stable_sort(keyed.begin(), keyed.end(), [ascending](const auto& a, const auto& b) {
        return ascending ? a.first < b.first : a.first > b.first;
    });
    std::vector<ClassifiedNode> sorted;
    sorted.reserve(nodes.size());
    for (const auto& [key, i] : keyed) sorted.push_back(std::move(nodes[i]));
    nodes = std::move(sorted);
}

bool enough_underutilized(const Cycle& cycle, size_t underutilized, size_t nodes, int64_t number_of_nodes) {
    if (underutilized == 0) {
        cycle.debug("No node is underutilized, nothing to do here, you might tune your thresholds further");
        return false;
    }
    if (static_cast<int64_t>(underutilized) <= number_of_nodes) {
        cycle.debug("Number of nodes underutilized (" + std::to_string(underutilized) +
                    ") is less or equal than numberOfNodes (" + std::to_string(number_of_nodes) +
                    "), nothing to do here");
        return false;
    }
    if (underutilized == nodes) {
        cycle.debug("All nodes are underutilized, nothing to do here");
        return false;
    }
    return true;
}

void sort_pods_for_eviction(std::vector<Pod>& pods) {
    // The key is worked out once per pod (a comparison would read the pod, its spec and its
    // annotations twice), packed so that comparing the numbers compares the fields in order.
    auto key = [](const Pod& p) {
        auto priority = p.priority();
        uint64_t k = priority ? (uint64_t{1} << 40) | (uint64_t(int64_t(*priority) + (int64_t{1} << 31)) << 8) : 0;
        return k | uint64_t(qos_rank(p.qos_class())) << 1 | uint64_t(p.annotations().has(kPreferNoEviction));
    };
    std::vector<std::pair<uint64_t, Pod>> keyed;
    keyed.reserve(pods.size());
    for (const Pod& p : pods) keyed.emplace_back(key(p), p);
    std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t i = 0; i < pods.size(); ++i) pods[i] = keyed[i].second;
}

bool tolerates_some_destination(const Pod& pod, const std::vector<ClassifiedNode>& destinations) {
    for (const auto& d : destinations) {
        const Node& node = d.measured->node;
        if (pod.tolerations().size() < node.taints().size()) continue;
        bool all = true;
        for (auto taint : node.taints()) {
            bool tolerated = false;
            for (auto t : pod.tolerations()) tolerated = tolerated || toleration_tolerates_taint(t, taint);
            all = all && tolerated;
        }
        if (all) return true;
    }
    return false;
}

void evict_from_sources(Cycle& cycle, const std::vector<ClassifiedNode>& sources,
                        const std::vector<ClassifiedNode>& destinations, const SourceEviction& how) {
    ResourceAmounts room = room_in(destinations, how.resources);
    for (const auto& source : sources) {
        // evict_from_node would stop before its first pod. Upstream classifies the node's pods
        // by the filters first; asking them changes nothing here but the time, which is most of
        // the cycle once the destinations' room has run out with thousands of sources to go.
        if (!how.keep_evicting(source.measured->usage, source.capacity, room)) continue;
        std::vector<Pod> removable;
        for (const auto& pod : source.measured->pods)
            if (how.removable(pod)) removable.push_back(pod);
        if (removable.empty()) continue;
        if (!evict_from_node(cycle, source, std::move(removable), room, destinations, how)) return;
    }
}

}  // namespace kd::plugins::sigs
