// Pods grouped by owner, as upstream's plugins group them (kubernetes-sigs/descheduler v0.35.1
// pkg/framework/plugins/removeduplicates/removeduplicates.go): a pod belongs to a group for each
// of its ownerReferences, controller or not (pkg/descheduler/pod/pods.go OwnerRef), and a group is
// named by the pods' namespace and the reference's kind and name. OwnerRefs::controller keeps
// only the controller=true reference (metav1.GetControllerOf, Koordinator's choice). For the
// workload above a controller (a ReplicaSet's Deployment) use Snapshot::workload_of.
#pragma once

#include <kdesched/view.hpp>

#include <compare>
#include <cstddef>
#include <map>
#include <string_view>
#include <vector>

namespace kd {

// Which of a pod's ownerReferences place it in a group.
enum class OwnerRefs {
    all,         // every one (upstream's podutil.OwnerRef)
    controller,  // the controller=true one only
};

// An owner as upstream keys it: the namespace of its pods, the reference's kind and name. Views
// into the snapshot: valid while it is.
struct OwnerKey {
    std::string_view ns, kind, name;
    auto operator<=>(const OwnerKey&) const = default;
};

// One owner's pods, in the order given.
struct PodGroup {
    OwnerKey owner;
    std::string_view uid;  // the first listed pod's reference's uid (upstream's key leaves it out)
    std::vector<Pod> pods;
};

// Groups `pods` (kd::Pod or const kd_pod* elements) by owner: groups in the order their first pod
// comes, a pod with two owners in both, a pod without one in none. A reference listed twice on one
// pod places it once.
template <class Range>
std::vector<PodGroup> group_by_owner(const Range& pods, OwnerRefs which = OwnerRefs::all) {
    std::vector<PodGroup> groups;
    std::map<OwnerKey, size_t> index;
    for (const auto& element : pods) {
        Pod pod(element);
        for (OwnerRef ref : pod.owners()) {
            if (which == OwnerRefs::controller && !ref.controller()) continue;
            OwnerKey key{pod.ns(), ref.kind(), ref.name()};
            auto [at, added] = index.try_emplace(key, groups.size());
            if (added) groups.push_back({key, ref.uid(), {}});
            auto& members = groups[at->second].pods;
            if (members.empty() || members.back().raw() != pod.raw()) members.push_back(pod);
        }
    }
    return groups;
}

}  // namespace kd
