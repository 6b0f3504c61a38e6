// RemovePodsViolatingNodeTaints (kubernetes-sigs/descheduler
// pkg/framework/plugins/removepodsviolatingnodetaints@v0.35.1): evicts the pods that do not
// tolerate a NoSchedule taint of their node (PreferNoSchedule too when asked), node by node.
#pragma once

#include "common.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kd::plugins::sigs {

struct RemovePodsViolatingNodeTaintsArgs {
    std::optional<Namespaces> namespaces;
    std::optional<LabelSelector> labelSelector;
    bool includePreferNoSchedule = false;
    // Taints named by key or "key=value".
    std::vector<std::string> excludedTaints;
    // Absent: every taint. Given, even empty: only those named, as upstream tests the list for nil.
    std::optional<std::vector<std::string>> includedTaints;

    template <class V>
    void fields(V& v) {
        v("namespaces", namespaces);
        v("labelSelector", labelSelector);
        v("includePreferNoSchedule", includePreferNoSchedule);
        v("excludedTaints", excludedTaints);
        v("includedTaints", includedTaints);
    }
    void validate(Errors& errs, const std::string& path) const;
};

class RemovePodsViolatingNodeTaints {
public:
    static constexpr const char* kName = "RemovePodsViolatingNodeTaints";
    static constexpr const char* kVersion = "0.35.1";
    static constexpr const char* kDescription =
        "evicts pods that do not tolerate a NoSchedule (optionally PreferNoSchedule) taint of their node";
    using Args = RemovePodsViolatingNodeTaintsArgs;

    RemovePodsViolatingNodeTaints(Host&, Args args) : args_(std::move(args)) {}
    void deschedule(Cycle& cycle);

    // Whether the taint is one the pod must tolerate: its effect, then excludedTaints and includedTaints.
    bool considers(const Taint& taint) const;
    // Whether the pod meets the args' criteria on `node` (everything but the evictor's filters).
    bool matches(const Pod& pod, const Node& node) const;

private:
    Args args_;
};

}  // namespace kd::plugins::sigs
