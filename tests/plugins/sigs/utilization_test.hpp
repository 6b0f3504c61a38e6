// Shared setup of the LowNodeUtilization and HighNodeUtilization tests: upstream's test builders
// (test/test_utils.go@v0.35.1 BuildTestNode, BuildTestPod and their Set* helpers) on
// SnapshotBuilder, and a run of a balance plugin on the profile upstream's tests use.
#pragma once

#include "high_node_utilization.hpp"
#include "low_node_utilization.hpp"
#include "sigs_test.hpp"

#include <string>
#include <vector>

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

// LowNodeUtilization's fixtures shared by its requests-based and metrics-based cases.

inline const std::string kLnuCpuPods30To50 =
    R"("thresholds": {"cpu": 30, "pods": 30}, "targetThresholds": {"cpu": 50, "pods": 50})";

inline std::string lnu_args(const std::string& more = "") {
    return "{" + kLnuCpuPods30To50 + (more.empty() ? "" : ", " + more) + "}";
}

// n1 (9 pods), n2, and n3 unschedulable: 4 cores and 3000 bytes each.
inline void lnu_three_nodes(SnapshotBuilder& b) {
    nu_node(b, "n1", 4000, 3000, 9);
    nu_node(b, "n2", 4000, 3000, 10);
    nu_node(b, "n3", 4000, 3000, 10).cordon();
}

// The pods on n1 that no evictor lets go: p6 a DaemonSet's, p7 a mirror pod with local storage,
// p8 system-critical.
inline void lnu_kept_pods(SnapshotBuilder& b, bool critical_has_owner = true) {
    nu_ds(nu_pod(b, "p6", 400, 0, "n1"));
    nu_mirror_with_local_storage(nu_pod(b, "p7", 400, 0, "n1"));
    nu_critical(b, "p8", 400, 0, "n1", critical_has_owner);
}

