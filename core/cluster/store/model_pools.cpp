#include "cluster/store/model_pools.hpp"

#include "cluster/pod_derivations.hpp"
#include "cluster/schema/bound_fields.hpp"

#include <kdesched/view.hpp>

namespace kd::core {

namespace {

// One element per item of `in`, zero-filled with its struct_size set and then filled by
// `fill(element, item)`, built in `scratch` and interned in `pool`; `count` receives their number.
template <class T, class Items, class Fill>
const T* intern_each(ArrayPool<T>& pool, std::vector<T>& scratch, const Items& in, size_t& count, Fill&& fill) {
    scratch.clear();
    for (const auto& item : in) {
        auto e = zeroed<T>();
        e.struct_size = sizeof(T);
        fill(e, item);
        scratch.push_back(e);
    }
    count = scratch.size();
    return pool.intern(scratch);
}

}  // namespace

kd_key_value_list ModelPools::intern_kvs(const std::vector<KeyValueDraft>& kvs) {
    if (kvs.empty()) return {nullptr, 0};
    auto& v = scratch_.kvs;
    v.clear();
    for (const auto& [k, val] : kvs) {
        auto e = zeroed<kd_key_value>();
        e.key = intern(k);
        e.value = intern(val);
        v.push_back(e);
    }
    return {kv_pool_.intern(v), v.size()};
}

kd_resource_list ModelPools::intern_resources(const std::vector<std::pair<std::string_view, int64_t>>& rs) {
    if (rs.empty()) return {nullptr, 0};
    auto& v = scratch_.resources;
    v.clear();
    for (const auto& [name, milli] : rs) {
        auto e = zeroed<kd_resource>();
        e.name = intern(name);
        e.milli = milli;
        v.push_back(e);
    }
    return {resource_pool_.intern(v), v.size()};
}

const kd_pod_spec* ModelPools::pod_spec(const PodDraft& d) {
    auto& requests = scratch_.requests;
    effective_requests(d, requests);
    std::string_view scheduler = d.scheduler_name.empty() ? std::string_view("default-scheduler") : d.scheduler_name;
    ContentKey key;
    key.add(d.meta.ns).add(scheduler).add_word(d.meta.labels.size());
    for (const auto& [k, v] : d.meta.labels) key.add(k, v);
    key.add_word(d.meta.owners.size());
    for (const auto& o : d.meta.owners) key.add(o.api_version, o.kind, o.name, o.uid).add_word(o.controller);
    key.add_word(requests.size());
    for (const auto& [r, milli] : requests) key.add(r).add_word(static_cast<uint64_t>(milli));
    key.add_word(d.node_selector.size());
    for (const auto& [k, v] : d.node_selector) key.add(k, v);
    key.add_word(d.has_required_affinity).add_word(d.affinity_terms.size());
    for (const auto& t : d.affinity_terms) {
        for (const auto* reqs : {&t.expressions, &t.fields}) {
            key.add_word(reqs->size());
            for (const auto& r : *reqs) {
                key.add(r.key, r.op).add_word(r.values.size());
                for (auto v : r.values) key.add(v);
            }
        }
    }
    schema::add_bound(key, d.bound_spec);
    return spec_cache_.find_or_make(key, [&] { return intern_pod_spec(d, scheduler, requests); });
}

kd_key_value_list ModelPools::cached_kvs(const std::vector<KeyValueDraft>& kvs) {
    if (kvs.empty()) return {nullptr, 0};
    ContentKey key;
    for (const auto& [k, v] : kvs) key.add(k, v);
    return kv_cache_.find_or_make(key, [&] { return intern_kvs(kvs); });
}

const kd_pod_condition* ModelPools::intern_conditions(const PodDraft& d, size_t& count) {
    return intern_each(condition_pool_, scratch_.conditions, d.conditions, count, [&](auto& e, const auto& c) {
        e.type = intern(c.type);
        e.status = intern(c.status);
        e.reason = intern(c.reason);
        e.message = intern(c.message);
    });
}

// In the draft's order, which is kd_pod's (the decoders keep it).
const kd_container_status* ModelPools::container_statuses(const PodDraft& d, size_t& count) {
    return intern_each(container_status_pool_, scratch_.container_statuses, d.container_statuses, count,
                       [&](auto& e, const auto& c) {
                           e.kind = c.kind;
                           e.state = c.state;
                           e.restart_count = c.restart_count;
                           e.exit_code = c.exit_code;
                           e.name = intern(c.name);
                           e.reason = intern(c.reason);
                       });
}

const kd_pod_spec* ModelPools::intern_pod_spec(const PodDraft& d, std::string_view scheduler,
                                               const std::vector<std::pair<std::string_view, int64_t>>& requests) {
    auto spec = zeroed<kd_pod_spec>();
    spec.struct_size = sizeof(kd_pod_spec);
    spec.namespace_ = intern(d.meta.ns);
    spec.labels = intern_kvs(d.meta.labels);
    spec.scheduler_name = intern(scheduler);
    schema::copy_bound(
        spec, d.bound_spec, [&](std::string_view s) { return intern(s); },
        [&](const void* data, size_t bytes) { return keep_array(data, bytes); });
    spec.owners =
        intern_each(owner_pool_, scratch_.owners, d.meta.owners, spec.owner_count, [&](auto& e, const auto& o) {
            e.api_version = intern(o.api_version);
            e.kind = intern(o.kind);
            e.name = intern(o.name);
            e.uid = intern(o.uid);
            e.controller = o.controller ? 1 : 0;
        });
    spec.requests = intern_resources(requests);
    spec.node_selector = intern_kvs(d.node_selector);

    auto& terms = scratch_.terms;
    terms.clear();
    for (const auto& t : d.affinity_terms) {
        auto reqs = [&](const std::vector<SelectorRequirementDraft>& in) {
            std::vector<kd_selector_requirement> out;
            for (const auto& r : in) {
                auto& values = scratch_.strs;
                values.clear();
                for (auto v : r.values) values.push_back(intern(v));
                auto e = zeroed<kd_selector_requirement>();
                e.struct_size = sizeof(kd_selector_requirement);
                e.key = intern(r.key);
                e.operator_ = intern(r.op);
                e.values = {str_pool_.intern(values), values.size()};
                out.push_back(e);
            }
            return out;
        };
        auto ex = reqs(t.expressions);
        auto fl = reqs(t.fields);
        auto e = zeroed<kd_node_selector_term>();
        e.struct_size = sizeof(kd_node_selector_term);
        e.match_expressions = requirement_pool_.intern(ex);
        e.match_expression_count = ex.size();
        e.match_fields = requirement_pool_.intern(fl);
        e.match_field_count = fl.size();
        terms.push_back(e);
    }
    spec.affinity_terms = term_pool_.intern(terms);
    spec.affinity_term_count = terms.size();

    return &(specs_.emplace_back() = spec);
}

const kd_pod_condition* ModelPools::conditions(const PodDraft& d, size_t& count) {
    ContentKey key;
    for (const auto& c : d.conditions) key.add(c.type, c.status, c.reason, c.message);
    ConditionList list = condition_cache_.find_or_make(key, [&] {
        size_t n = 0;
        const kd_pod_condition* items = intern_conditions(d, n);
        return ConditionList{items, n};
    });
    count = list.count;
    return list.items;
}

const int32_t* ModelPools::condition_transitions(const PodDraft& d) {
    auto& out = scratch_.transitions;
    out.clear();
    bool any = false;
    for (const auto& c : d.conditions) {
        any = any || c.transition_ms.has_value();
        out.push_back(c.transition_ms ? kd::condition_transition_entry(d.meta.creation_ms, *c.transition_ms)
                                      : KD_NO_TRANSITION);
    }
    return any ? transition_pool_.intern(out) : nullptr;
}

const kd_taint* ModelPools::taints(const NodeDraft& d, size_t& count) {
    return intern_each(taint_pool_, scratch_.taints, d.taints, count, [&](auto& e, const auto& t) {
        e.key = intern(t.key);
        e.value = intern(t.value);
        e.effect = intern(t.effect);
    });
}

}  // namespace kd::core
