#include "cluster/store/node_store.hpp"

#include "cluster/pod_derivations.hpp"

#include <algorithm>

namespace kd::core {

void NodeStore::put(const NodeDraft& d, std::string_view uid_view, ModelPools& pools) {
    std::string uid(uid_view);
    uint32_t slot;
    auto it = by_uid_.find(uid);
    if (it != by_uid_.end()) {
        slot = it->second;
        by_name_.erase(view(slots_[slot].node.name));
    } else {
        slot = free_.take(slots_);
    }
    NodeRecord& rec = slots_[slot];
    rec.uid_text = uid;
    rec.name_text = std::string(d.meta.name);
    kd_node n{};
    n.struct_size = sizeof(kd_node);
    n.unschedulable = d.unschedulable ? 1 : 0;
    n.ready = !d.ready_status || *d.ready_status == "True";
    n.uid = kd_str{rec.uid_text.data(), rec.uid_text.size()};
    n.name = pools.intern(d.meta.name);
    n.labels = pools.intern_kvs(d.meta.labels);
    n.annotations = pools.intern_kvs(d.meta.annotations);
    n.taints = pools.taints(d, n.taint_count);
    n.allocatable = pools.intern_resources(d.allocatable);
    if (auto raw = raw_allocatable(d)) {
        std::vector<std::pair<std::string_view, int64_t>> views(raw->begin(), raw->end());
        n.raw_allocatable = pools.intern_resources(views);
    } else {
        n.raw_allocatable = n.allocatable;
    }
    rec.node = n;
    rec.alive = true;
    by_uid_[uid] = slot;
    by_name_[view(n.name)] = slot;
}

bool NodeStore::erase(std::string_view uid) {
    auto it = by_uid_.find(std::string(uid));
    if (it == by_uid_.end()) return false;
    NodeRecord& rec = slots_[it->second];
    by_name_.erase(view(rec.node.name));
    rec.alive = false;
    rec.node = kd_node{};
    free_.give_back(it->second);
    by_uid_.erase(it);
    return true;
}

std::vector<const kd_node*> NodeStore::all() const {
    std::vector<const kd_node*> out;
    for (const auto& r : slots_)
        if (r.alive) out.push_back(&r.node);
    std::sort(out.begin(), out.end(), [](const kd_node* a, const kd_node* b) { return view(a->name) < view(b->name); });
    return out;
}

std::vector<std::string> NodeStore::keys() const {
    std::vector<std::string> out;
    for (const auto& [key, slot] : by_uid_) out.push_back(key);
    return out;
}

}  // namespace kd::core
