#include "cluster/store/workload_store.hpp"

#include "cluster/store/name_hash.hpp"

namespace kd::core {

WorkloadStore::WorkloadStore()
    : uid_index_([this](uint32_t s) { return fast_hash(slots_[s].uid); }, [this] { return slots_.size(); },
                 [this](uint32_t s) { return !slots_[s].kind.empty(); }),
      name_index_(
          [this](uint32_t s) {
              const Workload& w = slots_[s];
              return name_hash(w.kind, w.ns, w.name);
          },
          [this] { return slots_.size(); }, [this](uint32_t s) { return !slots_[s].kind.empty(); }) {}

size_t WorkloadStore::name_hash(std::string_view kind, std::string_view ns, std::string_view name) {
    return hash_ns_name(ns, name) * 31 ^ fast_hash(kind);
}

uint32_t WorkloadStore::find_slot(std::string_view uid) const {
    return uid_index_.find(fast_hash(uid), [&](uint32_t s) { return slots_[s].uid == uid; });
}

void WorkloadStore::put(const WorkloadDraft& d, std::string_view uid, ModelPools& pools) {
    uint32_t slot = find_slot(uid);
    bool existing = slot != SlotIndex::kNone;
    if (existing) {
        const Workload& old = slots_[slot];
        name_index_.erase(name_hash(old.kind, old.ns, old.name), slot);
    } else {
        slot = free_.take(slots_);
    }
    Workload& w = slots_[slot];
    // Interned, not unique text: the pods' ownerReferences name the same UIDs and names.
    w.uid = view(pools.intern(uid));
    w.name = view(pools.intern(d.meta.name));
    w.kind = view(pools.intern(d.kind));
    w.ns = view(pools.intern(d.meta.ns));
    w.controller_kind = w.controller_name = w.controller_uid = {};
    for (const auto& o : d.meta.owners) {
        if (!o.controller) continue;
        w.controller_kind = view(pools.intern(o.kind));
        w.controller_name = view(pools.intern(o.name));
        w.controller_uid = view(pools.intern(o.uid));
    }
    w.replicas = d.replicas;
    w.ready_replicas = d.ready_replicas;
    if (!existing) uid_index_.insert(fast_hash(w.uid), slot);
    name_index_.insert(name_hash(w.kind, w.ns, w.name), slot);
}

bool WorkloadStore::erase(std::string_view uid) {
    uint32_t slot = find_slot(uid);
    if (slot == SlotIndex::kNone) return false;
    Workload& w = slots_[slot];
    uid_index_.erase(fast_hash(w.uid), slot);
    name_index_.erase(name_hash(w.kind, w.ns, w.name), slot);
    w = Workload{};  // empty kind marks a free slot
    free_.give_back(slot);
    return true;
}

const Workload* WorkloadStore::by_uid(std::string_view uid) const {
    uint32_t slot = find_slot(uid);
    return slot == SlotIndex::kNone ? nullptr : &slots_[slot];
}

const Workload* WorkloadStore::by_name(std::string_view kind, std::string_view ns, std::string_view name) const {
    uint32_t slot = name_index_.find(name_hash(kind, ns, name), [&](uint32_t s) {
        const Workload& w = slots_[s];
        return w.name == name && w.ns == ns && w.kind == kind;
    });
    return slot == SlotIndex::kNone ? nullptr : &slots_[slot];
}

std::vector<std::string> WorkloadStore::keys(std::string_view kind) const {
    std::vector<std::string> out;
    for_each([&](const Workload& w) {
        if (w.kind == kind) out.emplace_back(w.uid);
    });
    return out;
}

}  // namespace kd::core
