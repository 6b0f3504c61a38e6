#include "utilization_usage.hpp"

#include <kdesched/quantity.hpp>

#include <algorithm>

namespace kd::plugins::sigs {

namespace {

bool occupies_resources(const Pod& pod) {
    // Succeeded and failed pods hold nothing (podutil.ListPodsOnANode@v0.35.1).
    return !pod.finished();
}

}  // namespace

std::vector<Pod> running_pods(const Snapshot& snapshot, std::string_view node_name) {
    std::vector<Pod> out;
    auto on_node = snapshot.pods_on_node(node_name);
    prefetch_requests(on_node);  // what their callers read next
    for (auto pod : on_node)
        if (occupies_resources(pod)) out.push_back(pod);
    return out;
}

ResourcePercents shares_of(const Node& node, const ResourceAmounts& usage) {
    ResourcePercents out;
    for (const auto& [name, milli] : usage) {
        auto allocatable = node.allocatable().find(name);
        if (!allocatable) continue;
        int64_t used = natural_units(name, milli), total = natural_units(name, *allocatable);
        out[name] = total > 0 ? static_cast<double>(used) / static_cast<double>(total) * 100 : 0.0;
    }
    return out;
}

std::vector<std::string> measured_resources(const ResourceThresholds& thresholds) {
    std::vector<std::string> names = {"cpu", "memory", kPodsResource};
    for (const auto& [name, percent] : thresholds)
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    std::sort(names.begin(), names.end());
    return names;
}

std::vector<NodeUtilization> measure_nodes(const Snapshot& snapshot, const std::vector<std::string>& resources) {
    std::vector<NodeUtilization> out;
    std::vector<int64_t> milli(resources.size());
    for (auto node : snapshot.nodes()) {
        NodeUtilization& n = out.emplace_back(NodeUtilization{node, running_pods(snapshot, node.name()), {}, {}});
        // One pass over the pods for every resource (a pod's requests are read once).
        std::fill(milli.begin(), milli.end(), 0);
        for (const auto& pod : n.pods) {
            Resources requests = pod.requests();
            for (size_t r = 0; r < resources.size(); ++r)
                if (resources[r] != kPodsResource) milli[r] += requests.milli(resources[r]);
        }
        for (size_t r = 0; r < resources.size(); ++r) {
            const std::string& name = resources[r];
            if (name == kPodsResource) milli[r] = static_cast<int64_t>(n.pods.size()) * 1000;
            n.usage[name] = milli[r];
        }
        n.share = shares_of(node, n.usage);
    }
    return out;
}

ResourceAmounts capped_allocatable(const Node& node, const ResourcePercents& threshold,
                                   const std::vector<std::string>& resources) {
    ResourceAmounts out;
    for (const auto& name : resources) {
        auto allocatable = node.allocatable().find(name);
        if (!allocatable) {
            out[name] = 0;
            continue;
        }
        auto percent = threshold.find(name);
        if (percent == threshold.end()) {
            out[name] = *allocatable;
            continue;
        }
        // Upstream truncates percent * 0.01 * capacity to an integer of its unit: milli-cores
        // for cpu, whole units for the rest.
        auto cap = [&](int64_t capacity) {
            return static_cast<int64_t>(percent->second * 0.01 * static_cast<double>(capacity));
        };
        out[name] = name == "cpu" ? cap(*allocatable) : cap(natural_units(name, *allocatable)) * 1000;
    }
    return out;
}

std::pair<ResourcePercents, ResourcePercents> deviation_thresholds(const std::vector<NodeUtilization>& nodes,
                                                                   const ResourceThresholds& low,
                                                                   const ResourceThresholds& high) {
    // Only the thresholds' resources enter the average (upstream filters the usage to them first).
    ResourcePercents sum;
    std::map<std::string, int> count;
    for (const auto& n : nodes)
        for (const auto& [name, share] : n.share)
            if (low.count(name)) sum[name] += share, ++count[name];
    ResourcePercents lower, higher;
    auto clamp = [](double v) { return std::min(std::max(v, 0.0), 100.0); };
    for (const auto& [name, total] : sum) {
        double average = total / count[name];
        auto l = low.find(name), h = high.find(name);
        lower[name] = clamp(average - (l == low.end() ? 0.0 : l->second));
        higher[name] = clamp(average + (h == high.end() ? 0.0 : h->second));
    }
    return {lower, higher};
}

namespace {
double share_of(const ResourcePercents& share, const std::string& name) {
    auto it = share.find(name);
    return it == share.end() ? 0.0 : it->second;
}
}  // namespace

bool below_threshold(const ResourcePercents& share, const ResourcePercents& threshold) {
    for (const auto& [name, percent] : threshold)
        if (percent < share_of(share, name)) return false;
    return true;
}

bool above_threshold(const ResourcePercents& share, const ResourcePercents& threshold) {
    for (const auto& [name, percent] : threshold)
        if (percent < share_of(share, name)) return true;
    return false;
}

int64_t usage_sort_key(const ResourceAmounts& usage) {
    int64_t key = 0;
    for (const auto& [name, milli] : usage) key += natural_units(name, milli);
    return key;
}

}  // namespace kd::plugins::sigs
