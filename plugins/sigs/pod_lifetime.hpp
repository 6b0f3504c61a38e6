// PodLifeTime (kubernetes-sigs/descheduler pkg/framework/plugins/podlifetime@v0.35.1): evicts the
// pods that meet every criterion given (older than maxPodLifeTimeSeconds, in one of `states`, with
// a matching condition, with a listed exit code), oldest first across all nodes.
#pragma once

#include "common.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kd::plugins::sigs {

// ownerKinds: include or exclude pods by the kinds of their ownerReferences.
struct OwnerKinds {
    std::vector<std::string> include, exclude;
    template <class V>
    void fields(V& v) {
        v("include", include);
        v("exclude", exclude);
    }
    void validate(Errors& errs, const std::string& path) const;
    bool allows(const Pod& pod) const;
};

// One entry of `conditions`: a pod matches when one of its conditions has every field given.
struct PodConditionFilter {
    std::string type, status, reason;
    // Matches only a condition whose lastTransitionTime is at least this long ago (plugin API 1.7).
    std::optional<uint64_t> minTimeSinceLastTransitionSeconds;
    template <class V>
    void fields(V& v) {
        v("type", type);
        v("status", status);
        v("reason", reason);
        v("minTimeSinceLastTransitionSeconds", minTimeSinceLastTransitionSeconds);
    }
    void validate(Errors& errs, const std::string& path) const;
    // Whether the pod's condition i matches, at the cycle's clock `now_ms`.
    bool matches(const Pod& pod, size_t i, int64_t now_ms) const;
};

struct PodLifeTimeArgs {
    std::optional<Namespaces> namespaces;
    std::optional<LabelSelector> labelSelector;
    std::optional<OwnerKinds> ownerKinds;
    std::optional<uint64_t> maxPodLifeTimeSeconds;
    std::vector<std::string> states;
    std::vector<PodConditionFilter> conditions;
    std::vector<int32_t> exitCodes;
    bool includingInitContainers = false;
    bool includingEphemeralContainers = false;

    template <class V>
    void fields(V& v) {
        v("namespaces", namespaces);
        v("labelSelector", labelSelector);
        v("ownerKinds", ownerKinds);
        v("maxPodLifeTimeSeconds", maxPodLifeTimeSeconds);
        v("states", states);
        v("conditions", conditions);
        v("exitCodes", exitCodes);
        v("includingInitContainers", includingInitContainers);
        v("includingEphemeralContainers", includingEphemeralContainers);
    }
    void validate(Errors& errs, const std::string& path) const;
};

// The values `states` may hold: pod phases, status.reason values and container waiting or
// terminated reasons (podlifetime/validation.go@v0.35.1).
const std::vector<std::string>& pod_lifetime_states();

class PodLifeTime {
public:
    static constexpr const char* kName = "PodLifeTime";
    static constexpr const char* kVersion = "0.35.1";
    static constexpr const char* kDescription =
        "evicts pods past maxPodLifeTimeSeconds, or in given states, conditions or exit codes, oldest first";
    using Args = PodLifeTimeArgs;

    PodLifeTime(Host&, Args args) : args_(std::move(args)) {}
    void deschedule(Cycle& cycle);

    // Whether the pod meets the args' criteria (everything but the evictor's filters).
    bool matches(const Pod& pod, int64_t now_ms) const;

private:
    bool in_states(const Pod& pod) const;
    Args args_;
};

}  // namespace kd::plugins::sigs
