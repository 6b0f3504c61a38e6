// RemovePodsViolatingNodeAffinity (kubernetes-sigs/descheduler
// pkg/framework/plugins/removepodsviolatingnodeaffinity@v0.35.1): for each nodeAffinityType in
// turn, node by node, evicts the pods whose required node affinity their node no longer matches
// (requiredDuringSchedulingIgnoredDuringExecution), or for which some node weighs more than
// theirs by their preferred node affinity (preferredDuringSchedulingIgnoredDuringExecution), when
// they fit some node.
#pragma once

#include "common.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kd::plugins::sigs {

inline constexpr const char* kRequiredAffinity = "requiredDuringSchedulingIgnoredDuringExecution";
inline constexpr const char* kPreferredAffinity = "preferredDuringSchedulingIgnoredDuringExecution";

struct RemovePodsViolatingNodeAffinityArgs {
    std::optional<Namespaces> namespaces;
    std::optional<LabelSelector> labelSelector;
    // No default upstream: an empty list is refused.
    std::vector<std::string> nodeAffinityType;

    template <class V>
    void fields(V& v) {
        v("namespaces", namespaces);
        v("labelSelector", labelSelector);
        v("nodeAffinityType", nodeAffinityType);
    }
    void validate(Errors& errs, const std::string& path) const;
};

class UpstreamNodeFit;

class RemovePodsViolatingNodeAffinity {
public:
    static constexpr const char* kName = "RemovePodsViolatingNodeAffinity";
    static constexpr const char* kVersion = "0.35.1";
    static constexpr const char* kDescription =
        "evicts pods whose node no longer matches their required node affinity, or weighs less by their preferred "
        "node affinity than another node, when they fit some node";
    using Args = RemovePodsViolatingNodeAffinityArgs;

    RemovePodsViolatingNodeAffinity(Host&, Args args) : args_(std::move(args)) {}
    void deschedule(Cycle& cycle);

private:
    // Whether the pod, on `node`, violates its required node affinity (or nodeSelector) and fits
    // one of the nodes.
    bool violates_required(const Pod& pod, const Node& node, UpstreamNodeFit& fit, const Snapshot& snap) const;
    // Whether some node weighs more than `node` by the pod's preferred node affinity, and the pod
    // fits one of the nodes (its own included).
    bool violates_preferred(const Pod& pod, const Node& node, UpstreamNodeFit& fit, const Snapshot& snap) const;
    // One pass of upstream's processNodes: node by node, the pods `violates` selects. False when
    // the total limit ended it.
    template <class Violates>
    bool evict_where(Cycle& cycle, std::string_view reason, std::vector<std::string>& evicted, Violates&& violates);

    Args args_;
};

}  // namespace kd::plugins::sigs
