// How full each node is by its pods' resource requests, the arithmetic LowNodeUtilization and
// HighNodeUtilization share (kubernetes-sigs/descheduler
// pkg/framework/plugins/nodeutilization/nodeutilization.go and usageclients.go@v0.35.1, the
// requests-based usage client; pkg/descheduler/node/node.go NodeUtilization).
//
// Amounts are kept in milli-units, as the snapshot gives them, so adding and subtracting requests
// is exact like upstream's resource.Quantity; percentages and caps are computed in upstream's
// units (CPU in milli-cores, every other resource in whole units rounded up: Quantity.Value()).
#pragma once

#include "utilization_args.hpp"

#include <kdesched/plugin.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kd::plugins::sigs {

// Resource name → amount in milli-units.
using ResourceAmounts = std::map<std::string, int64_t>;
// Resource name → percent.
using ResourcePercents = std::map<std::string, double>;

inline constexpr const char* kPodsResource = "pods";

// One node as both plugins see it.
struct NodeUtilization {
    Node node;
    std::vector<Pod> pods;   // the node's pods that occupy resources (not Succeeded nor Failed), in snapshot order
    ResourceAmounts usage;   // every measured resource: the pods' requests; `pods` counts the pods
    ResourcePercents share;  // usage / allocatable * 100, for the resources the node has allocatable of
};

// The resources both plugins measure: those of the thresholds plus cpu, memory and pods
// (upstream's uniquifyResourceNames), sorted by name.
std::vector<std::string> measured_resources(const ResourceThresholds& thresholds);

// Every node of the extension point, measured on `resources` by its pods' requests, in snapshot order.
std::vector<NodeUtilization> measure_nodes(const Snapshot& snapshot, const std::vector<std::string>& resources);

// The node's pods that occupy resources (not Succeeded nor Failed), in snapshot order.
std::vector<Pod> running_pods(const Snapshot& snapshot, std::string_view node_name);

// usage / allocatable * 100 for each resource the node has allocatable of (upstream's
// ResourceUsageToResourceThreshold: no share for a resource the node lacks, 0 % on a node with
// none of it).
ResourcePercents shares_of(const Node& node, const ResourceAmounts& usage);

// The node's allocatable of each resource, capped at the threshold's percent where one is given
// (upstream's capNodeCapacitiesToThreshold): what the node may hold before it counts as full.
// A resource the node has no allocatable of gets 0.
ResourceAmounts capped_allocatable(const Node& node, const ResourcePercents& threshold,
                                   const std::vector<std::string>& resources);

// useDeviationThresholds: the average share of each thresholds resource over the nodes that have
// it, minus `low` and plus `high`, each clamped to [0, 100] (upstream's
// assessNodesUsagesAndRelativeThresholds). first: the low thresholds, second: the high ones.
std::pair<ResourcePercents, ResourcePercents> deviation_thresholds(const std::vector<NodeUtilization>& nodes,
                                                                   const ResourceThresholds& low,
                                                                   const ResourceThresholds& high);

// Every thresholds resource at or under its threshold (isNodeBelowThreshold); a resource the node
// has no share of counts as 0.
bool below_threshold(const ResourcePercents& share, const ResourcePercents& threshold);
// Some thresholds resource over its threshold (isNodeAboveThreshold).
bool above_threshold(const ResourcePercents& share, const ResourcePercents& threshold);

// Upstream's node sort key (sortNodesByUsage): the usage summed in upstream's units.
int64_t usage_sort_key(const ResourceAmounts& usage);

}  // namespace kd::plugins::sigs
