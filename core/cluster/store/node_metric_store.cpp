#include "cluster/store/node_metric_store.hpp"

namespace kd::core {

NodeMetricStore::NodeMetricStore() = default;
NodeMetricStore::~NodeMetricStore() = default;

void NodeMetricStore::put(const NodeMetricDraft& d, ModelPools& pools, const PodStore& pods) {
    auto rec = std::make_unique<MetricRecord>();
    size_t total = d.system_usage.size();
    for (const auto& p : d.pods) total += p.usage.size();
    rec->resources.reserve(total);  // no reallocation below: pointers into it are taken
    auto add = [&](const ResourceDraft& rs) {
        kd_resource_list l{rec->resources.data() + rec->resources.size(), rs.size()};
        for (const auto& [name, milli] : rs) {
            auto e = zeroed<kd_resource>();
            e.name = pools.intern(name);
            e.milli = milli;
            rec->resources.push_back(e);
        }
        return rs.empty() ? kd_resource_list{nullptr, 0} : l;
    };
    kd_node_metric m{};
    m.struct_size = sizeof(kd_node_metric);
    m.has_node_metric = d.has_node_metric ? 1 : 0;
    m.update_time_ms = d.update_ms;
    m.system_usage = add(d.system_usage);
    rec->pods.reserve(d.pods.size());
    pods.find(d.pods, known_);
    for (size_t i = 0; i < d.pods.size(); ++i) {
        const auto& p = d.pods[i];
        auto e = zeroed<kd_pod_metric>();
        e.struct_size = sizeof(kd_pod_metric);
        e.namespace_ = pools.intern(p.ns);
        // Pod names are unique, so not interned: share the pod's own text when the pod is known
        // (compaction re-copies both), else keep a copy with the unique text.
        if (const kd_pod* pod = known_[i]) {
            e.name = pod->name;
        } else {
            e.name = pools.unique_text.copy(p.name);
            rec->own_name_bytes += e.name.size;
        }
        e.usage = add(p.usage);
        rec->pods.push_back(e);
    }
    m.pods = rec->pods.data();
    m.pod_count = rec->pods.size();
    rec->metric = m;
    auto& slot = by_node_[std::string(d.meta.name)];
    std::unique_ptr<MetricRecord> old = std::move(slot);
    slot = std::move(rec);
    // After the new record is in place: a compaction must see it.
    if (old) pools.unique_text.retire(old->own_name_bytes);
}

bool NodeMetricStore::erase(std::string_view node_name, UniqueText& text) {
    auto it = by_node_.find(node_name);
    if (it == by_node_.end()) return false;
    text.retire(it->second->own_name_bytes);
    by_node_.erase(it);
    return true;
}

void NodeMetricStore::touch(int64_t update_ms) {
    for (auto& [name, rec] : by_node_) rec->metric.update_time_ms = update_ms;
}

const kd_node_metric* NodeMetricStore::of_node(std::string_view node_name) const {
    auto it = by_node_.find(node_name);
    return it == by_node_.end() ? nullptr : &it->second->metric;
}

std::vector<std::string> NodeMetricStore::keys() const {
    std::vector<std::string> out;
    for (const auto& [key, rec] : by_node_) out.push_back(key);
    return out;
}

void NodeMetricStore::move_unique_text(TextArena& fresh) {
    for (auto& [node, rec] : by_node_) {
        if (!rec) continue;
        rec->own_name_bytes = 0;
        for (auto& p : rec->pods) {
            move_to(fresh, p.name);
            rec->own_name_bytes += p.name.size;
        }
    }
}

}  // namespace kd::core
