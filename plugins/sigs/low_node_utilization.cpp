#include "low_node_utilization.hpp"

#include "utilization_eviction.hpp"
#include "utilization_usage.hpp"

#include <tuple>

namespace kd::plugins::sigs {

namespace {

// Over its cap in some resource: the node is still above its target (isNodeAboveTargetUtilization).
bool over_capacity(const ResourceAmounts& usage, const ResourceAmounts& capacity) {
    for (const auto& [name, used] : usage) {
        auto cap = capacity.find(name);
        if (cap != capacity.end() && cap->second < used) return true;
    }
    return false;
}

// Which usage metricsUtilization asks for: true for metrics.k8s.io; throws for what cannot run.
bool wants_actual_usage(const Host& host, const std::optional<MetricsUtilization>& metrics) {
    if (!metrics) return false;
    auto refuse = [](const std::string& field, const std::string& message) {
        Errors errs;
        errs.add(field.empty() ? "metricsUtilization" : field_path("metricsUtilization", field), message);
        throw DecodeError(std::move(errs));
    };
    if (metrics->kubernetes()) {
        if (!host.collects_kubernetes_metrics())
            refuse("",
                   "metrics client not initialized: the DeschedulerPolicy enables no KubernetesMetrics source; "
                   "add \"metricsProviders: [{source: KubernetesMetrics}]\" at its top level (the deprecated "
                   "\"metricsCollector: {enabled: true}\" works too) so that kdesched reads metrics.k8s.io "
                   "(metrics-server); a host older than plugin API 1.8 cannot");
        return true;
    }
    // (Prometheus never gets here: MetricsUtilization::validate refuses it with the other problems.)
    if (!metrics->source.empty())
        refuse("source",
               "unrecognized metrics source \"" + metrics->source + "\" (KubernetesMetrics is the one kdesched reads)");
    refuse("", "metrics source is empty: set \"source: KubernetesMetrics\" or remove metricsUtilization");
    return false;
}

}  // namespace

LowNodeUtilization::LowNodeUtilization(Host& host, Args args)
    : args_(std::move(args)),
      actual_usage_(wants_actual_usage(host, args_.metricsUtilization)),
      resources_(measured_resources(args_.thresholds)) {}

void LowNodeUtilization::balance(Cycle& cycle) {
    auto snap = cycle.snapshot();
    std::optional<ActualUsage> actual;
    if (actual_usage_) actual.emplace(snap);
    std::vector<NodeUtilization> nodes =
        actual ? actual->measure_nodes(snap, resources_) : measure_nodes(snap, resources_);
    ResourcePercents low(args_.thresholds.begin(), args_.thresholds.end());
    ResourcePercents high(args_.targetThresholds.begin(), args_.targetThresholds.end());
    if (args_.useDeviationThresholds) std::tie(low, high) = deviation_thresholds(nodes, low, high);

    // A node is underutilized when schedulable and under `low` in every resource, else
    // overutilized when over `high` in some resource, else appropriately utilized.
    std::vector<ClassifiedNode> underutilized, overutilized;
    for (const auto& n : nodes) {
        ClassifiedNode c{&n, capped_allocatable(n.node, high, resources_)};
        if (!n.node.unschedulable() && below_threshold(n.share, low)) {
            underutilized.push_back(std::move(c));
            cycle.report_node(n.node.name(), "class", "low");
        } else if (above_threshold(n.share, high)) {
            overutilized.push_back(std::move(c));
            cycle.report_node(n.node.name(), "class", "high");
        } else {
            cycle.report_node(n.node.name(), "class", "appropriate");
        }
    }
    cycle.debug("LowNodeUtilization: " + std::to_string(underutilized.size()) + " underutilized and " +
                std::to_string(overutilized.size()) + " overutilized nodes of " + std::to_string(nodes.size()));
    if (!enough_underutilized(cycle, underutilized.size(), nodes.size(), args_.numberOfNodes)) return;
    if (overutilized.empty()) {
        cycle.debug("All nodes are under target utilization, nothing to do here");
        return;
    }

    sort_by_usage(overutilized, false);
    SourceEviction how;
    how.reason = "node is overutilized";
    how.resources = resources_;
    how.evictableNamespaces = args_.evictableNamespaces;
    if (args_.evictionLimits) how.node_limit = args_.evictionLimits->node;
    how.removable = [&cycle](const Pod& pod) { return cycle.filter(pod).allowed; };
    how.keep_evicting = [](const ResourceAmounts& usage, const ResourceAmounts& capacity, const ResourceAmounts& room) {
        return over_capacity(usage, capacity) && has_room(room);
    };
    if (actual)
        how.pod_usage = [&](const Pod& pod, std::string& why) { return actual->pod_usage(pod, resources_, why); };
    evict_from_sources(cycle, overutilized, underutilized, how);
}

}  // namespace kd::plugins::sigs
