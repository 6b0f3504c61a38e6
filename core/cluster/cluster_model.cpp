#include "cluster/cluster_model.hpp"

#include "cluster/content_key.hpp"
#include "cluster/migration_json.hpp"
#include "cluster/pod_derivations.hpp"

#include <algorithm>

namespace kd::core {

struct ClusterModel::NodeRecord {
    kd_node node{};
    std::string uid_text, name_text;  // nodes are few: owned strings keep deletion simple
    bool alive = false;
};

// A NodeMetric owns its arrays: usage values differ per pod, so there is nothing to share.
struct ClusterModel::MetricRecord {
    kd_node_metric metric{};
    std::vector<kd_resource> resources;  // system usage first, then every pod's usage
    std::vector<kd_pod_metric> pods;
    size_t own_name_bytes = 0;  // names copied into the unique text (pods unknown when it arrived)
};

namespace {

size_t hash_ns_name(std::string_view ns, std::string_view name) {
    return fast_hash(ns) * 1000003u ^ fast_hash(name);
}

}  // namespace

ClusterModel::ClusterModel()
    : pod_index_([this](uint32_t s) { return pod_uid_hash(s); }, [this] { return pod_slot_count(); },
                 [this](uint32_t s) { return pod_slots_[s].alive(); }),
      pod_name_index_([this](uint32_t s) { return pod_name_hash(s); }, [this] { return pod_slot_count(); },
                      [this](uint32_t s) { return pod_slots_[s].alive(); }),
      workload_index_([this](uint32_t s) { return fast_hash(workload_slots_[s].uid); },
                      [this] { return workload_slots_.size(); },
                      [this](uint32_t s) { return !workload_slots_[s].kind.empty(); }),
      workload_name_index_(
          [this](uint32_t s) {
              const Workload& w = workload_slots_[s];
              return workload_name_hash(w.kind, w.ns, w.name);
          },
          [this] { return workload_slots_.size(); }, [this](uint32_t s) { return !workload_slots_[s].kind.empty(); }) {}

uint32_t ClusterModel::pod_slot_count() const {
    return pod_slots_.size();
}

ClusterModel::~ClusterModel() = default;

size_t ClusterModel::pod_uid_hash(uint32_t slot) const {
    return fast_hash(view(pod_slots_[slot].pod.uid));
}

size_t ClusterModel::pod_name_hash(uint32_t slot) const {
    const kd_pod& p = pod_slots_[slot].pod;
    return hash_ns_name(view(p.spec->namespace_), view(p.name));
}

kd_key_value_list ClusterModel::intern_kvs(const std::vector<KeyValueDraft>& kvs) {
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

kd_resource_list ClusterModel::intern_resources(const std::vector<std::pair<std::string_view, int64_t>>& rs) {
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

// ---------------------------------------------------------------------------------------------
// Pods

// The pod's template part: looked up by content first, interned string by string only when new.
const kd_pod_spec* ClusterModel::pod_spec(const PodDraft& d) {
    auto& requests = scratch_.requests;
    effective_requests(d, requests);
    std::string_view scheduler = d.scheduler_name.empty() ? std::string_view("default-scheduler") : d.scheduler_name;
    ContentKey key;
    key.add(d.meta.ns).add(scheduler).add(d.priority_class_name).add_word(d.meta.labels.size());
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
    key.add_word(d.tolerations.size());
    for (const auto& t : d.tolerations) key.add(t.key, t.op, t.value, t.effect);
    if (const auto* cached = spec_cache_.find(key)) return *cached;
    const kd_pod_spec* spec = intern_pod_spec(d, scheduler, requests);
    spec_cache_.insert(key, spec);
    return spec;
}

kd_key_value_list ClusterModel::cached_kvs(const std::vector<KeyValueDraft>& kvs) {
    if (kvs.empty()) return {nullptr, 0};
    ContentKey key;
    for (const auto& [k, v] : kvs) key.add(k, v);
    if (const auto* cached = kv_cache_.find(key)) return *cached;
    kd_key_value_list l = intern_kvs(kvs);
    kv_cache_.insert(key, l);
    return l;
}

const kd_pod_condition* ClusterModel::intern_conditions(const PodDraft& d, size_t& count) {
    auto& conds = scratch_.conditions;
    conds.clear();
    for (const auto& c : d.conditions) {
        auto e = zeroed<kd_pod_condition>();
        e.struct_size = sizeof(kd_pod_condition);
        e.type = intern(c.type);
        e.status = intern(c.status);
        e.reason = intern(c.reason);
        e.message = intern(c.message);
        conds.push_back(e);
    }
    count = conds.size();
    return condition_pool_.intern(conds);
}

// In the draft's order, which is kd_pod's (the decoders keep it).
const kd_container_status* ClusterModel::intern_container_statuses(const PodDraft& d, size_t& count) {
    auto& out = scratch_.container_statuses;
    out.clear();
    for (const auto& c : d.container_statuses) {
        auto e = zeroed<kd_container_status>();
        e.struct_size = sizeof(kd_container_status);
        e.kind = c.kind;
        e.state = c.state;
        e.restart_count = c.restart_count;
        e.exit_code = c.exit_code;
        e.name = intern(c.name);
        e.reason = intern(c.reason);
        out.push_back(e);
    }
    count = out.size();
    return container_status_pool_.intern(out);
}

const kd_pod_spec* ClusterModel::intern_pod_spec(const PodDraft& d, std::string_view scheduler,
                                                 const std::vector<std::pair<std::string_view, int64_t>>& requests) {
    auto spec = zeroed<kd_pod_spec>();
    spec.struct_size = sizeof(kd_pod_spec);
    spec.namespace_ = intern(d.meta.ns);
    spec.labels = intern_kvs(d.meta.labels);
    spec.scheduler_name = intern(scheduler);
    spec.priority_class_name = intern(d.priority_class_name);
    auto& owners = scratch_.owners;
    owners.clear();
    for (const auto& o : d.meta.owners) {
        auto e = zeroed<kd_owner_reference>();
        e.struct_size = sizeof(kd_owner_reference);
        e.api_version = intern(o.api_version);
        e.kind = intern(o.kind);
        e.name = intern(o.name);
        e.uid = intern(o.uid);
        e.controller = o.controller ? 1 : 0;
        owners.push_back(e);
    }
    spec.owners = owner_pool_.intern(owners);
    spec.owner_count = owners.size();
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

    auto& tols = scratch_.tolerations;
    tols.clear();
    for (const auto& t : d.tolerations) {
        auto e = zeroed<kd_toleration>();
        e.struct_size = sizeof(kd_toleration);
        e.key = intern(t.key);
        e.operator_ = intern(t.op);
        e.value = intern(t.value);
        e.effect = intern(t.effect);
        tols.push_back(e);
    }
    spec.tolerations = toleration_pool_.intern(tols);
    spec.toleration_count = tols.size();
    return &(specs_.emplace_back() = spec);
}

void ClusterModel::on_pod(const PodDraft& d) {
    ++revision_;
    std::string derived_uid;
    if (d.meta.uid.empty()) derived_uid = key_of(ObjectKind::pod, "", d.meta.ns, d.meta.name);
    std::string_view uid = d.meta.uid.empty() ? std::string_view(derived_uid) : d.meta.uid;
    uint32_t slot = find_pod_slot(uid);
    bool existing = slot != SlotIndex::kNone;
    if (existing) {
        unlink_pod(slot);  // same UID: its strings and index entries stay
    } else {
        if (!free_pod_slots_.empty()) {
            slot = free_pod_slots_.back();
            free_pod_slots_.pop_back();
        } else {
            slot = pod_slots_.size();
            pod_slots_.emplace_back();
        }
    }
    PodRecord& rec = pod_slots_[slot];
    kd_pod p{};
    p.struct_size = sizeof(kd_pod);
    if (existing) {
        p.uid = rec.pod.uid;
        p.name = rec.pod.name;
    } else {
        auto u = unique_text_.copy(uid);
        auto n = unique_text_.copy(d.meta.name);
        p.uid = kd_str{u.data(), u.size()};
        p.name = kd_str{n.data(), n.size()};
    }
    p.node_name = intern(d.node_name);
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
    p.spec = pod_spec(d);
    p.annotations = cached_kvs(d.meta.annotations);

    for (const auto& c : d.conditions)
        if (c.type == "Ready" && c.status == "True") p.flags |= KD_POD_READY;
    ContentKey ckey;
    for (const auto& c : d.conditions) ckey.add(c.type, c.status, c.reason, c.message);
    if (const auto* cached = condition_cache_.find(ckey)) {
        p.conditions = cached->items;
        p.condition_count = cached->count;
    } else {
        p.conditions = intern_conditions(d, p.condition_count);
        condition_cache_.insert(ckey, {p.conditions, p.condition_count});
    }
    p.status_reason = intern(d.status_reason);
    p.container_statuses = intern_container_statuses(d, p.container_status_count);
    rec.pod = p;
    if (!existing) {
        pod_index_.insert(fast_hash(uid), slot);
        pod_name_index_.insert(hash_ns_name(view(p.spec->namespace_), view(p.name)), slot);
    }
    pods_by_node_[view(p.node_name)].push_back(slot);
    for (size_t i = 0; i < p.spec->owner_count; ++i) pods_by_owner_[view(p.spec->owners[i].uid)].push_back(slot);
}

uint32_t ClusterModel::find_pod_slot(std::string_view uid) const {
    return pod_index_.find(fast_hash(uid), [&](uint32_t s) { return view(pod_slots_[s].pod.uid) == uid; });
}

void ClusterModel::unlink_pod(uint32_t slot) {
    const kd_pod& p = pod_slots_[slot].pod;
    auto& on_node = pods_by_node_[view(p.node_name)];
    on_node.erase(std::remove(on_node.begin(), on_node.end(), slot), on_node.end());
    for (size_t i = 0; i < p.spec->owner_count; ++i) {
        auto& by_owner = pods_by_owner_[view(p.spec->owners[i].uid)];
        by_owner.erase(std::remove(by_owner.begin(), by_owner.end(), slot), by_owner.end());
    }
}

bool ClusterModel::delete_pod(std::string_view uid) {
    ++revision_;
    uint32_t slot = find_pod_slot(uid);
    if (slot == SlotIndex::kNone) return false;
    unlink_pod(slot);
    pod_index_.erase(pod_uid_hash(slot), slot);
    pod_name_index_.erase(pod_name_hash(slot), slot);
    PodRecord& rec = pod_slots_[slot];
    dead_unique_bytes_ += rec.pod.uid.size + rec.pod.name.size;
    rec.pod = kd_pod{};
    free_pod_slots_.push_back(slot);
    compact_unique_text_if_mostly_garbage();
    return true;
}

const kd_pod* ClusterModel::pod_by_uid(std::string_view uid) const {
    uint32_t slot = find_pod_slot(uid);
    return slot == SlotIndex::kNone ? nullptr : &pod_slots_[slot].pod;
}

const kd_pod* ClusterModel::pod_by_name(std::string_view ns, std::string_view name) const {
    return pod_by_name(hash_ns_name(ns, name), ns, name);
}

const kd_pod* ClusterModel::pod_by_name(size_t hash, std::string_view ns, std::string_view name) const {
    uint32_t slot = pod_name_index_.find(hash, [&](uint32_t s) {
        const kd_pod& p = pod_slots_[s].pod;
        return view(p.name) == name && view(p.spec->namespace_) == ns;
    });
    return slot == SlotIndex::kNone ? nullptr : &pod_slots_[slot].pod;
}

void ClusterModel::find_pods(const std::vector<NodeMetricDraft::PodUsage>& named,
                             std::vector<const kd_pod*>& out) const {
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
            pod_name_index_.prefetch(hashes[i]);
        }
        for (size_t i = 0; i < n; ++i) {
            slots[i] = pod_name_index_.candidate(hashes[i]);
            if (slots[i] == SlotIndex::kNone) continue;
            const kd_pod& p = pod_slots_[slots[i]].pod;
            __builtin_prefetch(&p.name);
            __builtin_prefetch(&p.spec);
        }
        for (size_t i = 0; i < n; ++i) {
            if (slots[i] == SlotIndex::kNone) continue;
            const kd_pod& p = pod_slots_[slots[i]].pod;
            __builtin_prefetch(p.name.data);
            __builtin_prefetch(p.spec);
        }
        for (size_t i = 0; i < n; ++i) out[first + i] = pod_by_name(hashes[i], group[i].ns, group[i].name);
    }
}

std::vector<const kd_pod*> ClusterModel::pods_on_node(std::string_view node_name) const {
    std::vector<const kd_pod*> out;
    std::string_view interned = strings_.find(node_name);
    if (interned.empty()) return out;  // never named, or unbound pods, which are not "on" a node
    if (const auto* slots = pods_by_node_.find(interned))
        for (uint32_t s : *slots) out.push_back(&pod_slots_[s].pod);
    return out;
}

std::vector<const kd_pod*> ClusterModel::pods_by_owner(std::string_view owner_uid) const {
    std::vector<const kd_pod*> out;
    std::string_view interned = strings_.find(owner_uid);
    if (interned.empty()) return out;
    if (const auto* slots = pods_by_owner_.find(interned))
        for (uint32_t s : *slots) out.push_back(&pod_slots_[s].pod);
    return out;
}

std::vector<const kd_pod*> ClusterModel::pods() const {
    std::vector<const kd_pod*> out;
    out.reserve(pod_index_.size());
    for (const auto& r : pod_slots_)
        if (r.alive()) out.push_back(&r.pod);
    return out;
}

// ---------------------------------------------------------------------------------------------
// Nodes and NodeMetrics

void ClusterModel::on_node(const NodeDraft& d) {
    ++revision_;
    std::string uid = key_of(ObjectKind::node, d.meta.uid, "", d.meta.name);
    uint32_t slot;
    auto it = node_by_uid_.find(uid);
    if (it != node_by_uid_.end()) {
        slot = it->second;
        node_by_name_.erase(view(node_slots_[slot].node.name));
    } else if (!free_node_slots_.empty()) {
        slot = free_node_slots_.back();
        free_node_slots_.pop_back();
    } else {
        slot = static_cast<uint32_t>(node_slots_.size());
        node_slots_.emplace_back();
    }
    NodeRecord& rec = node_slots_[slot];
    rec.uid_text = uid;
    rec.name_text = std::string(d.meta.name);
    kd_node n{};
    n.struct_size = sizeof(kd_node);
    n.unschedulable = d.unschedulable ? 1 : 0;
    n.ready = !d.ready_status || *d.ready_status == "True";
    n.uid = kd_str{rec.uid_text.data(), rec.uid_text.size()};
    n.name = intern(d.meta.name);
    n.labels = intern_kvs(d.meta.labels);
    n.annotations = intern_kvs(d.meta.annotations);
    std::vector<kd_taint> taints;
    for (const auto& t : d.taints) {
        auto e = zeroed<kd_taint>();
        e.struct_size = sizeof(kd_taint);
        e.key = intern(t.key);
        e.value = intern(t.value);
        e.effect = intern(t.effect);
        taints.push_back(e);
    }
    n.taints = taint_pool_.intern(taints);
    n.taint_count = taints.size();
    n.allocatable = intern_resources(d.allocatable);
    if (auto raw = raw_allocatable(d)) {
        std::vector<std::pair<std::string_view, int64_t>> views(raw->begin(), raw->end());
        n.raw_allocatable = intern_resources(views);
    } else {
        n.raw_allocatable = n.allocatable;
    }
    rec.node = n;
    rec.alive = true;
    node_by_uid_[uid] = slot;
    node_by_name_[view(n.name)] = slot;
}

bool ClusterModel::delete_node(std::string_view uid) {
    ++revision_;
    auto it = node_by_uid_.find(std::string(uid));
    if (it == node_by_uid_.end()) return false;
    NodeRecord& rec = node_slots_[it->second];
    node_by_name_.erase(view(rec.node.name));
    rec.alive = false;
    rec.node = kd_node{};
    free_node_slots_.push_back(it->second);
    node_by_uid_.erase(it);
    return true;
}

const kd_node* ClusterModel::node_by_name(std::string_view name) const {
    auto it = node_by_name_.find(name);
    return it == node_by_name_.end() ? nullptr : &node_slots_[it->second].node;
}

std::vector<const kd_node*> ClusterModel::nodes() const {
    std::vector<const kd_node*> out;
    for (const auto& r : node_slots_)
        if (r.alive) out.push_back(&r.node);
    // Name order: deterministic whatever order the objects arrived in.
    std::sort(out.begin(), out.end(), [](const kd_node* a, const kd_node* b) { return view(a->name) < view(b->name); });
    return out;
}

void ClusterModel::on_node_metric(const NodeMetricDraft& d) {
    ++revision_;
    auto rec = std::make_unique<MetricRecord>();
    size_t total = d.system_usage.size();
    for (const auto& p : d.pods) total += p.usage.size();
    rec->resources.reserve(total);  // no reallocation below: pointers into it are taken
    auto add = [&](const ResourceDraft& rs) {
        kd_resource_list l{rec->resources.data() + rec->resources.size(), rs.size()};
        for (const auto& [name, milli] : rs) {
            auto e = zeroed<kd_resource>();
            e.name = intern(name);
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
    std::vector<const kd_pod*>& known = scratch_.pods;
    find_pods(d.pods, known);
    for (size_t i = 0; i < d.pods.size(); ++i) {
        const auto& p = d.pods[i];
        auto e = zeroed<kd_pod_metric>();
        e.struct_size = sizeof(kd_pod_metric);
        e.namespace_ = intern(p.ns);
        // Pod names are unique, so not interned: share the pod's own text when the pod is known
        // (compaction re-copies both), else keep a copy with the unique text.
        if (const kd_pod* pod = known[i]) {
            e.name = pod->name;
        } else {
            auto name = unique_text_.copy(p.name);
            e.name = kd_str{name.data(), name.size()};
            rec->own_name_bytes += name.size();
        }
        e.usage = add(p.usage);
        rec->pods.push_back(e);
    }
    m.pods = rec->pods.data();
    m.pod_count = rec->pods.size();
    rec->metric = m;
    auto& slot = metrics_[std::string(d.meta.name)];
    std::unique_ptr<MetricRecord> old = std::move(slot);
    slot = std::move(rec);
    if (old) retire_metric_names(*old);  // after the new record is in place: compaction must see it
}

void ClusterModel::retire_metric_names(const MetricRecord& rec) {
    dead_unique_bytes_ += rec.own_name_bytes;
    compact_unique_text_if_mostly_garbage();
}

void ClusterModel::compact_unique_text_if_mostly_garbage() {
    // Unique strings of deleted objects are garbage; rewrite the live ones once garbage dominates.
    if (dead_unique_bytes_ <= (1u << 20) || dead_unique_bytes_ * 2 <= unique_text_.bytes()) return;
    TextArena fresh;
    auto move = [&](kd_str& s) {
        auto v = fresh.copy(view(s));
        s = kd_str{v.data(), v.size()};
    };
    for (auto& r : pod_slots_) {
        if (!r.alive()) continue;
        move(r.pod.uid);
        move(r.pod.name);
    }
    for (auto& [node, rec] : metrics_) {
        if (!rec) continue;
        rec->own_name_bytes = 0;
        for (auto& p : rec->pods) {
            move(p.name);
            rec->own_name_bytes += p.name.size;
        }
    }
    unique_text_ = std::move(fresh);
    dead_unique_bytes_ = 0;
}

void ClusterModel::touch_node_metrics(int64_t update_ms) {
    ++revision_;
    for (auto& [name, rec] : metrics_) rec->metric.update_time_ms = update_ms;
}

bool ClusterModel::delete_node_metric(std::string_view node_name) {
    ++revision_;
    auto it = metrics_.find(std::string(node_name));
    if (it == metrics_.end()) return false;
    retire_metric_names(*it->second);
    metrics_.erase(it);
    return true;
}

const kd_node_metric* ClusterModel::node_metric(std::string_view node_name) const {
    auto it = metrics_.find(std::string(node_name));
    return it == metrics_.end() ? nullptr : &it->second->metric;
}

// ---------------------------------------------------------------------------------------------
// Workloads, PDBs, namespaces, secrets, migration objects

namespace {

std::map<std::string, std::string> to_map(const std::vector<KeyValueDraft>& kvs) {
    std::map<std::string, std::string> out;
    for (const auto& [k, v] : kvs) out.emplace(k, v);
    return out;
}

}  // namespace

size_t ClusterModel::workload_name_hash(std::string_view kind, std::string_view ns, std::string_view name) {
    return hash_ns_name(ns, name) * 31 ^ fast_hash(kind);
}

uint32_t ClusterModel::find_workload_slot(std::string_view uid) const {
    return workload_index_.find(fast_hash(uid), [&](uint32_t s) { return workload_slots_[s].uid == uid; });
}

void ClusterModel::on_workload(const WorkloadDraft& d) {
    ++revision_;
    std::string derived =
        d.meta.uid.empty() ? key_of(object_kind(d.kind).value_or(ObjectKind::replica_set), "", d.meta.ns, d.meta.name)
                           : "";
    std::string_view uid = d.meta.uid.empty() ? std::string_view(derived) : d.meta.uid;
    uint32_t slot = find_workload_slot(uid);
    bool existing = slot != SlotIndex::kNone;
    if (existing) {
        const Workload& old = workload_slots_[slot];
        workload_name_index_.erase(workload_name_hash(old.kind, old.ns, old.name), slot);
    } else if (!free_workload_slots_.empty()) {
        slot = free_workload_slots_.back();
        free_workload_slots_.pop_back();
    } else {
        slot = workload_slots_.size();
        workload_slots_.emplace_back();
    }
    Workload& w = workload_slots_[slot];
    // Interned, not unique text: the pods' ownerReferences name the same UIDs and names.
    w.uid = view(intern(uid));
    w.name = view(intern(d.meta.name));
    w.kind = view(intern(d.kind));
    w.ns = view(intern(d.meta.ns));
    w.controller_kind = w.controller_name = w.controller_uid = {};
    for (const auto& o : d.meta.owners) {
        if (!o.controller) continue;
        w.controller_kind = view(intern(o.kind));
        w.controller_name = view(intern(o.name));
        w.controller_uid = view(intern(o.uid));
    }
    w.replicas = d.replicas;
    w.ready_replicas = d.ready_replicas;
    if (!existing) workload_index_.insert(fast_hash(w.uid), slot);
    workload_name_index_.insert(workload_name_hash(w.kind, w.ns, w.name), slot);
}

bool ClusterModel::delete_workload(std::string_view uid) {
    ++revision_;
    uint32_t slot = find_workload_slot(uid);
    if (slot == SlotIndex::kNone) return false;
    Workload& w = workload_slots_[slot];
    workload_index_.erase(fast_hash(w.uid), slot);
    workload_name_index_.erase(workload_name_hash(w.kind, w.ns, w.name), slot);
    w = Workload{};  // empty kind marks a free slot
    free_workload_slots_.push_back(slot);
    return true;
}

const Workload* ClusterModel::workload_by_uid(std::string_view uid) const {
    uint32_t slot = find_workload_slot(uid);
    return slot == SlotIndex::kNone ? nullptr : &workload_slots_[slot];
}

const Workload* ClusterModel::workload_by_name(std::string_view kind, std::string_view ns,
                                               std::string_view name) const {
    uint32_t slot = workload_name_index_.find(workload_name_hash(kind, ns, name), [&](uint32_t s) {
        const Workload& w = workload_slots_[s];
        return w.name == name && w.ns == ns && w.kind == kind;
    });
    return slot == SlotIndex::kNone ? nullptr : &workload_slots_[slot];
}

void ClusterModel::on_pdb(const PodDisruptionBudgetDraft& d) {
    ++revision_;
    PodDisruptionBudget b;
    b.uid = key_of(ObjectKind::pdb, d.meta.uid, d.meta.ns, d.meta.name);
    b.ns = std::string(d.meta.ns);
    b.name = std::string(d.meta.name);
    b.selector = d.selector;
    b.min_available = d.min_available;
    b.max_unavailable = d.max_unavailable;
    b.disruptions_allowed = d.disruptions_allowed;
    pdbs_[b.uid] = std::move(b);
}

void ClusterModel::on_namespace(const NamespaceDraft& d) {
    ++revision_;
    Namespace n;
    n.uid = key_of(ObjectKind::namespace_, d.meta.uid, "", d.meta.name);
    n.name = std::string(d.meta.name);
    n.labels = to_map(d.meta.labels);
    namespaces_[n.uid] = std::move(n);
}

void ClusterModel::on_secret(const SecretDraft& d) {
    ++revision_;
    Secret s;
    s.uid = key_of(ObjectKind::secret, d.meta.uid, d.meta.ns, d.meta.name);
    s.ns = std::string(d.meta.ns);
    s.name = std::string(d.meta.name);
    s.data = to_map(d.data);
    secrets_[s.uid] = std::move(s);
}

const Secret* ClusterModel::secret(std::string_view ns, std::string_view name) const {
    for (const auto& [uid, s] : secrets_)
        if (s.ns == ns && s.name == name) return &s;
    return nullptr;
}

namespace {

// The few owned kinds (PodMigrationJob, Reservation) share their storage rules: keyed by UID,
// one derived from kind and name when the object has none.
template <class T>
void upsert(std::map<std::string, T, std::less<>>& objects, T obj, ObjectKind kind) {
    if (obj.uid.empty()) obj.uid = ClusterModel::key_of(kind, "", "", obj.name);
    std::string uid = obj.uid;
    objects[uid] = std::move(obj);
}

template <class T>
const T* find_uid(const std::map<std::string, T, std::less<>>& objects, std::string_view uid) {
    auto it = objects.find(uid);
    return it == objects.end() ? nullptr : &it->second;
}

template <class T>
bool erase_uid(std::map<std::string, T, std::less<>>& objects, std::string_view uid) {
    auto it = objects.find(uid);
    if (it == objects.end()) return false;
    objects.erase(it);
    return true;
}

}  // namespace

void ClusterModel::on_migration_job(PodMigrationJob job) {
    ++revision_;
    if (job.wire.empty()) job.wire = to_json(job);  // built field by field (tests)
    upsert(jobs_, std::move(job), ObjectKind::migration_job);
}

bool ClusterModel::delete_migration_job(std::string_view uid) {
    ++revision_;
    return erase_uid(jobs_, uid);
}

const PodMigrationJob* ClusterModel::migration_job(std::string_view uid) const {
    return find_uid(jobs_, uid);
}

const PodMigrationJob* ClusterModel::migration_job_by_name(std::string_view name) const {
    for (const auto& [uid, j] : jobs_)
        if (j.name == name) return &j;
    return nullptr;
}

std::vector<const PodMigrationJob*> ClusterModel::migration_jobs_for_pod(std::string_view pod_uid) const {
    std::vector<const PodMigrationJob*> out;
    for (const auto& [uid, j] : jobs_)
        if (j.pod_ref.uid == pod_uid) out.push_back(&j);
    return out;
}

std::vector<const PodMigrationJob*> ClusterModel::migration_jobs_for_pod_name(std::string_view ns,
                                                                              std::string_view name) const {
    std::vector<const PodMigrationJob*> out;
    for (const auto& [uid, j] : jobs_)
        if (j.pod_ref.ns == ns && j.pod_ref.name == name) out.push_back(&j);
    return out;
}

void ClusterModel::on_reservation(Reservation r) {
    ++revision_;
    if (r.wire.empty()) r.wire = to_json(r);
    upsert(reservations_, std::move(r), ObjectKind::reservation);
}

bool ClusterModel::delete_reservation(std::string_view uid) {
    ++revision_;
    return erase_uid(reservations_, uid);
}

const Reservation* ClusterModel::reservation(std::string_view uid) const {
    return find_uid(reservations_, uid);
}

const Reservation* ClusterModel::reservation_by_name(std::string_view name) const {
    for (const auto& [uid, r] : reservations_)
        if (r.name == name) return &r;
    return nullptr;
}

bool ClusterModel::delete_pdb(std::string_view uid) {
    ++revision_;
    return pdbs_.erase(std::string(uid)) > 0;
}

bool ClusterModel::delete_namespace(std::string_view uid) {
    ++revision_;
    return namespaces_.erase(std::string(uid)) > 0;
}

bool ClusterModel::delete_secret(std::string_view uid) {
    ++revision_;
    return secrets_.erase(std::string(uid)) > 0;
}

// ---------------------------------------------------------------------------------------------
// Any kind, by key

std::string ClusterModel::key_of(ObjectKind kind, std::string_view uid, std::string_view ns, std::string_view name) {
    if (kind == ObjectKind::node_metric) return std::string(name);
    if (!uid.empty()) return std::string(uid);
    switch (kind) {
        case ObjectKind::pod:
            return "pod/" + std::string(ns) + "/" + std::string(name);
        case ObjectKind::node:
            return "node/" + std::string(name);
        case ObjectKind::migration_job:
        case ObjectKind::reservation:
            return std::string(kind_name(kind)) + "/" + std::string(name);
        default:
            return std::string(kind_name(kind)) + "/" + std::string(ns) + "/" + std::string(name);
    }
}

namespace {

template <class Map>
void append_keys(const Map& objects, std::vector<std::string>& out) {
    for (const auto& [key, object] : objects) out.push_back(key);
}

}  // namespace

std::vector<std::string> ClusterModel::keys_of(ObjectKind kind) const {
    std::vector<std::string> out;
    switch (kind) {
        case ObjectKind::pod:
            for (const auto& r : pod_slots_)
                if (r.alive()) out.emplace_back(view(r.pod.uid));
            break;
        case ObjectKind::node:
            append_keys(node_by_uid_, out);
            break;
        case ObjectKind::node_metric:
            append_keys(metrics_, out);
            break;
        case ObjectKind::pdb:
            append_keys(pdbs_, out);
            break;
        case ObjectKind::namespace_:
            append_keys(namespaces_, out);
            break;
        case ObjectKind::secret:
            append_keys(secrets_, out);
            break;
        case ObjectKind::migration_job:
            append_keys(jobs_, out);
            break;
        case ObjectKind::reservation:
            append_keys(reservations_, out);
            break;
        default:  // the workload kinds
            for (const auto& w : workload_slots_)
                if (!w.kind.empty() && w.kind == kind_name(kind)) out.emplace_back(w.uid);
            break;
    }
    return out;
}

bool ClusterModel::remove(ObjectKind kind, std::string_view key) {
    switch (kind) {
        case ObjectKind::pod:
            return delete_pod(key);
        case ObjectKind::node:
            return delete_node(key);
        case ObjectKind::node_metric:
            return delete_node_metric(key);
        case ObjectKind::pdb:
            return delete_pdb(key);
        case ObjectKind::namespace_:
            return delete_namespace(key);
        case ObjectKind::secret:
            return delete_secret(key);
        case ObjectKind::migration_job:
            return delete_migration_job(key);
        case ObjectKind::reservation:
            return delete_reservation(key);
        default:
            return delete_workload(key);
    }
}

}  // namespace kd::core
