#include "cluster/usage_smoothing.hpp"

#include <kdesched/quantity.hpp>

#include <cmath>

namespace kd::core {

namespace {

// Upstream's weight of the kept value (metricscollector.go: beta).
constexpr double kKeptWeight = 0.9;

int64_t weighted(int64_t kept, int64_t sample) {
    return static_cast<int64_t>(
        std::llround(kKeptWeight * static_cast<double>(kept) + (1 - kKeptWeight) * static_cast<double>(sample)));
}

}  // namespace

void UsageSmoothing::take_nodes(const std::vector<NodeUsage>& listed) {
    for (const auto& sample : listed) {
        auto it = current_.nodes.find(sample.name);
        if (it == current_.nodes.end()) {
            NodeUsage first{sample.name, sample.timestamp, sample.window, {}};
            // A missing resource is zero there (Usage.Cpu() of an absent entry).
            for (const char* name : {"cpu", "memory"})
                first.usage[name] = sample.usage.count(name) ? sample.usage.at(name) : 0;
            current_.nodes.emplace(sample.name, std::move(first));
            continue;
        }
        NodeUsage& kept = it->second;
        kept.timestamp = sample.timestamp;
        kept.window = sample.window;
        auto sampled = [&](const char* name) { return sample.usage.count(name) ? sample.usage.at(name) : 0; };
        // cpu in milli-cores (MilliValue), memory in whole bytes (Value, rounded up).
        kept.usage["cpu"] = weighted(kept.usage["cpu"], sampled("cpu"));
        kept.usage["memory"] =
            weighted(natural_units("memory", kept.usage["memory"]), natural_units("memory", sampled("memory"))) * 1000;
    }
}

void UsageSmoothing::take_pods(std::vector<PodUsage> listed) {
    current_.pods.clear();
    for (auto& p : listed) {
        auto key = std::make_pair(p.ns, p.name);
        current_.pods[key] = std::move(p);
    }
}

}  // namespace kd::core
