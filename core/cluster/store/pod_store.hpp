// The model's pods: kd_pods stored in place, contiguous in slots (SlotStore), found through
// compact hash indexes of slot numbers by UID and by namespace/name, and listed per node and per
// owner UID. Strings and arrays come from the model's pools (ModelPools), handed in per change.
#pragma once

#include "cluster/drafts.hpp"
#include "cluster/slot_index.hpp"
#include "cluster/store/free_slots.hpp"
#include "cluster/store/model_pools.hpp"
#include "cluster/string_pool.hpp"

#include <kdesched/abi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kd::core {

class PodStore {
public:
    PodStore();
    PodStore(const PodStore&) = delete;
    PodStore& operator=(const PodStore&) = delete;

    // Adds the pod, or replaces the one stored under `uid` (which keeps its UID and name text).
    void put(const PodDraft& d, std::string_view uid, ModelPools& pools);
    // Deletes the pod stored under `uid`, its text retired to `text`; false when unknown.
    bool erase(std::string_view uid, UniqueText& text);

    const kd_pod* by_uid(std::string_view uid) const {
        uint32_t slot = find_slot(uid);
        return slot == SlotIndex::kNone ? nullptr : &slots_[slot].pod;
    }
    const kd_pod* by_name(std::string_view ns, std::string_view name) const;
    // The pod each entry names, or nullptr; in one go, which is faster than one by one.
    void find(const std::vector<NodeMetricDraft::PodUsage>& named, std::vector<const kd_pod*>& out) const;
    // Pods listed under an interned node name or owner UID (ModelPools::find): a view of either
    // that was never interned names no pod.
    std::vector<const kd_pod*> on_node(std::string_view interned_node) const;
    std::vector<const kd_pod*> by_owner(std::string_view interned_owner_uid) const;

    // Every pod, in slot order.
    std::vector<const kd_pod*> all() const;
    // Slot numbers of the pods per interned node name (unbound pods under ""), and the pod in a slot.
    const InternedMap<std::vector<uint32_t>>& slots_by_node() const { return by_node_; }
    const kd_pod& at(uint32_t slot) const { return slots_[slot].pod; }
    std::vector<std::string> keys() const;
    size_t size() const { return uid_index_.size(); }

    // Compaction of the unique text: copies the UIDs and names of live pods into `fresh`.
    void move_unique_text(TextArena& fresh);

private:
    // A free slot has pod.struct_size == 0.
    struct PodRecord {
        kd_pod pod{};
        bool alive() const { return pod.struct_size != 0; }
    };

    uint32_t find_slot(std::string_view uid) const {
        return uid_index_.find(fast_hash(uid), [&](uint32_t s) { return view(slots_[s].pod.uid) == uid; });
    }
    const kd_pod* by_name(size_t hash, std::string_view ns, std::string_view name) const;
    // Takes the pod out of the node and owner lists (before an update or a delete).
    void unlink(uint32_t slot);
    size_t uid_hash(uint32_t slot) const;
    size_t name_hash(uint32_t slot) const;
    std::vector<const kd_pod*> listed(const InternedMap<std::vector<uint32_t>>& lists, std::string_view key) const;

    SlotStore<PodRecord> slots_;
    FreeSlots free_;
    SlotIndex uid_index_;
    SlotIndex name_index_;  // by namespace/name
    // Keys are interned strings; unbound pods under "".
    InternedMap<std::vector<uint32_t>> by_node_;
    InternedMap<std::vector<uint32_t>> by_owner_;
};

}  // namespace kd::core
