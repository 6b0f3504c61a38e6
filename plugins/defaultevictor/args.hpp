// DefaultEvictorArgs: the args of upstream DefaultEvictor (sigs.k8s.io/descheduler v0.35), decoded
// strictly. Every default is the member initialiser (upstream defaults everything to false/empty).
#pragma once

#include <kdesched/decode.hpp>
#include <kdesched/label_selector.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kd::plugins::defaultevictor {

// Pods with spec.priority ≥ this are system-critical (Kubernetes SystemCriticalPriority).
inline constexpr int32_t kSystemCriticalPriority = 2'000'000'000;

// priorityThreshold: pods whose priority is not below the threshold are protected.
struct PriorityThreshold {
    std::optional<int32_t> value;
    std::string name;  // a PriorityClass, whose value the host's PriorityClasses give (plugin API 1.8)
    template <class V>
    void fields(V& v) {
        v("value", value);
        v("name", name);
    }
};

// podProtections.config.PodsWithPVC.protectedStorageClasses[]: a storage class by name.
struct ProtectedStorageClass {
    std::string name;
    template <class V>
    void fields(V& v) {
        v("name", name);
    }
};

// podProtections.config.PodsWithPVC: with classes listed, PodsWithPVC protects only the pods
// with a claim of one of them (or a claim whose class is unknown).
struct PodsWithPVCConfig {
    std::vector<ProtectedStorageClass> protectedStorageClasses;
    template <class V>
    void fields(V& v) {
        v("protectedStorageClasses", protectedStorageClasses);
    }
};

// podProtections.config: one member per protection that takes configuration (upstream names them
// after the protection).
struct PodProtectionsConfig {
    std::optional<PodsWithPVCConfig> PodsWithPVC;
    template <class V>
    void fields(V& v) {
        v("PodsWithPVC", PodsWithPVC);
    }
};

// podProtections (v0.34+): the successor of the evict*/ignore* flags.
struct PodProtections {
    std::vector<std::string>
        defaultDisabled;  // of PodsWithLocalStorage, DaemonSetPods, SystemCriticalPods, FailedBarePods
    std::vector<std::string> extraEnabled;  // of PodsWithPVC, PodsWithoutPDB, PodsWithResourceClaims
    std::optional<PodProtectionsConfig> config;
    template <class V>
    void fields(V& v) {
        v("defaultDisabled", defaultDisabled);
        v("extraEnabled", extraEnabled);
        v("config", config);
    }
    // True when either list is given: then the deprecated flags are not used (upstream rule).
    bool in_use() const { return !defaultDisabled.empty() || !extraEnabled.empty(); }
    // The storage classes PodsWithPVC is limited to; empty: every pod with a claim is protected.
    // Read whether PodsWithPVC comes from extraEnabled or the deprecated ignorePvcPods, as upstream.
    std::vector<std::string> protected_storage_classes() const;
};

struct DefaultEvictorArgs {
    std::string nodeSelector;              // label selector string limiting the nodeFit target nodes
    bool evictLocalStoragePods = false;    // deprecated flag, see podProtections
    bool evictDaemonSetPods = false;       // deprecated flag
    bool evictSystemCriticalPods = false;  // deprecated flag
    bool ignorePvcPods = false;            // deprecated flag
    bool evictFailedBarePods = false;      // deprecated flag
    std::optional<kd::LabelSelector> labelSelector;
    std::optional<PriorityThreshold> priorityThreshold;
    bool nodeFit = false;
    uint64_t minReplicas = 0;  // ≤ 1: no check
    std::optional<kd::Duration> minPodAge;
    bool ignorePodsWithoutPDB = false;  // deprecated flag of PodsWithoutPDB, see podProtections
    PodProtections podProtections;
    // Only pods of namespaces it selects are evicted; read only when it has matchLabels (upstream).
    std::optional<kd::LabelSelector> namespaceLabelSelector;

    template <class V>
    void fields(V& v) {
        v("nodeSelector", nodeSelector);
        v("evictLocalStoragePods", evictLocalStoragePods);
        v("evictDaemonSetPods", evictDaemonSetPods);
        v("evictSystemCriticalPods", evictSystemCriticalPods);
        v("ignorePvcPods", ignorePvcPods);
        v("evictFailedBarePods", evictFailedBarePods);
        v("labelSelector", labelSelector);
        v("priorityThreshold", priorityThreshold);
        v("nodeFit", nodeFit);
        v("minReplicas", minReplicas);
        v("minPodAge", minPodAge);
        v("ignorePodsWithoutPDB", ignorePodsWithoutPDB);
        v("podProtections", podProtections);
        v("namespaceLabelSelector", namespaceLabelSelector);
    }

    // Collects every problem with its field path (e.g. "priorityThreshold.name: …").
    void validate(kd::Errors& errs, const std::string& path) const;
};

// The protections in force, from podProtections when it is used, else from the deprecated flags.
struct Protections {
    bool localStorage = true;     // PodsWithLocalStorage
    bool daemonSet = true;        // DaemonSetPods
    bool systemCritical = true;   // SystemCriticalPods (and priorityThreshold)
    bool failedBarePods = true;   // FailedBarePods: every bare pod protected; off = only non-Failed bare pods
    bool pvc = false;             // PodsWithPVC
    bool withoutPdb = false;      // PodsWithoutPDB: a pod no PodDisruptionBudget selects is protected
    bool resourceClaims = false;  // PodsWithResourceClaims: a pod with spec.resourceClaims is protected
};

// Resolves the protections the way upstream getEffectivePodProtections does.
Protections effective_protections(const DefaultEvictorArgs& args);

}  // namespace kd::plugins::defaultevictor
