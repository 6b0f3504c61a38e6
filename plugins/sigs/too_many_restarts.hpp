// RemovePodsHavingTooManyRestarts (kubernetes-sigs/descheduler
// pkg/framework/plugins/removepodshavingtoomanyrestarts@v0.35.1): evicts pods whose containers
// restarted at least podRestartThreshold times in all, node by node, most restarts first.
#pragma once

#include "common.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kd::plugins::sigs {

struct RemovePodsHavingTooManyRestartsArgs {
    std::optional<Namespaces> namespaces;
    std::optional<LabelSelector> labelSelector;
    // No default upstream: 0 (absent) is refused by validation.
    int32_t podRestartThreshold = 0;
    bool includingInitContainers = false;
    std::vector<std::string> states;

    template <class V>
    void fields(V& v) {
        v("namespaces", namespaces);
        v("labelSelector", labelSelector);
        v("podRestartThreshold", podRestartThreshold);
        v("includingInitContainers", includingInitContainers);
        v("states", states);
    }
    void validate(Errors& errs, const std::string& path) const;
};

class RemovePodsHavingTooManyRestarts {
public:
    static constexpr const char* kName = "RemovePodsHavingTooManyRestarts";
    static constexpr const char* kVersion = "0.35.1";
    static constexpr const char* kDescription =
        "evicts pods whose containers restarted podRestartThreshold times or more, most restarts first";
    using Args = RemovePodsHavingTooManyRestartsArgs;

    RemovePodsHavingTooManyRestarts(Host&, Args args) : args_(std::move(args)) {}
    void deschedule(Cycle& cycle);

    // Whether the pod meets the args' criteria (everything but the evictor's filters).
    bool matches(const Pod& pod) const;

private:
    Args args_;
};

}  // namespace kd::plugins::sigs
