// RemovePodsViolatingInterPodAntiAffinity (kubernetes-sigs/descheduler
// pkg/framework/plugins/removepodsviolatinginterpodantiaffinity@v0.35.1): evicts the pods whose
// required anti-affinity is violated by another pod in the same topology domain, node by node,
// lowest priority first; once a pod is evicted it no longer counts against the others.
#pragma once

#include "common.hpp"

#include <optional>

namespace kd::plugins::sigs {

// No defaults and no rules of its own upstream: `namespaces` and `labelSelector` validate
// themselves where they are decoded.
struct RemovePodsViolatingInterPodAntiAffinityArgs {
    std::optional<Namespaces> namespaces;
    std::optional<LabelSelector> labelSelector;

    template <class V>
    void fields(V& v) {
        v("namespaces", namespaces);
        v("labelSelector", labelSelector);
    }
};

class RemovePodsViolatingInterPodAntiAffinity {
public:
    static constexpr const char* kName = "RemovePodsViolatingInterPodAntiAffinity";
    static constexpr const char* kVersion = "0.35.1";
    static constexpr const char* kDescription =
        "evicts pods whose required pod anti-affinity is violated by another pod in the same topology domain";
    using Args = RemovePodsViolatingInterPodAntiAffinityArgs;

    RemovePodsViolatingInterPodAntiAffinity(Host&, Args args) : args_(std::move(args)) {}
    void deschedule(Cycle& cycle);

private:
    Args args_;
};

}  // namespace kd::plugins::sigs
