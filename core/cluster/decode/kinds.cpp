#include "cluster/decode/kinds.hpp"

namespace kd::core::decode {

Kind classify_kind(std::string_view kind) {
    if (kind == "Pod") return Kind::pod;
    if (kind == "Node") return Kind::node;
    if (kind == "NodeMetric") return Kind::node_metric;
    if (kind == "ReplicaSet" || kind == "Deployment" || kind == "StatefulSet" || kind == "ReplicationController" ||
        kind == "Job" || kind == "DaemonSet")
        return Kind::workload;
    if (kind == "PodDisruptionBudget") return Kind::pdb;
    if (kind == "Namespace") return Kind::namespace_;
    if (kind == "Secret") return Kind::secret;
    if (kind == "PodMigrationJob") return Kind::migration_job;
    if (kind == "Reservation") return Kind::reservation;
    return Kind::other;
}

std::string_view required_api_version(Kind k) {
    switch (k) {
        case Kind::node_metric:
            return "slo.koordinator.sh/v1alpha1";
        case Kind::migration_job:
        case Kind::reservation:
            return "scheduling.koordinator.sh/v1alpha1";
        default:
            return "";
    }
}

std::string_view item_kind_of_list(std::string_view list_kind) {
    if (!is_list_kind(list_kind)) return "";
    return list_kind.substr(0, list_kind.size() - 4);
}

}  // namespace kd::core::decode
