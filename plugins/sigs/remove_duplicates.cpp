#include "remove_duplicates.hpp"

#include "duplicate_groups.hpp"

#include <kdesched/node_fit.hpp>

#include <set>
#include <string>
#include <unordered_set>

namespace kd::plugins::sigs {

namespace {

// What decides where a pod may land for getTargetNodes: its tolerations, nodeSelector and required
// node affinity, written out in their order. Pods with the same text land on the same nodes, so
// each text is checked once (upstream compares these fields for the same reason).
std::string placement_text(const Pod& pod) {
    std::string t;
    auto put = [&t](std::string_view s) { t.append(std::to_string(s.size())).append(":").append(s); };
    for (auto tol : pod.tolerations()) {
        put(tol.key());
        put(tol.op());
        put(tol.value());
        put(tol.effect());
    }
    t.append("|");
    KeyValues selector = pod.node_selector();
    for (size_t i = 0; i < selector.size(); ++i) {
        put(selector.key(i));
        put(selector.value(i));
    }
    t.append(pod.has_required_node_affinity() ? "|A" : "|-");
    for (auto term : pod.affinity_terms()) {
        t.append("|T");
        for (auto part : {term.expressions(), term.fields()}) {
            t.append("/");
            for (auto r : part) {
                put(r.key());
                put(r.op());
                for (size_t i = 0; i < r.value_count(); ++i) put(r.value(i));
                t.append(";");
            }
        }
    }
    return t;
}

// getTargetNodes (removeduplicates.go@v0.35.1): how many of the profile's nodes some duplicate
// could land on, counting only duplicates that could land on more than one. Taints (NoSchedule,
// NoExecute) and the nodeSelector with required node affinity decide; not `unschedulable`, not
// resources, as upstream.
size_t count_target_nodes(const Snapshot& snap, const DuplicatesOfOwner& group) {
    std::unordered_set<std::string> checked;
    std::set<std::string_view> targets;
    std::vector<std::string_view> matching;
    for (const auto& on_node : group.by_node) {
        for (const Pod& pod : on_node.second) {
            if (!checked.insert(placement_text(pod)).second) continue;
            matching.clear();
            for (auto node : snap.nodes())
                if (pod_tolerates_node_taints(pod, node) && pod_matches_node_selector(pod, node))
                    matching.push_back(node.name());
            if (matching.size() > 1) targets.insert(matching.begin(), matching.end());
        }
    }
    return targets.size();
}

}  // namespace

bool RemoveDuplicates::candidate(const Pod& pod) const {
    if (pod.finished()) return false;
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
        for (auto pod : snap.pods_on_node(node.name()))
            if (candidate(pod) && evictor_admits(cycle, pod)) groups.add(pod);
    }
    // A pod duplicated under several owner keys is evicted once.
    std::unordered_set<std::string_view> evicted;
    auto note = [&](const Pod& pod, const EvictOutcome& out) {
        if (out.evicted()) evicted.insert(pod.uid());
    };
    std::vector<Pod> surplus;
    for (const auto& group : groups.take()) {
        size_t targets = count_target_nodes(snap, group);
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
