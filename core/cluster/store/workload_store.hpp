// The model's workload controller objects (ReplicaSet, Deployment, StatefulSet,
// ReplicationController, Job, DaemonSet) in slots, found by UID and by kind/namespace/name.
#pragma once

#include "cluster/drafts.hpp"
#include "cluster/slot_index.hpp"
#include "cluster/store/free_slots.hpp"
#include "cluster/store/model_pools.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kd::core {

// What workload resolution (Koordinator's controllerfinder) needs of a workload. Pods are matched
// by owner UID, not by selector, so neither labels nor selector are kept. Strings point into the
// model's pools (valid while the model lives).
struct Workload {
    std::string_view kind, uid, ns, name;
    // Its own controller ownerReference (ReplicaSet → Deployment); empty kind when none.
    std::string_view controller_kind, controller_name, controller_uid;
    std::optional<int32_t> replicas;
    int32_t ready_replicas = 0;
};

class WorkloadStore {
public:
    WorkloadStore();
    WorkloadStore(const WorkloadStore&) = delete;
    WorkloadStore& operator=(const WorkloadStore&) = delete;

    // Adds the workload, or replaces the one stored under `uid`.
    void put(const WorkloadDraft& d, std::string_view uid, ModelPools& pools);
    // Deletes the workload stored under `uid`, whatever its kind; false when unknown.
    bool erase(std::string_view uid);

    const Workload* by_uid(std::string_view uid) const;
    const Workload* by_name(std::string_view kind, std::string_view ns, std::string_view name) const;
    // Calls f(const Workload&) for every workload, in slot order.
    template <class F>
    void for_each(F&& f) const {
        for (const Workload& w : slots_)
            if (!w.kind.empty()) f(w);
    }
    // UIDs of the workloads of `kind` ("ReplicaSet", …).
    std::vector<std::string> keys(std::string_view kind) const;

private:
    static size_t name_hash(std::string_view kind, std::string_view ns, std::string_view name);
    uint32_t find_slot(std::string_view uid) const;

    SlotStore<Workload> slots_;  // a free slot has an empty kind
    FreeSlots free_;
    SlotIndex uid_index_;
    SlotIndex name_index_;  // by kind/namespace/name
};

}  // namespace kd::core
