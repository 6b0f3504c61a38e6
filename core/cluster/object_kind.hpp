// The kinds of object the cluster model keeps, one each (the six workload kinds apart: a relist
// of ReplicaSets must not touch Deployments).
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace kd::core {

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
    secret,
    migration_job,
    reservation,
};

inline constexpr std::array<ObjectKind, 14> kAllObjectKinds = {
    ObjectKind::node,          ObjectKind::pod,        ObjectKind::node_metric,
    ObjectKind::replica_set,   ObjectKind::deployment, ObjectKind::stateful_set,
    ObjectKind::job,           ObjectKind::daemon_set, ObjectKind::replication_controller,
    ObjectKind::pdb,           ObjectKind::namespace_, ObjectKind::secret,
    ObjectKind::migration_job, ObjectKind::reservation};

// The Kubernetes kind ("Pod", "PodDisruptionBudget", …).
constexpr std::string_view kind_name(ObjectKind k) {
    switch (k) {
        case ObjectKind::node:
            return "Node";
        case ObjectKind::pod:
            return "Pod";
        case ObjectKind::node_metric:
            return "NodeMetric";
        case ObjectKind::replica_set:
            return "ReplicaSet";
        case ObjectKind::deployment:
            return "Deployment";
        case ObjectKind::stateful_set:
            return "StatefulSet";
        case ObjectKind::job:
            return "Job";
        case ObjectKind::daemon_set:
            return "DaemonSet";
        case ObjectKind::replication_controller:
            return "ReplicationController";
        case ObjectKind::pdb:
            return "PodDisruptionBudget";
        case ObjectKind::namespace_:
            return "Namespace";
        case ObjectKind::secret:
            return "Secret";
        case ObjectKind::migration_job:
            return "PodMigrationJob";
        case ObjectKind::reservation:
            return "Reservation";
    }
    return "";
}

// The model's kind of a Kubernetes kind; nullopt for a kind it does not keep.
inline std::optional<ObjectKind> object_kind(std::string_view kind) {
    for (ObjectKind k : kAllObjectKinds)
        if (kind_name(k) == kind) return k;
    return std::nullopt;
}

}  // namespace kd::core
