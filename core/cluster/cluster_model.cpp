#include "cluster/cluster_model.hpp"

#include "cluster/migration_json.hpp"

#include <map>

namespace kd::core {

ClusterModel::ClusterModel() = default;
ClusterModel::~ClusterModel() = default;

namespace {

// The object's UID, or its derived key (kept in `derived`) when it has none: no copy of a UID.
std::string_view uid_or_key(ObjectKind kind, const ObjectMetaDraft& meta, std::string& derived) {
    if (!meta.uid.empty()) return meta.uid;
    derived = ClusterModel::key_of(kind, "", meta.ns, meta.name);
    return derived;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Adding and replacing

void ClusterModel::on_pod(const PodDraft& d) {
    ++revision_;
    std::string derived;
    pods_.put(d, uid_or_key(ObjectKind::pod, d.meta, derived), pools_);
}

void ClusterModel::on_node(const NodeDraft& d) {
    ++revision_;
    nodes_.put(d, key_of(ObjectKind::node, d.meta.uid, "", d.meta.name), pools_);
}

void ClusterModel::on_node_metric(const NodeMetricDraft& d) {
    ++revision_;
    metrics_.put(d, pools_, pods_);
    compact_unique_text_if_mostly_garbage();
}

void ClusterModel::on_workload(const WorkloadDraft& d) {
    ++revision_;
    std::string derived;
    ObjectKind kind = object_kind(d.kind).value_or(ObjectKind::replica_set);
    workloads_.put(d, uid_or_key(kind, d.meta, derived), pools_);
}

namespace {

std::map<std::string, std::string> to_map(const std::vector<KeyValueDraft>& kvs) {
    std::map<std::string, std::string> out;
    for (const auto& [k, v] : kvs) out.emplace(k, v);
    return out;
}

}  // namespace

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
    pdbs_.put(std::move(b));
}

void ClusterModel::on_namespace(const NamespaceDraft& d) {
    ++revision_;
    Namespace n;
    n.uid = key_of(ObjectKind::namespace_, d.meta.uid, "", d.meta.name);
    n.name = std::string(d.meta.name);
    n.labels = to_map(d.meta.labels);
    namespaces_.put(std::move(n));
}

void ClusterModel::on_priority_class(const PriorityClassDraft& d) {
    ++revision_;
    PriorityClass c;
    c.uid = key_of(ObjectKind::priority_class, d.meta.uid, "", d.meta.name);
    c.name = std::string(d.meta.name);
    c.value = d.value;
    priority_classes_.put(std::move(c));
}

void ClusterModel::on_pvc(const PersistentVolumeClaimDraft& d) {
    ++revision_;
    PersistentVolumeClaim c;
    c.uid = key_of(ObjectKind::pvc, d.meta.uid, d.meta.ns, d.meta.name);
    c.ns = std::string(d.meta.ns);
    c.name = std::string(d.meta.name);
    c.storage_class = std::string(d.storage_class);
    pvcs_.put(std::move(c));
}

void ClusterModel::on_secret(const SecretDraft& d) {
    ++revision_;
    Secret s;
    s.uid = key_of(ObjectKind::secret, d.meta.uid, d.meta.ns, d.meta.name);
    s.ns = std::string(d.meta.ns);
    s.name = std::string(d.meta.name);
    s.data = to_map(d.data);
    secrets_.put(std::move(s));
}

void ClusterModel::on_migration_job(PodMigrationJob job) {
    ++revision_;
    if (job.wire.empty()) job.wire = to_json(job);  // built field by field (tests)
    if (job.uid.empty()) job.uid = key_of(ObjectKind::migration_job, "", "", job.name);
    jobs_.put(std::move(job));
}

void ClusterModel::on_reservation(Reservation r) {
    ++revision_;
    if (r.wire.empty()) r.wire = to_json(r);
    if (r.uid.empty()) r.uid = key_of(ObjectKind::reservation, "", "", r.name);
    reservations_.put(std::move(r));
}

void ClusterModel::on_node_usage(NodeUsage n) {
    ++revision_;
    std::string name = n.name;
    usage_.nodes[name] = std::move(n);
}

void ClusterModel::on_pod_usage(PodUsage p) {
    ++revision_;
    auto key = std::make_pair(p.ns, p.name);
    usage_.pods[key] = std::move(p);
}

void ClusterModel::set_usage_metrics(UsageMetrics metrics) {
    if (metrics == usage_) return;
    ++revision_;
    usage_ = std::move(metrics);
}

void ClusterModel::touch_node_metrics(int64_t update_ms) {
    ++revision_;
    metrics_.touch(update_ms);
}

// ---------------------------------------------------------------------------------------------
// Lookups the small kinds answer by scanning (they are few)

const PodMigrationJob* ClusterModel::migration_job_by_name(std::string_view name) const {
    return jobs_.find_if([&](const PodMigrationJob& j) { return j.name == name; });
}

std::vector<const PodMigrationJob*> ClusterModel::migration_jobs_for_pod(std::string_view pod_uid) const {
    return jobs_.select([&](const PodMigrationJob& j) { return j.pod_ref.uid == pod_uid; });
}

std::vector<const PodMigrationJob*> ClusterModel::migration_jobs_for_pod_name(std::string_view ns,
                                                                              std::string_view name) const {
    return jobs_.select([&](const PodMigrationJob& j) { return j.pod_ref.ns == ns && j.pod_ref.name == name; });
}

const Reservation* ClusterModel::reservation_by_name(std::string_view name) const {
    return reservations_.find_if([&](const Reservation& r) { return r.name == name; });
}

const Secret* ClusterModel::secret(std::string_view ns, std::string_view name) const {
    return secrets_.find_if([&](const Secret& s) { return s.ns == ns && s.name == name; });
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

std::vector<std::string> ClusterModel::keys_of(ObjectKind kind) const {
    switch (kind) {
        case ObjectKind::pod:
            return pods_.keys();
        case ObjectKind::node:
            return nodes_.keys();
        case ObjectKind::node_metric:
            return metrics_.keys();
        case ObjectKind::pdb:
            return pdbs_.keys();
        case ObjectKind::namespace_:
            return namespaces_.keys();
        case ObjectKind::priority_class:
            return priority_classes_.keys();
        case ObjectKind::pvc:
            return pvcs_.keys();
        case ObjectKind::secret:
            return secrets_.keys();
        case ObjectKind::migration_job:
            return jobs_.keys();
        case ObjectKind::reservation:
            return reservations_.keys();
        default:  // the workload kinds
            return workloads_.keys(kind_name(kind));
    }
}

bool ClusterModel::remove(ObjectKind kind, std::string_view key) {
    ++revision_;
    switch (kind) {
        case ObjectKind::pod:
            if (!pods_.erase(key, pools_.unique_text)) return false;
            compact_unique_text_if_mostly_garbage();
            return true;
        case ObjectKind::node:
            return nodes_.erase(key);
        case ObjectKind::node_metric:
            if (!metrics_.erase(key, pools_.unique_text)) return false;
            compact_unique_text_if_mostly_garbage();
            return true;
        case ObjectKind::pdb:
            return pdbs_.erase(key);
        case ObjectKind::namespace_:
            return namespaces_.erase(key);
        case ObjectKind::priority_class:
            return priority_classes_.erase(key);
        case ObjectKind::pvc:
            return pvcs_.erase(key);
        case ObjectKind::secret:
            return secrets_.erase(key);
        case ObjectKind::migration_job:
            return jobs_.erase(key);
        case ObjectKind::reservation:
            return reservations_.erase(key);
        default:  // the workload kinds
            return workloads_.erase(key);
    }
}

void ClusterModel::compact_unique_text_if_mostly_garbage() {
    if (!pools_.unique_text.mostly_garbage()) return;
    TextArena fresh;
    pods_.move_unique_text(fresh);
    metrics_.move_unique_text(fresh);
    pools_.unique_text.replace(std::move(fresh));
}

}  // namespace kd::core
