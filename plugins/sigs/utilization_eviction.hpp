// Moving pods off source nodes while the destination nodes still have room, the loop both
// utilization plugins end with (kubernetes-sigs/descheduler
// pkg/framework/plugins/nodeutilization/nodeutilization.go@v0.35.1, evictPodsFromSourceNodes and
// evictPods): LowNodeUtilization drains overutilized nodes into underutilized ones,
// HighNodeUtilization empties underutilized nodes into the others.
#pragma once

#include "utilization_usage.hpp"

#include <kdesched/namespaces.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kd::plugins::sigs {

// A classified node: its measure and what it may hold (capped_allocatable at its high threshold).
struct ClassifiedNode {
    const NodeUtilization* measured;
    ResourceAmounts capacity;
};

// Whether to go on evicting from a source node: its usage now (after the evictions so far) and
// cap, and what the destinations can still take in all.
using KeepEvicting =
    std::function<bool(const ResourceAmounts& usage, const ResourceAmounts& capacity, const ResourceAmounts& room)>;

struct SourceEviction {
    std::string_view reason;                        // for Events and logs
    std::vector<std::string> resources;             // what the room is counted in
    std::optional<Namespaces> evictableNamespaces;  // only `exclude` is read, as upstream
    std::optional<uint64_t> node_limit;             // the plugin's own evictions per node (evictionLimits.node)
    std::function<bool(const Pod&)> removable;      // the plugin's pod filter (the evictor's Filter and more)
    KeepEvicting keep_evicting;
    // What an evicted pod takes off its node and adds to the destinations' room, in `resources`
    // but pods (counted as one). Unset: its requests. nullopt: unknown (the reason in `why`),
    // so the pod is skipped (upstream's podUsage error: logged, the next pod).
    std::function<std::optional<ResourceAmounts>(const Pod&, std::string& why)> pod_usage;
};

// Every resource of the destinations' room is above zero (both plugins stop at the first that is not).
bool has_room(const ResourceAmounts& room);

// Sorts nodes by upstream's usage sum (usage_sort_key), ascending for HighNodeUtilization and
// descending for LowNodeUtilization; ties keep the snapshot's node order.
void sort_by_usage(std::vector<ClassifiedNode>& nodes, bool ascending);

// The checks both plugins make before evicting (quietly, with a debug log, as upstream): some node
// is underutilized, more than numberOfNodes are, and not all of them are. False: nothing to do.
bool enough_underutilized(const Cycle& cycle, size_t underutilized, size_t nodes, int64_t number_of_nodes);

// The order pods leave a node in (podutil.SortPodsBasedOnPriorityLowToHigh@v0.35.1): pods
// without a priority first, then by priority, then BestEffort before Burstable before
// Guaranteed, then pods without the descheduler.alpha.kubernetes.io/prefer-no-eviction
// annotation first; ties keep the node's pod order.
void sort_pods_for_eviction(std::vector<Pod>& pods);

// Upstream's utils.PodToleratesTaints: the pod tolerates every taint (any effect) of at least one
// destination, and has at least as many tolerations as that node has taints.
bool tolerates_some_destination(const Pod& pod, const std::vector<ClassifiedNode>& destinations);

// Evicts from `sources`, in their order, into the room `destinations` leave.
void evict_from_sources(Cycle& cycle, const std::vector<ClassifiedNode>& sources,
                        const std::vector<ClassifiedNode>& destinations, const SourceEviction& how);

}  // namespace kd::plugins::sigs
