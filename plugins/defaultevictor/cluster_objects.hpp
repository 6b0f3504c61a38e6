// The Namespaces and PodDisruptionBudgets DefaultEvictor reads (namespaceLabelSelector, the
// PodsWithoutPDB protection), from the host's list_objects (plugin API 1.7) once per snapshot
// revision. Read leniently, by the members needed: a newer host may write more.
#pragma once

#include <kdesched/label_selector.hpp>
#include <kdesched/view.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kd::plugins::defaultevictor {

class ClusterObjects {
public:
    // Rebuilds from the snapshot when its revision changed since the last call (always on a host
    // without revisions).
    void refresh(const kd::Snapshot& snapshot, bool namespaces, bool pdbs);

    // The labels of the Namespace named `ns`; nullopt when the host has no such Namespace.
    const std::map<std::string, std::string>* namespace_labels(std::string_view ns) const;
    // utils.IsPodCoveredByPDB (pkg/utils/pod.go@v0.35.1): a PodDisruptionBudget of the pod's
    // namespace selects it. A budget without a selector selects no pod, `{}` every pod; one whose
    // selector is invalid never matches.
    bool covered_by_pdb(const kd::Pod& pod) const;

private:
    std::optional<uint64_t> revision_;
    std::map<std::string, std::map<std::string, std::string>, std::less<>> namespaces_;
    std::map<std::string, std::vector<kd::LabelSelector>, std::less<>> pdb_selectors_;  // valid ones, by namespace
};

}  // namespace kd::plugins::defaultevictor
