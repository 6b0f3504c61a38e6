#include "placement_targets.hpp"

#include <kdesched/node_fit.hpp>

namespace kd::plugins::sigs {

namespace {

// The fields that decide where a pod may land, written out in their order with lengths, so that
// two pods get the same text exactly when they agree on every one of them.
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

}  // namespace

PlacementTargets::PlacementTargets(const Snapshot& snap) {
    for (auto node : snap.nodes()) all_nodes_.push_back(node);
    mark_.assign(all_nodes_.size(), 0);
}

size_t PlacementTargets::placement_of(const Pod& pod) {
    const std::pair<const kd_pod_spec*, bool> spec{pod.raw()->spec, pod.has_required_node_affinity()};
    auto known = id_of_spec_.find(spec);
    if (known != id_of_spec_.end()) return known->second;
    auto [it, fresh] = id_of_text_.try_emplace(placement_text(pod), nodes_.size());
    if (fresh) {
        std::vector<uint32_t>& reached = nodes_.emplace_back();
        for (uint32_t i = 0; i < all_nodes_.size(); ++i)
            if (pod_tolerates_node_taints(pod, all_nodes_[i]) && pod_matches_node_selector(pod, all_nodes_[i]))
                reached.push_back(i);
    }
    id_of_spec_.emplace(spec, it->second);
    return it->second;
}

size_t PlacementTargets::reach(const std::vector<size_t>& ids) {
    // One placement (the common case): its own count, without marking.
    if (ids.size() == 1) return nodes_[ids[0]].size() > 1 ? nodes_[ids[0]].size() : 0;
    ++round_;
    size_t count = 0;
    for (size_t id : ids) {
        if (nodes_[id].size() <= 1) continue;
        for (uint32_t n : nodes_[id])
            if (mark_[n] != round_) mark_[n] = round_, ++count;
    }
    return count;
}

}  // namespace kd::plugins::sigs
