// PodAgeLimit: a deschedule plugin that evicts pods older than a maximum age, oldest first,
// optionally only in some namespaces. An example of a third-party kdesched plugin.
#pragma once

#include <kdesched/plugin.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace example {

struct PodAgeLimitArgs {
    kd::Duration maxPodAge{std::chrono::hours(24)};
    std::vector<std::string> namespaces;  // empty = every namespace
    int64_t maxPerCycle = 10;

    template <class V>
    void fields(V& v) {
        v("maxPodAge", maxPodAge);
        v("namespaces", namespaces);
        v("maxPerCycle", maxPerCycle);
    }
    void validate(kd::Errors& errs, const std::string& path) const {
        if (maxPodAge.value.count() <= 0) errs.add(kd::field_path(path, "maxPodAge"), "must be > 0");
        if (maxPerCycle < 1) errs.add(kd::field_path(path, "maxPerCycle"), "must be >= 1");
    }
};

class PodAgeLimit {
public:
    static constexpr const char* kName = "PodAgeLimit";
    static constexpr const char* kVersion = "1.0.0";
    static constexpr const char* kDescription = "evicts pods older than maxPodAge, oldest first";
    using Args = PodAgeLimitArgs;

    PodAgeLimit(kd::Host&, Args args) : args_(std::move(args)) {}

    void deschedule(kd::Cycle& cycle) {
        auto snap = cycle.snapshot();
        std::vector<kd::Pod> old;
        for (auto node : snap.nodes())
            for (auto pod : snap.pods_on_node(node.name()))
                if (in_scope(pod) && cycle.now_ms() - pod.creation_ms() > args_.maxPodAge.ms()) old.push_back(pod);
        std::stable_sort(old.begin(), old.end(),
                         [](const kd::Pod& a, const kd::Pod& b) { return a.creation_ms() < b.creation_ms(); });
        int64_t evicted = 0;
        for (const auto& pod : old) {
            if (evicted >= args_.maxPerCycle) break;
            if (!cycle.filter(pod).allowed) continue;
            auto outcome = cycle.evict(pod, "pod is older than " + kd::format_duration(args_.maxPodAge));
            if (outcome.evicted()) ++evicted;
            if (outcome.code == KD_EVICT_LIMIT_TOTAL) break;  // nothing more can go this cycle
        }
    }

private:
    bool in_scope(const kd::Pod& pod) const {
        return args_.namespaces.empty() ||
               std::find(args_.namespaces.begin(), args_.namespaces.end(), pod.ns()) != args_.namespaces.end();
    }
    Args args_;
};

}  // namespace example
