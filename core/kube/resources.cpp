#include "kube/resources.hpp"

namespace kd::core::kube {

namespace {

const std::vector<ApiResource> kResources = {
    {"", "v1", "nodes", "Node", false, ""},
    {"", "v1", "pods", "Pod", true, ""},
    {"slo.koordinator.sh", "v1alpha1", "nodemetrics", "NodeMetric", false,
     "LowNodeLoad (node usage comes from koordlet's NodeMetrics)"},
    {"apps", "v1", "replicasets", "ReplicaSet", true, ""},
    {"apps", "v1", "deployments", "Deployment", true, ""},
    {"apps", "v1", "statefulsets", "StatefulSet", true, ""},
    {"batch", "v1", "jobs", "Job", true, ""},
    {"apps", "v1", "daemonsets", "DaemonSet", true, ""},
    {"", "v1", "replicationcontrollers", "ReplicationController", true, ""},
    {"policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", true, ""},
    {"", "v1", "namespaces", "Namespace", false, ""},
    {"scheduling.koordinator.sh", "v1alpha1", "podmigrationjobs", "PodMigrationJob", false,
     "MigrationController (Koordinator's PodMigrationJob CRD)"},
    {"scheduling.koordinator.sh", "v1alpha1", "reservations", "Reservation", false,
     "MigrationController (Koordinator's Reservation CRD)"},
};

// Secrets are read one at a time (the Pod Picker's secretKeyRef), never listed.
const ApiResource kSecrets{"", "v1", "secrets", "Secret", true, "the Pod Picker's secretKeyRef headers"};

const std::vector<ApiVerb> kVerbs = [] {
    std::vector<ApiVerb> v;
    for (const auto& r : kResources)
        for (std::string_view verb : {"get", "list", "watch"}) v.push_back({verb, r.group, r.resource});
    // Evictions and the other pod writes of evict plugins.
    v.push_back({"create", "", "pods/eviction"});
    v.push_back({"delete", "", "pods"});
    v.push_back({"patch", "", "pods"});
    // MigrationController's objects, their status subresource.
    for (std::string_view res : {"podmigrationjobs", "reservations"}) {
        for (std::string_view verb : {"create", "update", "delete"})
            v.push_back({verb, "scheduling.koordinator.sh", res});
    }
    v.push_back({"update", "scheduling.koordinator.sh", "podmigrationjobs/status"});
    v.push_back({"update", "scheduling.koordinator.sh", "reservations/status"});
    // Events, the leader-election Lease.
    for (std::string_view verb : {"create", "patch"}) v.push_back({verb, "events.k8s.io", "events"});
    for (std::string_view verb : {"get", "create", "update"}) v.push_back({verb, "coordination.k8s.io", "leases"});
    return v;
}();

}  // namespace

std::string ApiResource::group_version() const {
    return group.empty() ? std::string(version) : std::string(group) + "/" + std::string(version);
}

std::string ApiResource::collection_path(std::string_view ns) const {
    std::string out = group.empty() ? "/api/v1" : "/apis/" + group_version();
    if (namespaced && !ns.empty()) out += "/namespaces/" + std::string(ns);
    return out + "/" + std::string(resource);
}

std::string ApiResource::object_path(std::string_view ns, std::string_view name) const {
    return collection_path(ns) + "/" + std::string(name);
}

std::string ApiResource::rbac_rule(std::string_view verb) const {
    return "verb \"" + std::string(verb) + "\" on \"" + std::string(resource) + "\" in API group \"" +
           std::string(group) + "\"";
}

const std::vector<ApiResource>& watched_resources() {
    return kResources;
}

const ApiResource& resource_of(ObjectKind kind) {
    if (kind == ObjectKind::secret) return kSecrets;
    for (const auto& r : kResources)
        if (r.kind == kind_name(kind)) return r;
    return kResources.front();  // every other kind is in the table
}

std::optional<ApiResource> resource_by_kind(std::string_view kind) {
    if (kind == "Secret") return kSecrets;
    for (const auto& r : kResources)
        if (r.kind == kind) return r;
    return std::nullopt;
}

const std::vector<ApiVerb>& api_verbs() {
    return kVerbs;
}

}  // namespace kd::core::kube
