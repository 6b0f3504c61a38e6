// The in-memory cluster: the objects the descheduler needs, kept compactly (interned strings and
// arrays, the ABI structs stored in place) in one store per kind (store/: pods, nodes,
// NodeMetrics, workloads, and an ObjectStore for each small kind) over shared pools (ModelPools).
// The model is their façade: it derives keys, counts revisions and is the one delete path. It is
// fed incrementally — add, update or delete by key, as a watch delivers them; replaced kind by
// kind on a relist (see Relist) — or in bulk by the snapshot decoders (it is an ObjectSink).
// Every change moves revision() on.
//
// Plugins never see the model itself: a ClusterSnapshot (cluster_snapshot.hpp) is built over it per
// hook call — arrays of pointers into it (no object is copied) wrapped in a kd_snapshot. The model must not change
// while a snapshot built from it is in use.
//
// Threading: one thread owns the model, the control thread. Network threads never touch it: they
// queue what they received, and the control thread applies it between hook calls (see
// runtime/driver.hpp).
#pragma once

#include "cluster/drafts.hpp"
#include "cluster/kind_table.hpp"
#include "cluster/migration_objects.hpp"
#include "cluster/small_kinds.hpp"
#include "cluster/store/model_pools.hpp"
#include "cluster/store/node_metric_store.hpp"
#include "cluster/store/node_store.hpp"
#include "cluster/store/object_store.hpp"
#include "cluster/store/pod_store.hpp"
#include "cluster/store/workload_store.hpp"

#include <kdesched/abi.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kd::core {

class ClusterModel : public ObjectSink {
public:
    ClusterModel();
    ~ClusterModel() override;
    ClusterModel(const ClusterModel&) = delete;
    ClusterModel& operator=(const ClusterModel&) = delete;

    // ObjectSink: add or replace by UID (objects without a UID get one derived from kind/ns/name).
    void on_pod(const PodDraft& d) override;
    void on_node(const NodeDraft& d) override;
    void on_node_metric(const NodeMetricDraft& d) override;
    void on_workload(const WorkloadDraft& d) override;
    void on_pdb(const PodDisruptionBudgetDraft& d) override;
    void on_namespace(const NamespaceDraft& d) override;
    void on_priority_class(const PriorityClassDraft& d) override;
    void on_pvc(const PersistentVolumeClaimDraft& d) override;
    void on_secret(const SecretDraft& d) override;
    void on_migration_job(PodMigrationJob job) override;
    void on_reservation(Reservation r) override;
    // metrics.k8s.io usage: one node's or pod's entry added or replaced.
    void on_node_usage(NodeUsage n) override;
    void on_pod_usage(PodUsage p) override;
    // Replaces all usage at once (the daemon's poller); the revision moves only when it differs.
    void set_usage_metrics(UsageMetrics metrics);
    const UsageMetrics& usage_metrics() const { return usage_; }

    // The key an object is stored under: its UID, or one derived from kind, namespace and name
    // when it has none (snapshot files); NodeMetrics are keyed by their node's name.
    static std::string key_of(ObjectKind kind, std::string_view uid, std::string_view ns, std::string_view name);
    // Keys of every object of `kind`.
    std::vector<std::string> keys_of(ObjectKind kind) const;
    // Deletes an object of `kind` by key (a workload by UID whatever its kind); false when unknown.
    // The one way objects leave the model.
    bool remove(ObjectKind kind, std::string_view key);

    // Sets every NodeMetric's status.updateTime (the simulated koordlet reporting).
    void touch_node_metrics(int64_t update_ms);

    // Moves on with every change: two snapshots of the same revision show the same cluster.
    uint64_t revision() const { return revision_; }

    // Lookups.
    const kd_pod* pod_by_uid(std::string_view uid) const { return pods_.by_uid(uid); }
    const kd_pod* pod_by_name(std::string_view ns, std::string_view name) const { return pods_.by_name(ns, name); }
    const kd_node* node_by_name(std::string_view name) const { return nodes_.by_name(name); }
    const kd_node_metric* node_metric(std::string_view node_name) const { return metrics_.of_node(node_name); }
    std::vector<const kd_pod*> pods_on_node(std::string_view node_name) const {
        return pods_.on_node(pools_.find(node_name));
    }
    std::vector<const kd_pod*> pods_by_owner(std::string_view owner_uid) const {
        return pods_.by_owner(pools_.find(owner_uid));
    }
    const Workload* workload_by_uid(std::string_view uid) const { return workloads_.by_uid(uid); }
    const Workload* workload_by_name(std::string_view kind, std::string_view ns, std::string_view name) const {
        return workloads_.by_name(kind, ns, name);
    }
    const PodMigrationJob* migration_job(std::string_view uid) const { return jobs_.find(uid); }
    const PodMigrationJob* migration_job_by_name(std::string_view name) const;
    std::vector<const PodMigrationJob*> migration_jobs_for_pod(std::string_view pod_uid) const;
    std::vector<const PodMigrationJob*> migration_jobs_for_pod_name(std::string_view ns, std::string_view name) const;
    const Reservation* reservation(std::string_view uid) const { return reservations_.find(uid); }
    const Reservation* reservation_by_name(std::string_view name) const;
    const Secret* secret(std::string_view ns, std::string_view name) const;

    // Iteration (stable order: pods by slot, nodes by name, the small kinds by key).
    std::vector<const kd_pod*> pods() const { return pods_.all(); }
    std::vector<const kd_node*> nodes() const { return nodes_.all(); }
    const ObjectStore<PodMigrationJob>::Map& migration_jobs() const { return jobs_.all(); }
    const ObjectStore<Reservation>::Map& reservations() const { return reservations_.all(); }
    const ObjectStore<PodDisruptionBudget>::Map& pdbs() const { return pdbs_.all(); }
    const ObjectStore<Namespace>::Map& namespaces() const { return namespaces_.all(); }
    const ObjectStore<PriorityClass>::Map& priority_classes() const { return priority_classes_.all(); }
    const ObjectStore<PersistentVolumeClaim>::Map& pvcs() const { return pvcs_.all(); }

    // The stores themselves, for readers that walk their layout (ClusterSnapshot).
    const PodStore& pod_store() const { return pods_; }
    const WorkloadStore& workload_store() const { return workloads_; }

    size_t pod_count() const { return pods_.size(); }
    size_t node_count() const { return nodes_.size(); }

private:
    // Rewrites the unique text once deleted objects' strings dominate it.
    void compact_unique_text_if_mostly_garbage();

    ModelPools pools_;
    PodStore pods_;
    NodeStore nodes_;
    NodeMetricStore metrics_;
    WorkloadStore workloads_;
    ObjectStore<PodDisruptionBudget> pdbs_;
    ObjectStore<Namespace> namespaces_;
    ObjectStore<PriorityClass> priority_classes_;
    ObjectStore<PersistentVolumeClaim> pvcs_;
    ObjectStore<Secret> secrets_;
    ObjectStore<PodMigrationJob> jobs_;
    ObjectStore<Reservation> reservations_;
    UsageMetrics usage_;
    uint64_t revision_ = 0;
};

}  // namespace kd::core
