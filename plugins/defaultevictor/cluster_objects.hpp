// The Namespaces and PodDisruptionBudgets (namespaceLabelSelector, the PodsWithoutPDB
// protection; plugin API 1.7), PriorityClasses (priorityThreshold.name) and
// PersistentVolumeClaims (protectedStorageClasses; 1.8) DefaultEvictor reads from the host's
// list_objects, once per snapshot revision and only the kinds its args need. Read leniently, by
// the members needed: a newer host may write more.
#pragma once

#include <kdesched/label_selector.hpp>
#include <kdesched/view.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kd::plugins::defaultevictor {

class ClusterObjects {
public:
    struct Kinds {
        bool namespaces = false, pdbs = false, priority_classes = false, pvcs = false;
    };
    // Rebuilds from the snapshot when its revision changed since the last call (always on a host
    // without revisions).
    void refresh(const kd::Snapshot& snapshot, Kinds kinds);

    // The labels of the Namespace named `ns`; nullopt when the host has no such Namespace.
    const std::map<std::string, std::string>* namespace_labels(std::string_view ns) const;
    // utils.IsPodCoveredByPDB (pkg/utils/pod.go@v0.35.1): a PodDisruptionBudget of the pod's
    // namespace selects it. A budget without a selector selects no pod, `{}` every pod; one whose
    // selector is invalid never matches.
    bool covered_by_pdb(const kd::Pod& pod) const;
    // The value of the PriorityClass named `name`; nullopt when the host lists none of that name.
    std::optional<int32_t> priority_class_value(std::string_view name) const;
    size_t priority_class_count() const { return priority_classes_.size(); }
    // The spec.storageClassName of the PersistentVolumeClaim ns/name: "" when it names none,
    // nullopt when the host lists no such claim.
    std::optional<std::string_view> storage_class_of(std::string_view ns, std::string_view name) const;

private:
    std::optional<uint64_t> revision_;
    std::map<std::string, std::map<std::string, std::string>, std::less<>> namespaces_;
    std::map<std::string, std::vector<kd::LabelSelector>, std::less<>> pdb_selectors_;  // valid ones, by namespace
    std::map<std::string, int32_t, std::less<>> priority_classes_;                      // value by name
    // A claim's storage class, by namespace then name.
    std::map<std::string, std::map<std::string, std::string, std::less<>>, std::less<>> pvc_classes_;
};

}  // namespace kd::plugins::defaultevictor
