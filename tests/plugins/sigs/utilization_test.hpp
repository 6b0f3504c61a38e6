// Shared setup of the LowNodeUtilization and HighNodeUtilization tests: upstream's test builders
// (test/test_utils.go@v0.35.1 BuildTestNode, BuildTestPod and their Set* helpers) on
// SnapshotBuilder, and a run of a balance plugin on the profile upstream's tests use.
#pragma once

#include "high_node_utilization.hpp"
#include "low_node_utilization.hpp"
#include "sigs_test.hpp"

#include <string>

namespace utilization_test {

using kd::testing::SnapshotBuilder;
using sigs_test::Pods;
using sigs_test::Profile;

// nodeutilization_test.go's constants.
inline constexpr int32_t kLowPriority = 0;
inline constexpr int32_t kHighPriority = 10000;
inline constexpr int32_t kSystemCriticalPriority = 2'000'000'000;
inline const std::string kExtended = "example.com/foo";

// BuildTestNode: allocatable cpu (milli-cores), memory (bytes) and pods.
inline SnapshotBuilder::NodeSpec& nu_node(SnapshotBuilder& b, const std::string& name, int64_t milli_cpu,
                                          int64_t memory, int64_t pods) {
    return b.node(name)
        .allocatable("cpu", std::to_string(milli_cpu) + "m")
        .allocatable("memory", std::to_string(memory))
        .allocatable("pods", std::to_string(pods));
}

// BuildTestPod: one container requesting cpu (milli-cores) and memory (bytes), each when >= 0.
// The QoS class is Kubernetes': requests of 0 do not count, so a pod of 0 and 0 is BestEffort.
inline SnapshotBuilder::PodSpec& nu_pod(SnapshotBuilder& b, const std::string& name, int64_t milli_cpu, int64_t memory,
                                        const std::string& node, const std::string& ns = "default") {
    auto& p = b.pod(ns, name).on(node);
    if (milli_cpu >= 0) p.request("cpu", std::to_string(milli_cpu) + "m");
    if (memory >= 0) p.request("memory", std::to_string(memory));
    return p.with_qos(milli_cpu > 0 || memory > 0 ? KD_QOS_BURSTABLE : KD_QOS_BEST_EFFORT);
}

// SetRSOwnerRef, SetDSOwnerRef, SetNormalOwnerRef.
inline SnapshotBuilder::PodSpec& nu_rs(SnapshotBuilder::PodSpec& p) {
    return p.owner("ReplicaSet", "replicaset-1", false);
}
inline SnapshotBuilder::PodSpec& nu_ds(SnapshotBuilder::PodSpec& p) {
    return p.owner("DaemonSet", "", false);
}
inline SnapshotBuilder::PodSpec& nu_normal(SnapshotBuilder::PodSpec& p) {
    return p.owner("Pod", "", false);
}

// MakeBestEffortPod: no requests at all.
inline SnapshotBuilder::PodSpec& nu_best_effort(SnapshotBuilder::PodSpec& p) {
    p.requests.clear();
    return p.with_qos(KD_QOS_BEST_EFFORT);
}

// Upstream's "won't be evicted" pods: a mirror pod with local storage (withLocalStorage) …
inline SnapshotBuilder::PodSpec& nu_mirror_with_local_storage(SnapshotBuilder::PodSpec& p) {
    return nu_normal(p)
        .set_flag(KD_POD_LOCAL_STORAGE)
        .annotation("kubernetes.io/config.source", "api")
        .annotation("kubernetes.io/config.mirror", "mirror");
}
// … and a system-critical pod in kube-system (withCriticalPod, without its owner in some cases).
inline SnapshotBuilder::PodSpec& nu_critical(SnapshotBuilder& b, const std::string& name, int64_t milli_cpu,
                                             int64_t memory, const std::string& node, bool with_owner = true) {
    auto& p = nu_pod(b, name, milli_cpu, memory, node, "kube-system").with_priority(kSystemCriticalPriority);
    return with_owner ? nu_normal(p) : p;
}

// Runs plugin P's balance once on a profile whose DefaultEvictor has `evictor_args` (upstream's
// tests: DefaultEvictorArgs{NodeFit: true}); the pods evicted, in request order.
template <class P>
Pods nu_balance(SnapshotBuilder& b, const std::string& args, Profile& profile) {
    auto plugin = profile.host.instantiate<P>(args);
    plugin.balance(b.build());
    return profile.host.evicted();
}
template <class P>
Pods nu_balance(SnapshotBuilder& b, const std::string& args, const std::string& evictor_args = R"({"nodeFit": true})") {
    Profile profile(evictor_args);
    return nu_balance<P>(b, args, profile);
}

// True when some log line of the host contains `text`.
inline bool nu_logged(const Profile& profile, const std::string& text) {
    for (const auto& line : profile.host.logs())
        if (line.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace utilization_test
