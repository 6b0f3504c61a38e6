// RemoveFailedPods (kubernetes-sigs/descheduler pkg/framework/plugins/removefailedpods@v0.35.1):
// evicts pods in phase Failed that are old enough and match the reasons and exit codes given,
// node by node.
#pragma once

#include "common.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kd::plugins::sigs {

struct RemoveFailedPodsArgs {
    std::optional<Namespaces> namespaces;
    std::optional<LabelSelector> labelSelector;
    std::vector<std::string> excludeOwnerKinds;
    // Upstream's default (removefailedpods/defaults.go@v0.35.1): an hour.
    std::optional<uint64_t> minPodLifetimeSeconds = 3600;
    std::vector<std::string> reasons;
    std::vector<int32_t> exitCodes;
    bool includingInitContainers = false;

    template <class V>
    void fields(V& v) {
        v("namespaces", namespaces);
        v("labelSelector", labelSelector);
        v("excludeOwnerKinds", excludeOwnerKinds);
        v("minPodLifetimeSeconds", minPodLifetimeSeconds);
        v("reasons", reasons);
        v("exitCodes", exitCodes);
        v("includingInitContainers", includingInitContainers);
    }
};

class RemoveFailedPods {
public:
    static constexpr const char* kName = "RemoveFailedPods";
    static constexpr const char* kVersion = "0.35.1";
    static constexpr const char* kDescription = "evicts failed pods matching reasons and exit codes, node by node";
    using Args = RemoveFailedPodsArgs;

    RemoveFailedPods(Host&, Args args) : args_(std::move(args)) {}
    void deschedule(Cycle& cycle);

    // Whether the pod meets the args' criteria (everything but the evictor's filters).
    bool matches(const Pod& pod, int64_t now_ms) const;

private:
    Args args_;
};

}  // namespace kd::plugins::sigs
