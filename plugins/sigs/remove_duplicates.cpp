#include "remove_duplicates.hpp"

#include "duplicate_groups.hpp"
#include "placement_targets.hpp"

#include <algorithm>
#include <string>
#include <unordered_set>

namespace kd::plugins::sigs {

namespace {

// getTargetNodes (removeduplicates.go@v0.35.1): how many of the profile's nodes some duplicate
// could land on, counting only duplicates that could land on more than one.
size_t count_target_nodes(PlacementTargets& placements, const DuplicatesOfOwner& group) {
    std::vector<size_t> ids;
    for (const auto& on_node : group.by_node)
        for (const Pod& pod : on_node.second) {
            size_t id = placements.placement_of(pod);
            if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
        }
    return placements.reach(ids);
}

}  // namespace

bool RemoveDuplicates::template_candidate(const Pod& pod) const {
    if (args_.namespaces && !args_.namespaces->allows(pod.ns())) return false;
    if (pod.owners().empty()) return false;
    for (auto owner : pod.owners())
        if (listed(args_.excludeOwnerKinds, owner.kind())) return false;
    // Every real pod runs a container; a pod without one (a hand-built snapshot) cannot be compared.
    return pod.container_image_count() > 0;
}

void RemoveDuplicates::balance(Cycle& cycle) {
    auto snap = cycle.snapshot();
    DuplicateGroups groups;
    for (auto node : snap.nodes()) {
        groups.begin_node(node.name());
        auto on_node = snap.pods_on_node(node.name());
        prefetch_specs(on_node);  // candidate() reads the owners, images and namespace there
        for (auto pod : on_node) {
            if (pod.finished()) continue;
            auto spec = groups.keys_if(pod, [this](const Pod& p) { return template_candidate(p); });
            if (spec && evictor_admits(cycle, pod)) groups.add(pod, *spec);
        }
    }
    // A pod duplicated under several owner keys is evicted once.
    std::unordered_set<std::string_view> evicted;
    auto note = [&](const Pod& pod, const EvictOutcome& out) {
        if (out.evicted()) evicted.insert(pod.uid());
    };
    std::vector<Pod> surplus;
    PlacementTargets placements(snap);
    for (const auto& group : groups.take()) {
        size_t targets = count_target_nodes(placements, group);
        if (targets < 2) {
            cycle.debug("RemoveDuplicates: " + group.key.str() + " has fewer than two feasible nodes; not balanced");
            continue;
        }
        // The most pods a node keeps: ceil(pods / target nodes).
        size_t keep = (static_cast<size_t>(group.pods) + targets - 1) / targets;
        for (const auto& [node_name, duplicates] : group.by_node) {
            // `duplicates` leaves out the node's first pod of the kind, which stays.
            if (duplicates.size() + 1 <= keep) continue;
            surplus.clear();
            for (size_t i = keep - 1; i < duplicates.size(); ++i)
                if (!evicted.count(duplicates[i].uid())) surplus.push_back(duplicates[i]);
            auto tally = evict_in_order(cycle, surplus, loop_of("duplicate of pods of the same owners", true), note);
            if (tally.stopped_by == KD_EVICT_LIMIT_TOTAL) return;
        }
    }
}

}  // namespace kd::plugins::sigs
