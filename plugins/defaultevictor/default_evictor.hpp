// DefaultEvictor: the evictability rules of upstream descheduler's `DefaultEvictor` as a filter
// plugin, plus an evict plugin that evicts through the Eviction API. The KDESCHED_PLUGIN export
// lives in module.cpp so that tests can link this class without a second `kdesched_module` symbol.
#pragma once

#include "args.hpp"
#include "cluster_objects.hpp"

#include <kdesched/node_fit.hpp>
#include <kdesched/plugin.hpp>
#include <kdesched/pod_affinity.hpp>
#include <kdesched/selector_string.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

namespace kd::plugins::defaultevictor {

// Reason codes of rejected pods. Stable: `kdesched simulate --explain` and users' tooling show them.
namespace reason {
inline constexpr const char* kMirrorPod = "MirrorPod";
inline constexpr const char* kStaticPod = "StaticPod";
inline constexpr const char* kTerminating = "Terminating";
inline constexpr const char* kSystemCritical = "SystemCritical";
inline constexpr const char* kPriorityThreshold = "PriorityThreshold";
inline constexpr const char* kBarePod = "BarePod";
inline constexpr const char* kBarePodNotFailed = "BarePodNotFailed";
inline constexpr const char* kLocalStorage = "LocalStorage";
inline constexpr const char* kDaemonSetPod = "DaemonSetPod";
inline constexpr const char* kPVC = "PVC";
inline constexpr const char* kUnknownStorageClass = "UnknownStorageClass";
inline constexpr const char* kLabelSelector = "LabelSelector";
inline constexpr const char* kMinReplicas = "MinReplicas";
inline constexpr const char* kMinPodAge = "MinPodAge";
inline constexpr const char* kNodeFit = "NodeFit";
inline constexpr const char* kWithoutPDB = "WithoutPDB";
inline constexpr const char* kResourceClaims = "ResourceClaims";
inline constexpr const char* kNamespaceLabelSelector = "NamespaceLabelSelector";
}  // namespace reason

// Annotations read by the filter.
inline constexpr std::string_view kEvictAnnotation = "descheduler.alpha.kubernetes.io/evict";
inline constexpr std::string_view kMirrorAnnotation = "kubernetes.io/config.mirror";
inline constexpr std::string_view kSourceAnnotation = "kubernetes.io/config.source";

class DefaultEvictor {
public:
    static constexpr const char* kName = "DefaultEvictor";
    static constexpr const char* kVersion = "1.0.0";
    static constexpr const char* kDescription =
        "Upstream descheduler evictability rules (filter) and eviction through the Eviction API (evict)";
    using Args = DefaultEvictorArgs;

    DefaultEvictor(kd::Host& host, Args args);

    // Upstream `DefaultEvictor.Filter`: evict annotation passes; mirror, static, terminating, then
    // the protections, labelSelector, minReplicas and minPodAge reject with a reason code.
    kd::Verdict filter(kd::Cycle& cycle, const kd::Pod& pod);
    // Upstream `DefaultEvictor.PreEvictionFilter`: with nodeFit the pod must fit another ready node
    // (selected by nodeSelector); with namespaceLabelSelector its Namespace must match.
    kd::Verdict pre_eviction_filter(kd::Cycle& cycle, const kd::Pod& pod);
    // Evicts through the host (policy/v1 Eviction); failed with the API's message when refused.
    kd::EvictOutcome evict(kd::Cycle& cycle, const kd::Pod& pod, const kd::EvictRequest& request);

    // The reason code the filter would give, or nullptr when the pod passes.
    const char* rejection(const kd::Cycle& cycle, const kd::Pod& pod);

private:
    // Identifies the cluster state a cache was built from: same cycle, same number of pods and nodes.
    struct SnapshotKey {
        uint64_t cycle = 0;
        size_t pods = 0;
        size_t nodes = 0;
        bool operator==(const SnapshotKey&) const = default;
    };
    static SnapshotKey key_of(const kd::Cycle& cycle);

    bool enough_replicas(const kd::Cycle& cycle, const kd::Pod& pod);
    const ClusterObjects& objects(const kd::Cycle& cycle);
    // The priority threshold in force: priorityThreshold.value, or the value of the PriorityClass
    // priorityThreshold.name names (throws when the host lists no such class, or it is too high).
    std::optional<int32_t> priority_threshold(const kd::Cycle& cycle);
    // PodsWithPVC limited to protectedStorageClasses: the reason a claim of the pod protects it.
    const char* storage_class_rejection(const kd::Cycle& cycle, const kd::Pod& pod);
    kd::NodeRequestTotals& fit_totals(const kd::Cycle& cycle);

    Args args_;
    Protections protections_;
    std::optional<int32_t> priority_threshold_;  // priorityThreshold.value
    // podProtections.config.PodsWithPVC.protectedStorageClasses; empty: every claim protects.
    std::set<std::string, std::less<>> protected_classes_;
    std::optional<uint64_t> missing_class_logged_;  // the snapshot revision an unknown class was logged for
    std::optional<StringLabelSelector> node_selector_;
    int64_t min_pod_age_ms_ceil_ = 0;  // minPodAge rounded up to whole ms (pod ages are whole ms)

    // Pods per owner UID for minReplicas, rebuilt when the snapshot changes.
    std::optional<SnapshotKey> owners_key_;
    struct UidHash {
        using is_transparent = void;  // find() by string_view, no temporary std::string
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, uint64_t, UidHash, std::equal_to<>> pods_per_owner_;
    // Node request totals for nodeFit, kept for the hook calls of one snapshot.
    std::optional<SnapshotKey> totals_key_;
    std::optional<kd::NodeRequestTotals> totals_;
    // Namespaces (namespaceLabelSelector) and PodDisruptionBudgets (PodsWithoutPDB), when asked for.
    ClusterObjects objects_;
    bool namespace_selector_in_use() const {
        return args_.namespaceLabelSelector && !args_.namespaceLabelSelector->matchLabels.empty();
    }
};

}  // namespace kd::plugins::defaultevictor
