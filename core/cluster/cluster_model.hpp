// The in-memory cluster: the objects the descheduler needs, kept compactly (interned strings and
// arrays, the ABI structs stored in place) and fed incrementally — add, update or delete by key,
// as a watch delivers them; replaced kind by kind on a relist (see Relist) — or in bulk by the
// snapshot decoders (it is an ObjectSink). Every change moves revision() on.
//
// Plugins never see the model itself: a ClusterSnapshot (cluster_snapshot.hpp) is built over it per
// hook call — arrays of pointers into it (no object is copied) wrapped in a kd_snapshot. The model must not change
// while a snapshot built from it is in use.
//
// Threading: one thread owns the model, the control thread. Network threads never touch it: they
// queue what they received, and the control thread applies it between hook calls (see
// runtime/driver.hpp).
#pragma once

#include "cluster/array_pool.hpp"
#include "cluster/content_key.hpp"
#include "cluster/drafts.hpp"
#include "cluster/kind_table.hpp"
#include "cluster/migration_objects.hpp"
#include "cluster/slot_index.hpp"
#include "cluster/string_pool.hpp"

#include <kdesched/abi.h>

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace kd::core {

// A workload controller object (ReplicaSet, Deployment, StatefulSet, ReplicationController, Job,
// DaemonSet): what workload resolution (Koordinator's controllerfinder) needs. Pods are matched
// by owner UID, not by selector, so neither labels nor selector are kept.
// Strings point into the model's pools (valid while the model lives).
struct Workload {
    std::string_view kind, uid, ns, name;
    // Its own controller ownerReference (ReplicaSet → Deployment); empty kind when none.
    std::string_view controller_kind, controller_name, controller_uid;
    std::optional<int32_t> replicas;
    int32_t ready_replicas = 0;
};

struct PodDisruptionBudget {
    std::string uid, ns, name;
    std::optional<kd::LabelSelector> selector;
    std::optional<kd::IntOrString> min_available, max_unavailable;
    int32_t disruptions_allowed = 0;
};

struct Namespace {
    std::string uid, name;
    std::map<std::string, std::string> labels;
};

struct Secret {
    std::string uid, ns, name;
    std::map<std::string, std::string> data;  // base64 values as stored
};

class ClusterSnapshot;

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
    void on_secret(const SecretDraft& d) override;
    void on_migration_job(PodMigrationJob job) override;
    void on_reservation(Reservation r) override;

    // The key an object is stored under: its UID, or one derived from kind, namespace and name
    // when it has none (snapshot files); NodeMetrics are keyed by their node's name.
    static std::string key_of(ObjectKind kind, std::string_view uid, std::string_view ns, std::string_view name);
    // Keys of every object of `kind`.
    std::vector<std::string> keys_of(ObjectKind kind) const;
    // Deletes an object of `kind` by key; false when unknown.
    bool remove(ObjectKind kind, std::string_view key);

    // Deletes by UID; false when unknown.
    bool delete_pod(std::string_view uid);
    bool delete_node(std::string_view uid);
    bool delete_node_metric(std::string_view node_name);
    // Sets every NodeMetric's status.updateTime (the simulated koordlet reporting).
    void touch_node_metrics(int64_t update_ms);
    bool delete_workload(std::string_view uid);
    bool delete_migration_job(std::string_view uid);
    bool delete_reservation(std::string_view uid);
    bool delete_pdb(std::string_view uid);
    bool delete_namespace(std::string_view uid);
    bool delete_secret(std::string_view uid);

    // Moves on with every change: two snapshots of the same revision show the same cluster.
    uint64_t revision() const { return revision_; }

    // Lookups.
    const kd_pod* pod_by_uid(std::string_view uid) const;
    const kd_pod* pod_by_name(std::string_view ns, std::string_view name) const;
    const kd_node* node_by_name(std::string_view name) const;
    const kd_node_metric* node_metric(std::string_view node_name) const;
    std::vector<const kd_pod*> pods_on_node(std::string_view node_name) const;
    std::vector<const kd_pod*> pods_by_owner(std::string_view owner_uid) const;
    const Workload* workload_by_uid(std::string_view uid) const;
    const Workload* workload_by_name(std::string_view kind, std::string_view ns, std::string_view name) const;
    const PodMigrationJob* migration_job(std::string_view uid) const;
    const PodMigrationJob* migration_job_by_name(std::string_view name) const;
    std::vector<const PodMigrationJob*> migration_jobs_for_pod(std::string_view pod_uid) const;
    std::vector<const PodMigrationJob*> migration_jobs_for_pod_name(std::string_view ns, std::string_view name) const;
    const Reservation* reservation(std::string_view uid) const;
    const Reservation* reservation_by_name(std::string_view name) const;
    const Secret* secret(std::string_view ns, std::string_view name) const;

    // Iteration (stable order: by insertion).
    std::vector<const kd_pod*> pods() const;
    std::vector<const kd_node*> nodes() const;
    const std::map<std::string, PodMigrationJob, std::less<>>& migration_jobs() const { return jobs_; }
    const std::map<std::string, Reservation, std::less<>>& reservations() const { return reservations_; }
    const std::map<std::string, PodDisruptionBudget>& pdbs() const { return pdbs_; }
    const std::map<std::string, Namespace>& namespaces() const { return namespaces_; }

    size_t pod_count() const { return pod_index_.size(); }
    size_t node_count() const { return node_by_name_.size(); }

private:
    // A free slot has pod.struct_size == 0.
    struct PodRecord {
        kd_pod pod{};
        bool alive() const { return pod.struct_size != 0; }
    };
    struct NodeRecord;
    struct MetricRecord;

    kd_str intern(std::string_view s) { return strings_.intern(s); }
    kd_key_value_list intern_kvs(const std::vector<KeyValueDraft>& kvs);
    kd_resource_list intern_resources(const std::vector<std::pair<std::string_view, int64_t>>& rs);
    const kd_pod_spec* pod_spec(const PodDraft& d);
    const kd_pod_spec* intern_pod_spec(const PodDraft& d, std::string_view scheduler,
                                       const std::vector<std::pair<std::string_view, int64_t>>& requests);
    kd_key_value_list cached_kvs(const std::vector<KeyValueDraft>& kvs);
    const kd_pod_condition* intern_conditions(const PodDraft& d, size_t& count);
    const kd_container_status* intern_container_statuses(const PodDraft& d, size_t& count);
    uint32_t find_pod_slot(std::string_view uid) const;
    const kd_pod* pod_by_name(size_t hash, std::string_view ns, std::string_view name) const;
    // The pod each entry names, or nullptr; in one go, which is faster than one by one.
    void find_pods(const std::vector<NodeMetricDraft::PodUsage>& named, std::vector<const kd_pod*>& out) const;
    // Takes the pod out of the node and owner lists (before an update or a delete).
    void unlink_pod(uint32_t slot);
    void retire_metric_names(const MetricRecord& rec);
    void compact_unique_text_if_mostly_garbage();
    size_t pod_uid_hash(uint32_t slot) const;
    uint32_t pod_slot_count() const;
    static size_t workload_name_hash(std::string_view kind, std::string_view ns, std::string_view name);
    uint32_t find_workload_slot(std::string_view uid) const;
    size_t pod_name_hash(uint32_t slot) const;

    StringPool strings_;
    TextArena unique_text_;  // pod UIDs and names (pods' and NodeMetric entries'): unique, never interned
    size_t dead_unique_bytes_ = 0;
    ArrayPool<kd_key_value> kv_pool_;
    ArrayPool<kd_resource> resource_pool_;
    ArrayPool<kd_owner_reference> owner_pool_;
    ArrayPool<kd_toleration> toleration_pool_;
    ArrayPool<kd_pod_condition> condition_pool_;
    ArrayPool<kd_container_status> container_status_pool_;
    ArrayPool<kd_taint> taint_pool_;
    ArrayPool<kd_str> str_pool_;
    ArrayPool<kd_selector_requirement> requirement_pool_;
    ArrayPool<kd_node_selector_term> term_pool_;
    SlotStore<kd_pod_spec> specs_;  // each template once: spec_cache_ finds them by content
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
        std::vector<kd_toleration> tolerations;
        std::vector<kd_pod_condition> conditions;
        std::vector<kd_container_status> container_statuses;
        std::vector<const kd_pod*> pods;
        std::vector<std::pair<std::string_view, int64_t>> requests;
    } scratch_;

    SlotStore<PodRecord> pod_slots_;
    std::vector<uint32_t> free_pod_slots_;
    SlotIndex pod_index_;       // by UID
    SlotIndex pod_name_index_;  // by namespace/name
    // Keys are interned strings (look up through strings_.find()); unbound pods under "".
    InternedMap<std::vector<uint32_t>> pods_by_node_;
    InternedMap<std::vector<uint32_t>> pods_by_owner_;

    std::deque<NodeRecord> node_slots_;
    std::vector<uint32_t> free_node_slots_;
    std::unordered_map<std::string_view, uint32_t> node_by_name_;  // key: interned name
    std::unordered_map<std::string, uint32_t> node_by_uid_;

    std::unordered_map<std::string, std::unique_ptr<MetricRecord>> metrics_;  // by node name

    SlotStore<Workload> workload_slots_;  // a free slot has an empty kind; strings interned
    std::vector<uint32_t> free_workload_slots_;
    SlotIndex workload_index_;       // by UID
    SlotIndex workload_name_index_;  // by kind/namespace/name
    std::map<std::string, PodDisruptionBudget> pdbs_;
    std::map<std::string, Namespace> namespaces_;
    std::map<std::string, Secret> secrets_;
    std::map<std::string, PodMigrationJob, std::less<>> jobs_;  // by UID
    std::map<std::string, Reservation, std::less<>> reservations_;
    uint64_t revision_ = 0;

    friend class ClusterSnapshot;
};

}  // namespace kd::core
