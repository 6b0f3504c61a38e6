#include "high_node_utilization.hpp"

#include "common.hpp"
#include "utilization_eviction.hpp"
#include "utilization_usage.hpp"

namespace kd::plugins::sigs {

namespace {

// Upstream's withResourceRequestForAny: some container requests one of `names` (a request of 0
// counts: the pod declares the resource).
bool requests_any(const Pod& pod, const ResourceThresholds& names) {
    for (const auto& [name, percent] : names)
        if (pod.requests().find(name)) return true;
    return false;
}

}  // namespace

HighNodeUtilization::HighNodeUtilization(Host&, Args args)
    : args_(std::move(args)),
      resources_(measured_resources(args_.thresholds)),
      only_thresholding_resources_(listed(args_.evictionModes, std::string(kOnlyThresholdingResources))) {}

void HighNodeUtilization::balance(Cycle& cycle) {
    auto snap = cycle.snapshot();
    std::vector<NodeUtilization> nodes = measure_nodes(snap, resources_);
    ResourcePercents low(args_.thresholds.begin(), args_.thresholds.end());
    // The destinations may fill up to their whole allocatable of the thresholds' resources.
    ResourcePercents full;
    for (const auto& [name, percent] : args_.thresholds) full[name] = 100;

    // Underutilized: under `thresholds` in every resource, schedulable or not (a cordoned node is
    // emptied too). Every other schedulable node takes pods.
    std::vector<ClassifiedNode> underutilized, destinations;
    for (const auto& n : nodes) {
        ClassifiedNode c{&n, capped_allocatable(n.node, full, resources_)};
        if (below_threshold(n.share, low)) {
            underutilized.push_back(std::move(c));
            cycle.report_node(n.node.name(), "class", "low");
        } else {
            if (!n.node.unschedulable()) destinations.push_back(std::move(c));
            cycle.report_node(n.node.name(), "class", "appropriate");
        }
    }
    cycle.debug("HighNodeUtilization: " + std::to_string(underutilized.size()) + " underutilized nodes of " +
                std::to_string(nodes.size()));
    if (!enough_underutilized(cycle, underutilized.size(), nodes.size(), args_.numberOfNodes)) return;
    if (destinations.empty()) {
        cycle.debug("No node is available to schedule the pods, nothing to do here");
        return;
    }

    sort_by_usage(underutilized, true);
    SourceEviction how;
    how.reason = "node is underutilized";
    how.resources = resources_;
    how.evictableNamespaces = args_.evictableNamespaces;
    how.removable = [&](const Pod& pod) {
        if (!cycle.filter(pod).allowed) return false;
        return !only_thresholding_resources_ || requests_any(pod, args_.thresholds);
    };
    how.keep_evicting = [](const ResourceAmounts&, const ResourceAmounts&, const ResourceAmounts& room) {
        return has_room(room);
    };
    evict_from_sources(cycle, underutilized, destinations, how);
}

}  // namespace kd::plugins::sigs