// "without priorities": p1..p5 of a ReplicaSet and the kept pods on n1 (8 of 9 pods, 80 % cpu),
// p9 on n2 (10 %).
inline void lnu_without_priorities(SnapshotBuilder& b) {
    lnu_three_nodes(b);
    for (int i = 1; i <= 5; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n1"));
    lnu_kept_pods(b);
    nu_rs(nu_pod(b, "p9", 400, 0, "n2"));
}

inline const Pods kLnuFirstFour = {"default/p1", "default/p2", "default/p3", "default/p4"};

// The clusters of upstream's cases that run both by requests and by metrics (the metrics runs
// add NodeMetrics and PodMetrics to them).

// "no evictable pods": n1 holds DaemonSet, mirror and critical pods only.
inline void lnu_no_evictable(SnapshotBuilder& b) {
    lnu_three_nodes(b);
    for (int i = 1; i <= 4; ++i) nu_ds(nu_pod(b, "p" + std::to_string(i), 400, 0, "n1"));
    nu_mirror_with_local_storage(nu_pod(b, "p5", 400, 0, "n1"));
    nu_critical(b, "p6", 400, 0, "n1", false);
    nu_rs(nu_pod(b, "p9", 400, 0, "n2"));
}

// "but excluding namespaces": p1..p5 in namespace1.
inline void lnu_namespace1_pods(SnapshotBuilder& b) {
    lnu_three_nodes(b);
    for (int i = 1; i <= 5; ++i) nu_normal(nu_pod(b, "p" + std::to_string(i), 400, 0, "n1", "namespace1"));
    lnu_kept_pods(b, false);
    nu_rs(nu_pod(b, "p9", 400, 0, "n2"));
}

// "but include only default namespace": p1, p2 in default; p3..p5 unowned, each in a namespace of
// its own.
inline void lnu_default_and_others(SnapshotBuilder& b) {
    lnu_three_nodes(b);
    nu_rs(nu_pod(b, "p1", 400, 0, "n1"));
    nu_rs(nu_pod(b, "p2", 400, 0, "n1"));
    for (int i = 3; i <= 5; ++i) nu_pod(b, "p" + std::to_string(i), 400, 0, "n1", "namespace" + std::to_string(i));
    lnu_kept_pods(b);
    nu_rs(nu_pod(b, "p9", 400, 0, "n2"));
}

// "with priorities": p1..p4 high, p5 low.
inline void lnu_with_priorities(SnapshotBuilder& b) {
    lnu_three_nodes(b);
    for (int i = 1; i <= 4; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n1")).with_priority(kHighPriority);
    nu_rs(nu_pod(b, "p5", 400, 0, "n1")).with_priority(kLowPriority);
    nu_ds(nu_pod(b, "p6", 400, 0, "n1")).with_priority(kHighPriority);
    nu_mirror_with_local_storage(nu_pod(b, "p7", 400, 0, "n1")).with_priority(kLowPriority);
    nu_critical(b, "p8", 400, 0, "n1");
    nu_rs(nu_pod(b, "p9", 400, 0, "n2"));
}

// "evicting best-effort pods only": p1, p2, p4, p5 BestEffort, p3 not.
inline void lnu_best_effort_pods(SnapshotBuilder& b) {
    lnu_three_nodes(b);
    nu_best_effort(nu_rs(nu_pod(b, "p1", 400, 0, "n1")));
    nu_best_effort(nu_rs(nu_pod(b, "p2", 400, 0, "n1")));
    nu_rs(nu_pod(b, "p3", 400, 0, "n1"));
    nu_best_effort(nu_rs(nu_pod(b, "p4", 400, 0, "n1")));
    nu_best_effort(nu_rs(nu_pod(b, "p5", 400, 0, "n1")));
    lnu_kept_pods(b);
    nu_rs(nu_pod(b, "p9", 400, 0, "n2"));
}

// "only other node is unschedulable": p1..p5 and the kept pods on n1, n2 cordoned.
inline void lnu_other_node_unschedulable(SnapshotBuilder& b) {
    nu_node(b, "n1", 4000, 3000, 9);
    nu_node(b, "n2", 4000, 3000, 10).cordon();
    for (int i = 1; i <= 5; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n1"));
    lnu_kept_pods(b);
}

// "only other node doesn't match pod node selector (affinity) for p4 and p5": n2 is in datacenter
// east, p4 and p5 want west by a nodeSelector or (`affinity`) a required node affinity.
inline void lnu_p4_p5_want_west(SnapshotBuilder& b, bool affinity) {
    nu_node(b, "n1", 4000, 3000, 9);
    nu_node(b, "n2", 4000, 3000, 10).label("datacenter", "east");
    for (int i = 1; i <= 3; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n1"));
    for (int i = 4; i <= 5; ++i) {
        auto& p = nu_normal(nu_pod(b, "p" + std::to_string(i), 400, 0, "n1"));
        if (affinity) {
            p.require_node("datacenter", "In", {"west"});
        } else {
            p.select_node("datacenter", "west");
        }
    }
    lnu_kept_pods(b);
    if (affinity) nu_rs(nu_pod(b, "p9", 0, 0, "n2"));
}

// "deviation thresholds and overevicting memory": n1 holds 8 pods of 375 bytes, n2's memory is
// taken by p9 (3000 bytes).
inline void lnu_memory_overevicting(SnapshotBuilder& b) {
    nu_node(b, "n1", 4000, 3000, 10);
    nu_node(b, "n2", 4000, 3000, 10);
    nu_node(b, "n3", 4000, 3000, 10).cordon();
    for (int i = 1; i <= 5; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 375, "n1"));
    nu_ds(nu_pod(b, "p6", 400, 375, "n1"));
    nu_mirror_with_local_storage(nu_pod(b, "p7", 400, 375, "n1"));
    nu_critical(b, "p8", 400, 375, "n1");
    nu_rs(nu_pod(b, "p9", 400, 3000, "n2"));
}

// "different evictions for requested and actual resources": as lnu_p4_p5_want_west with affinity,
// p9 on n2 requesting nothing.
inline void lnu_requested_and_actual(SnapshotBuilder& b) {
    lnu_p4_p5_want_west(b, true);
}

// "with node eviction limit": p1..p5, the kept pods (the critical one unowned) on n1, p9 on n2.
inline void lnu_node_eviction_limit(SnapshotBuilder& b) {
    lnu_three_nodes(b);
    for (int i = 1; i <= 5; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n1"));
    lnu_kept_pods(b, false);
    nu_rs(nu_pod(b, "p9", 400, 0, "n2"));
}

// Upstream's BuildNodeMetrics and BuildPodMetrics (test/test_utils.go@v0.35.1): a name, cpu in
// milli-cores and memory in bytes; pods are in namespace default with one container.
struct Usage {
    std::string name;
    int64_t milli_cpu, memory;
};

// The NodeMetrics and PodMetrics the host answers list_objects with (plugin API 1.8).
inline void nu_metrics(SnapshotBuilder& b, const std::vector<Usage>& nodes, const std::vector<Usage>& pods) {
    auto usage = [](const Usage& u) {
        return R"("usage": {"cpu": ")" + std::to_string(u.milli_cpu) + R"(m", "memory": ")" + std::to_string(u.memory) +
               R"("})";
    };
    std::string n = "[", p = "[";
    for (const auto& u : nodes)
        n += (n.size() > 1 ? "," : "") + std::string(R"({"kind": "NodeMetrics", "metadata": {"name": ")") + u.name +
             R"("}, "window": "20.01s", )" + usage(u) + "}";
    for (const auto& u : pods)
        p += (p.size() > 1 ? "," : "") +
             std::string(R"({"kind": "PodMetrics", "metadata": {"namespace": "default", "name": ")") + u.name +
             R"("}, "window": "20.01s", "containers": [{"name": "container-1", )" + usage(u) + "}]}";
    b.objects("NodeMetrics.metrics.k8s.io", n + "]");
    b.objects("PodMetrics.metrics.k8s.io", p + "]");
}

// Upstream's "with metrics enabled" run: metricsUtilization {source: KubernetesMetrics} added to
// `args` (a JSON object) on a host that collects metrics.k8s.io.
template <class P>
Pods nu_balance_by_metrics(SnapshotBuilder& b, const std::string& args, Profile& profile) {
    profile.host.metrics_sources = KD_METRICS_KUBERNETES;
    std::string with = args.substr(0, args.rfind('}')) + R"(, "metricsUtilization": {"source": "KubernetesMetrics"}})";
    return nu_balance<P>(b, with, profile);
}
template <class P>
Pods nu_balance_by_metrics(SnapshotBuilder& b, const std::string& args) {
    Profile profile(R"({"nodeFit": true})");
    return nu_balance_by_metrics<P>(b, args, profile);
}

}  // namespace utilization_test
