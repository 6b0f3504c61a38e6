// What the model's stores share: interned strings and arrays, the content caches that skip
// interning what was seen before, the unique text of pods, and scratch vectors. One instance per
// model, owned by it and handed to a store for each change; what it returns lives as long as it.
#pragma once

#include "cluster/array_pool.hpp"
#include "cluster/content_key.hpp"
#include "cluster/drafts.hpp"
#include "cluster/slot_index.hpp"
#include "cluster/store/unique_text.hpp"
#include "cluster/string_pool.hpp"

#include <kdesched/abi.h>

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace kd::core {

class ModelPools {
public:
    kd_str intern(std::string_view s) { return strings_.intern(s); }
    // The interned copy of a bound list's array (cluster/schema/bound_fields.hpp: `bytes`, a
    // multiple of 8, of zero-filled elements whose strings are interned).
    const void* keep_array(const void* data, size_t bytes) {
        return bound_arrays_.intern(static_cast<const uint64_t*>(data), bytes / 8);
    }
    // The interned copy of `s`, or an empty view when it was never interned.
    std::string_view find(std::string_view s) const { return strings_.find(s); }

    kd_key_value_list intern_kvs(const std::vector<KeyValueDraft>& kvs);
    kd_resource_list intern_resources(const std::vector<std::pair<std::string_view, int64_t>>& rs);
    // Annotation sets, found by content first: most pods repeat one seen before.
    kd_key_value_list cached_kvs(const std::vector<KeyValueDraft>& kvs);
    // The pod's template part, found by content first, interned string by string only when new.
    const kd_pod_spec* pod_spec(const PodDraft& d);
    // The pod's conditions, found by content first; `count` receives their number.
    const kd_pod_condition* conditions(const PodDraft& d, size_t& count);
    // kd_pod.condition_transitions of the pod: null when no condition has a lastTransitionTime.
    // Seconds after the pod's creation repeat from pod to pod, so the arrays are shared too.
    const int32_t* condition_transitions(const PodDraft& d);
    const kd_container_status* container_statuses(const PodDraft& d, size_t& count);
    const kd_taint* taints(const NodeDraft& d, size_t& count);

    UniqueText unique_text;  // pod UIDs and names (pods' and NodeMetric entries'): never interned

private:
    const kd_pod_spec* intern_pod_spec(const PodDraft& d, std::string_view scheduler,
                                       const std::vector<std::pair<std::string_view, int64_t>>& requests);
    const kd_pod_condition* intern_conditions(const PodDraft& d, size_t& count);

    StringPool strings_;
    ArrayPool<kd_key_value> kv_pool_;
    ArrayPool<kd_resource> resource_pool_;
    ArrayPool<kd_owner_reference> owner_pool_;
    ArrayPool<kd_pod_condition> condition_pool_;
    ArrayPool<kd_container_status> container_status_pool_;
    ArrayPool<int32_t> transition_pool_;
    ArrayPool<kd_taint> taint_pool_;
    ArrayPool<kd_str> str_pool_;
    ArrayPool<kd_selector_requirement> requirement_pool_;
    ArrayPool<kd_node_selector_term> term_pool_;
    ArrayPool<uint64_t> bound_arrays_;  // the bound lists' arrays, whatever their element type
    SlotStore<kd_pod_spec> specs_;      // each template once: spec_cache_ finds them by content
    // Content digests of what was interned already: most pods repeat a template, an annotation
    // set and a condition list seen before, and this skips interning each of their strings.
    struct ConditionList {
        const kd_pod_condition* items;
        size_t count;
    };
    ContentMap<const kd_pod_spec*> spec_cache_;
    ContentMap<kd_key_value_list> kv_cache_;
    ContentMap<ConditionList> condition_cache_;
    // Reused between objects so that adding one allocates nothing in the common case.
    struct Scratch {
        std::vector<kd_key_value> kvs;
        std::vector<kd_resource> resources;
        std::vector<kd_owner_reference> owners;
        std::vector<kd_node_selector_term> terms;
        std::vector<kd_str> strs;
        std::vector<kd_pod_condition> conditions;
        std::vector<kd_container_status> container_statuses;
        std::vector<int32_t> transitions;
        std::vector<kd_taint> taints;
        std::vector<std::pair<std::string_view, int64_t>> requests;
    } scratch_;
};

}  // namespace kd::core
