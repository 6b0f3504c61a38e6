// The kinds kdesched knows, one row each: its name, where the API serves it, how a snapshot or a
// LIST body is decoded into the model, and what needs it. The model's kinds (ObjectKind), the
// decoders' (DraftKind), the reflectors' and writers' API resources (kube/client/resources) and the
// RBAC rules all read this table.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace kd::core {

// The kinds of object the cluster model keeps, one each (the six workload kinds apart: a relist
// of ReplicaSets must not touch Deployments). The order is the table's, and the reflectors'.
enum class ObjectKind : unsigned char {
    node,
    pod,
    node_metric,
    replica_set,
    deployment,
    stateful_set,
    job,
    daemon_set,
    replication_controller,
    pdb,
    namespace_,
    priority_class,
    pvc,
    secret,
    migration_job,
    reservation,
};

// How an object is decoded: straight from the event stream into a draft (pod … secret, the six
// workload kinds sharing one), or recorded into a DOM first (the rare kinds the controllers
// write); `other` is a kind kdesched does not read (skipped with a note).
enum class DraftKind : unsigned char {
    pod,
    node,
    node_metric,
    workload,
    pdb,
    namespace_,
    priority_class,
    pvc,
    secret,
    migration_job,
    reservation,
    other,
};

struct KindInfo {
    ObjectKind kind;
    std::string_view name;         // "PodDisruptionBudget"
    std::string_view group;        // "" for the core group
    std::string_view version;      // "v1"
    std::string_view api_version;  // group/version, as objects carry it ("policy/v1")
    std::string_view plural;       // the API resource ("poddisruptionbudgets")
    bool namespaced;
    bool custom;  // a CustomResourceDefinition's (Koordinator's): JSON only, apiVersion checked in snapshots
    bool listed;  // read by list + watch (Secrets are read one at a time, when a picker header names one)
    DraftKind draft;
    std::string_view needed_by;  // what is missing without it, for messages ("" = kdesched itself)
    // What is missing when kdesched may not list it (403); "" for a kind it cannot run without,
    // which keeps the daemon unready. One it can is read as empty (core/kube/watch/reflector.cpp).
    std::string_view if_forbidden = {};
};

inline constexpr std::string_view kWorkloadsForbidden =
    "the pods they own have no known workload, so MigrationController's per-workload limits and "
    "DefaultEvictor's minReplicas keep those pods where they are";

inline constexpr std::array<KindInfo, 16> kKindTable = {{
    {ObjectKind::node, "Node", "", "v1", "v1", "nodes", false, false, true, DraftKind::node, ""},
    {ObjectKind::pod, "Pod", "", "v1", "v1", "pods", true, false, true, DraftKind::pod, ""},
    {ObjectKind::node_metric, "NodeMetric", "slo.koordinator.sh", "v1alpha1", "slo.koordinator.sh/v1alpha1",
     "nodemetrics", false, true, true, DraftKind::node_metric,
     "LowNodeLoad (node usage comes from koordlet's NodeMetrics)", "LowNodeLoad has no node usage and moves nothing"},
    {ObjectKind::replica_set, "ReplicaSet", "apps", "v1", "apps/v1", "replicasets", true, false, true,
     DraftKind::workload, "", kWorkloadsForbidden},
    {ObjectKind::deployment, "Deployment", "apps", "v1", "apps/v1", "deployments", true, false, true,
     DraftKind::workload, "", kWorkloadsForbidden},
    {ObjectKind::stateful_set, "StatefulSet", "apps", "v1", "apps/v1", "statefulsets", true, false, true,
     DraftKind::workload, "", kWorkloadsForbidden},
    {ObjectKind::job, "Job", "batch", "v1", "batch/v1", "jobs", true, false, true, DraftKind::workload, "",
     kWorkloadsForbidden},
    {ObjectKind::daemon_set, "DaemonSet", "apps", "v1", "apps/v1", "daemonsets", true, false, true, DraftKind::workload,
     "", kWorkloadsForbidden},
    {ObjectKind::replication_controller, "ReplicationController", "", "v1", "v1", "replicationcontrollers", true, false,
     true, DraftKind::workload, "", kWorkloadsForbidden},
    {ObjectKind::pdb, "PodDisruptionBudget", "policy", "v1", "policy/v1", "poddisruptionbudgets", true, false, true,
     DraftKind::pdb, "",
     "the plugins see no PodDisruptionBudget (DefaultEvictor's PDB checks find none); the API server still enforces "
     "every budget on each eviction"},
    {ObjectKind::namespace_, "Namespace", "", "v1", "v1", "namespaces", false, false, true, DraftKind::namespace_, "",
     "namespace labels are unknown, so a namespaceLabelSelector matches no namespace"},
    {ObjectKind::priority_class, "PriorityClass", "scheduling.k8s.io", "v1", "scheduling.k8s.io/v1", "priorityclasses",
     false, false, true, DraftKind::priority_class, "",
     "no PriorityClass is known, so a DefaultEvictor whose priorityThreshold.name names one fails every filter call "
     "and lets no pod be evicted"},
    {ObjectKind::pvc, "PersistentVolumeClaim", "", "v1", "v1", "persistentvolumeclaims", true, false, true,
     DraftKind::pvc, "",
     "no claim's storage class is known, so DefaultEvictor's protectedStorageClasses protects every pod with a "
     "claim"},
    {ObjectKind::secret, "Secret", "", "v1", "v1", "secrets", true, false, false, DraftKind::secret,
     "the Pod Picker's secretKeyRef headers"},
    {ObjectKind::migration_job, "PodMigrationJob", "scheduling.koordinator.sh", "v1alpha1",
     "scheduling.koordinator.sh/v1alpha1", "podmigrationjobs", false, true, true, DraftKind::migration_job,
     "MigrationController (Koordinator's PodMigrationJob CRD)"},
    {ObjectKind::reservation, "Reservation", "scheduling.koordinator.sh", "v1alpha1",
     "scheduling.koordinator.sh/v1alpha1", "reservations", false, true, true, DraftKind::reservation,
     "MigrationController (Koordinator's Reservation CRD)"},
}};

constexpr const KindInfo& kind_info(ObjectKind k) {
    return kKindTable[static_cast<size_t>(k)];
}

// The row of a Kubernetes kind ("Pod"); nullptr for a kind kdesched does not keep.
constexpr const KindInfo* kind_info(std::string_view name) {
    for (const KindInfo& k : kKindTable)
        if (k.name == name) return &k;
    return nullptr;
}

inline constexpr std::array<ObjectKind, kKindTable.size()> kAllObjectKinds = [] {
    std::array<ObjectKind, kKindTable.size()> out{};
    for (size_t i = 0; i < kKindTable.size(); ++i) out[i] = kKindTable[i].kind;
    return out;
}();

// The Kubernetes kind ("Pod", "PodDisruptionBudget", …).
constexpr std::string_view kind_name(ObjectKind k) {
    return kind_info(k).name;
}

// The model's kind of a Kubernetes kind; nullopt for a kind it does not keep.
constexpr std::optional<ObjectKind> object_kind(std::string_view name) {
    const KindInfo* k = kind_info(name);
    return k ? std::optional<ObjectKind>(k->kind) : std::nullopt;
}

// The table is in ObjectKind order: kind_info(k) indexes it.
constexpr bool kind_table_in_order() {
    for (size_t i = 0; i < kKindTable.size(); ++i)
        if (static_cast<size_t>(kKindTable[i].kind) != i) return false;
    return true;
}
static_assert(kind_table_in_order(), "kKindTable rows must follow the order of ObjectKind");

}  // namespace kd::core
