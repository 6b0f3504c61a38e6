#include "cluster/relist.hpp"

namespace kd::core {

void Relist::seen(ObjectKind kind, std::string_view uid, std::string_view ns, std::string_view name) {
    if (kind == kind_) seen_.insert(ClusterModel::key_of(kind, uid, ns, name));
}

void Relist::on_pod(const PodDraft& d) {
    seen(ObjectKind::pod, d.meta.uid, d.meta.ns, d.meta.name);
    model_.on_pod(d);
}

void Relist::on_node(const NodeDraft& d) {
    seen(ObjectKind::node, d.meta.uid, "", d.meta.name);
    model_.on_node(d);
}

void Relist::on_node_metric(const NodeMetricDraft& d) {
    seen(ObjectKind::node_metric, d.meta.uid, "", d.meta.name);
    model_.on_node_metric(d);
}

void Relist::on_workload(const WorkloadDraft& d) {
    if (auto kind = object_kind(d.kind)) seen(*kind, d.meta.uid, d.meta.ns, d.meta.name);
    model_.on_workload(d);
}

void Relist::on_pdb(const PodDisruptionBudgetDraft& d) {
    seen(ObjectKind::pdb, d.meta.uid, d.meta.ns, d.meta.name);
    model_.on_pdb(d);
}

void Relist::on_namespace(const NamespaceDraft& d) {
    seen(ObjectKind::namespace_, d.meta.uid, "", d.meta.name);
    model_.on_namespace(d);
}

void Relist::on_priority_class(const PriorityClassDraft& d) {
    seen(ObjectKind::priority_class, d.meta.uid, "", d.meta.name);
    model_.on_priority_class(d);
}

void Relist::on_pvc(const PersistentVolumeClaimDraft& d) {
    seen(ObjectKind::pvc, d.meta.uid, d.meta.ns, d.meta.name);
    model_.on_pvc(d);
}

void Relist::on_secret(const SecretDraft& d) {
    seen(ObjectKind::secret, d.meta.uid, d.meta.ns, d.meta.name);
    model_.on_secret(d);
}

void Relist::on_migration_job(PodMigrationJob job) {
    seen(ObjectKind::migration_job, job.uid, "", job.name);
    model_.on_migration_job(std::move(job));
}

void Relist::on_reservation(Reservation r) {
    seen(ObjectKind::reservation, r.uid, "", r.name);
    model_.on_reservation(std::move(r));
}

size_t Relist::finish() {
    size_t removed = 0;
    for (const std::string& key : model_.keys_of(kind_))
        if (!seen_.count(key) && model_.remove(kind_, key)) ++removed;
    return removed;
}

}  // namespace kd::core
