#include "cluster/store/pod_store.hpp"

#include "cluster/pod_derivations.hpp"
#include "cluster/schema/bound_fields.hpp"
#include "cluster/store/name_hash.hpp"

#include <algorithm>

namespace kd::core {

PodStore::PodStore()
    : uid_index_([this](uint32_t s) { return uid_hash(s); }, [this] { return slots_.size(); },
                 [this](uint32_t s) { return slots_[s].alive(); }),
      name_index_([this](uint32_t s) { return name_hash(s); }, [this] { return slots_.size(); },
                  [this](uint32_t s) { return slots_[s].alive(); }) {}

size_t PodStore::uid_hash(uint32_t slot) const {
    return fast_hash(view(slots_[slot].pod.uid));
}

size_t PodStore::name_hash(uint32_t slot) const {
    const kd_pod& p = slots_[slot].pod;
    return hash_ns_name(view(p.spec->namespace_), view(p.name));
}

void PodStore::put(const PodDraft& d, std::string_view uid, ModelPools& pools) {
    uint32_t slot = find_slot(uid);
    bool existing = slot != SlotIndex::kNone;
    if (existing)
        unlink(slot);  // same UID: its strings and index entries stay
    else
        slot = free_.take(slots_);
    PodRecord& rec = slots_[slot];
    kd_pod p{};
    schema::copy_bound(
        p, d.bound, [&](std::string_view s) { return pools.intern(s); },
        [&](const void* data, size_t bytes) { return pools.keep_array(data, bytes); });
    p.struct_size = sizeof(kd_pod);
    if (existing) {
        p.uid = rec.pod.uid;
        p.name = rec.pod.name;
    } else {
        p.uid = pools.unique_text.copy(uid);
        p.name = pools.unique_text.copy(d.meta.name);
    }
    if (d.priority) {
        p.flags |= KD_POD_HAS_PRIORITY;
        p.priority = *d.priority;
    }
    if (d.meta.deleting) p.flags |= KD_POD_TERMINATING;
    if (d.local_storage) p.flags |= KD_POD_LOCAL_STORAGE;
    if (d.pvc) p.flags |= KD_POD_PVC;
    if (d.ephemeral_volume) p.flags |= KD_POD_EPHEMERAL_VOLUME;
    if (d.has_required_affinity) p.flags |= KD_POD_HAS_NODE_AFFINITY;
    p.phase = static_cast<uint8_t>(pod_phase(d.phase));
    p.qos_class = static_cast<uint8_t>(d.qos_class.empty() ? compute_qos(d) : qos_from_status(d.qos_class, d));
    p.creation_ms = d.meta.creation_ms;
    p.spec = pools.pod_spec(d);
    p.annotations = pools.cached_kvs(d.meta.annotations);
    for (const auto& c : d.conditions)
        if (c.type == "Ready" && c.status == "True") p.flags |= KD_POD_READY;
    p.conditions = pools.conditions(d, p.condition_count);
    p.condition_transitions = pools.condition_transitions(d);
    p.container_statuses = pools.container_statuses(d, p.container_status_count);
    rec.pod = p;
    if (!existing) {
        uid_index_.insert(fast_hash(uid), slot);
        name_index_.insert(hash_ns_name(view(p.spec->namespace_), view(p.name)), slot);
    }
    by_node_[view(p.node_name)].push_back(slot);
    for (size_t i = 0; i < p.spec->owner_count; ++i) by_owner_[view(p.spec->owners[i].uid)].push_back(slot);
}

void PodStore::unlink(uint32_t slot) {
    const kd_pod& p = slots_[slot].pod;
    auto& on_node = by_node_[view(p.node_name)];
    on_node.erase(std::remove(on_node.begin(), on_node.end(), slot), on_node.end());
    for (size_t i = 0; i < p.spec->owner_count; ++i) {
        auto& by_owner = by_owner_[view(p.spec->owners[i].uid)];
        by_owner.erase(std::remove(by_owner.begin(), by_owner.end(), slot), by_owner.end());
    }
}

bool PodStore::erase(std::string_view uid, UniqueText& text) {
    uint32_t slot = find_slot(uid);
    if (slot == SlotIndex::kNone) return false;
    unlink(slot);
    uid_index_.erase(uid_hash(slot), slot);
    name_index_.erase(name_hash(slot), slot);
    PodRecord& rec = slots_[slot];
    text.retire(rec.pod.uid.size + rec.pod.name.size);
    rec.pod = kd_pod{};
    free_.give_back(slot);
    return true;
}

const kd_pod* PodStore::by_name(std::string_view ns, std::string_view name) const {
    return by_name(hash_ns_name(ns, name), ns, name);
}

const kd_pod* PodStore::by_name(size_t hash, std::string_view ns, std::string_view name) const {
    uint32_t slot = name_index_.find(hash, [&](uint32_t s) {
        const kd_pod& p = slots_[s].pod;
        return view(p.name) == name && view(p.spec->namespace_) == ns;
    });
    return slot == SlotIndex::kNone ? nullptr : &slots_[slot].pod;
}

void PodStore::find(const std::vector<NodeMetricDraft::PodUsage>& named, std::vector<const kd_pod*>& out) const {
    // On a big model each lookup is a chain of cache misses: index entry, pod record, then its
    // name and template. Taking a group of lookups one link at a time, prefetching the next link
    // of each, overlaps the chains instead of waiting for every miss in turn.
    constexpr size_t kGroup = 16;
    size_t hashes[kGroup];
    uint32_t slots[kGroup];
    out.resize(named.size());
    for (size_t first = 0; first < named.size(); first += kGroup) {
        size_t n = std::min(kGroup, named.size() - first);
        const NodeMetricDraft::PodUsage* group = named.data() + first;
        for (size_t i = 0; i < n; ++i) {
            hashes[i] = hash_ns_name(group[i].ns, group[i].name);
            name_index_.prefetch(hashes[i]);
        }
        for (size_t i = 0; i < n; ++i) {
            slots[i] = name_index_.candidate(hashes[i]);
            if (slots[i] == SlotIndex::kNone) continue;
            const kd_pod& p = slots_[slots[i]].pod;
            __builtin_prefetch(&p.name);
            __builtin_prefetch(&p.spec);
        }
        for (size_t i = 0; i < n; ++i) {
            if (slots[i] == SlotIndex::kNone) continue;
            const kd_pod& p = slots_[slots[i]].pod;
            __builtin_prefetch(p.name.data);
            __builtin_prefetch(p.spec);
        }
        for (size_t i = 0; i < n; ++i) out[first + i] = by_name(hashes[i], group[i].ns, group[i].name);
    }
}

std::vector<const kd_pod*> PodStore::listed(const InternedMap<std::vector<uint32_t>>& lists,
                                            std::string_view key) const {
    std::vector<const kd_pod*> out;
    if (key.empty()) return out;  // never interned; or unbound pods, which are not "on" a node
    if (const auto* slots = lists.find(key))
        for (uint32_t s : *slots) out.push_back(&slots_[s].pod);
    return out;
}

std::vector<const kd_pod*> PodStore::on_node(std::string_view interned_node) const {
    return listed(by_node_, interned_node);
}

std::vector<const kd_pod*> PodStore::by_owner(std::string_view interned_owner_uid) const {
    return listed(by_owner_, interned_owner_uid);
}

std::vector<const kd_pod*> PodStore::all() const {
    std::vector<const kd_pod*> out;
    out.reserve(uid_index_.size());
    for (const auto& r : slots_)
        if (r.alive()) out.push_back(&r.pod);
    return out;
}

std::vector<std::string> PodStore::keys() const {
    std::vector<std::string> out;
    for (const auto& r : slots_)
        if (r.alive()) out.emplace_back(view(r.pod.uid));
    return out;
}

void PodStore::move_unique_text(TextArena& fresh) {
    for (auto& r : slots_) {
        if (!r.alive()) continue;
        move_to(fresh, r.pod.uid);
        move_to(fresh, r.pod.name);
    }
}

}  // namespace kd::core
