#include "pod_lifetime.hpp"

#include <algorithm>

namespace kd::plugins::sigs {

const std::vector<std::string>& pod_lifetime_states() {
    static const std::vector<std::string> states = {
        // phases
        "Running", "Pending", "Succeeded", "Failed", "Unknown",
        // status.reason
        "NodeAffinity", "NodeLost", "Shutdown", "UnexpectedAdmissionError",
        // container waiting and terminated reasons
        "PodInitializing", "ContainerCreating", "ImagePullBackOff", "CrashLoopBackOff", "CreateContainerConfigError",
        "ErrImagePull", "CreateContainerError", "InvalidImageName", "OOMKilled", "Error", "Completed",
        "DeadlineExceeded", "Evicted", "ContainerCannotRun", "StartError"};
    return states;
}

void OwnerKinds::validate(Errors& errs, const std::string& path) const {
    if (!include.empty() && !exclude.empty()) errs.add(path, "only one of Include/Exclude ownerKinds can be set");
}

bool OwnerKinds::allows(const Pod& pod) const {
    // Include wins when both are given, as upstream checks it first (args that skip validation).
    if (!include.empty()) {
        for (auto o : pod.owners())
            if (listed(include, o.kind())) return true;
        return false;
    }
    for (auto o : pod.owners())
        if (listed(exclude, o.kind())) return false;
    return true;
}

void PodConditionFilter::validate(Errors& errs, const std::string& path) const {
    if (type.empty() && status.empty() && reason.empty() && !minTimeSinceLastTransitionSeconds)
        errs.add(path, "at least one of type, status, reason, or minTimeSinceLastTransitionSeconds must be set");
}

bool PodConditionFilter::matches(const Pod& pod, size_t i, int64_t now_ms) const {
    const PodCondition c = pod.conditions()[i];
    if (!(type.empty() || c.type() == type) || !(status.empty() || c.status() == status) ||
        !(reason.empty() || c.reason() == reason))
        return false;
    if (!minTimeSinceLastTransitionSeconds) return true;
    // A condition that never transitioned (no lastTransitionTime), or did so in the future, is not
    // idle; whole seconds count (podlifetime/pod_lifetime.go@v0.35.1, matchesAnyPodConditionFilter).
    auto since = pod.condition_transition_ms(i);
    if (!since || now_ms < *since) return false;
    return uint64_t(now_ms - *since) / 1000 >= *minTimeSinceLastTransitionSeconds;
}

void PodLifeTimeArgs::validate(Errors& errs, const std::string& path) const {
    const auto& allowed = pod_lifetime_states();
    if (std::any_of(states.begin(), states.end(), [&](const std::string& s) { return !listed(allowed, s); }))
        errs.add(field_path(path, "states"), "states must be one of " + go_list(allowed));
    if (!maxPodLifeTimeSeconds && states.empty() && conditions.empty() && exitCodes.empty())
        errs.add(path,
                 "at least one filtering criterion must be specified (maxPodLifeTimeSeconds, states, conditions, or "
                 "exitCodes)");
}

bool PodLifeTime::in_states(const Pod& pod) const {
    if (listed(args_.states, phase_name(pod.phase()))) return true;
    if (listed(args_.states, pod.status_reason())) return true;
    ContainerLists lists{args_.includingInitContainers, args_.includingEphemeralContainers};
    return any_container(pod, lists, [&](const ContainerStatus& c) {
        return (c.waiting() || c.terminated()) && listed(args_.states, c.reason());
    });
}

bool PodLifeTime::matches(const Pod& pod, int64_t now_ms) const {
    if (!in_scope(args_.namespaces, args_.labelSelector, pod)) return false;
    if (args_.maxPodLifeTimeSeconds) {
        auto age = age_seconds(pod, now_ms);
        if (!age || *age <= *args_.maxPodLifeTimeSeconds) return false;
    }
    if (!args_.states.empty() && !in_states(pod)) return false;
    if (args_.ownerKinds && !args_.ownerKinds->allows(pod)) return false;
    if (!args_.conditions.empty()) {
        bool any = false;
        for (const auto& f : args_.conditions)
            for (size_t i = 0; i < pod.conditions().size() && !any; ++i) any = f.matches(pod, i, now_ms);
        if (!any) return false;
    }
    if (!args_.exitCodes.empty()) {
        // Exit codes are read from app and init containers only, never ephemeral ones (upstream).
        ContainerLists lists{args_.includingInitContainers, false};
        if (!any_container(pod, lists, [&](const ContainerStatus& c) {
                return c.terminated() && listed(args_.exitCodes, c.exit_code());
            }))
            return false;
    }
    return true;
}

void PodLifeTime::deschedule(Cycle& cycle) {
    auto snap = cycle.snapshot();
    int64_t now = cycle.now_ms();
    // Upstream lists every node's matching pods first, then evicts them all, oldest first; a node's
    // limit passes over that node's pods and goes on with the others.
    std::vector<Pod> candidates;
    for (auto node : snap.nodes()) {
        auto on_node = snap.pods_on_node(node.name());
        prefetch_specs(on_node);
        // ownerKinds reads each pod's owner list, one more hop past its spec.
        if (args_.ownerKinds)
            for (auto p : on_node) __builtin_prefetch(p.raw()->spec->owners);
        for (auto pod : on_node)
            if (matches(pod, now) && evictor_admits(cycle, pod)) candidates.push_back(pod);
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Pod& a, const Pod& b) { return a.creation_ms() < b.creation_ms(); });
    evict_in_order(cycle, candidates, loop_of("pod matches PodLifeTime's criteria", false));
}

}  // namespace kd::plugins::sigs
