#include "kube/client/resources.hpp"

namespace kd::core::kube {

namespace {

ApiResource resource_from(const KindInfo& k) {
    return {k.group, k.version, k.plural, k.name, k.namespaced, k.needed_by, k.custom, k.if_forbidden};
}

// Every row of the kind table (cluster/kind_table.hpp), in its order; those listed and watched
// first.
const std::vector<ApiResource> kAll = [] {
    std::vector<ApiResource> v;
    for (const KindInfo& k : kKindTable) v.push_back(resource_from(k));
    return v;
}();

const std::vector<ApiResource> kResources = [] {
    std::vector<ApiResource> v;
    for (const KindInfo& k : kKindTable)
        if (k.listed) v.push_back(kAll[static_cast<size_t>(k.kind)]);
    return v;
}();

const std::vector<ApiVerb> kVerbs = [] {
    constexpr Grant cluster = Grant::cluster_role;
    std::vector<ApiVerb> v;
    for (const auto& r : kResources)
        for (std::string_view verb : {"get", "list", "watch"}) v.push_back({verb, r.group, r.resource, cluster});
    // metrics-server's NodeMetrics and PodMetrics, polled by LIST (the API cannot watch them) when
    // the policy enables the KubernetesMetrics source (kube/watch/usage_metrics_poller.hpp).
    for (std::string_view res : {"nodes", "pods"}) v.push_back({"list", "metrics.k8s.io", res, cluster});
    // Evictions (policy/v1 or v1beta1, both under the core group's pods) and the other pod writes.
    v.push_back({"create", "", "pods/eviction", cluster});
    v.push_back({"delete", "", "pods", cluster});
    v.push_back({"patch", "", "pods", cluster});
    // MigrationController's objects and their status subresource: updates are merge patches of
    // what changed (update: the whole object, for one the model has not seen yet).
    for (std::string_view res : {"podmigrationjobs", "reservations"}) {
        for (std::string_view verb : {"create", "update", "patch", "delete"})
            v.push_back({verb, "scheduling.koordinator.sh", res, cluster});
    }
    for (std::string_view res : {"podmigrationjobs/status", "reservations/status"})
        for (std::string_view verb : {"update", "patch"})
            v.push_back({verb, "scheduling.koordinator.sh", res, cluster});
    // Events: events.k8s.io/v1, core/v1 where the server has only that.
    for (std::string_view group : {"events.k8s.io", ""})
        for (std::string_view verb : {"create", "patch"}) v.push_back({verb, group, "events", cluster});
    // The leader-election Lease, in its own namespace.
    for (std::string_view verb : {"get", "create", "update"})
        v.push_back({verb, "coordination.k8s.io", "leases", Grant::lease_role});
    v.push_back({"get", "", "secrets", Grant::pod_picker_overlay});
    // `kdesched explain` asks the leader's /debug/explain through the API server's pod proxy.
    v.push_back({"get", "", "pods/proxy", Grant::operator_user});
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
    return kube::rbac_rule(verb, resource, group);
}

std::string rbac_rule(std::string_view verb, std::string_view resource, std::string_view group) {
    return "verb \"" + std::string(verb) + "\" on \"" + std::string(resource) + "\" in API group \"" +
           std::string(group) + "\"";
}
const std::vector<ApiResource>& watched_resources() {
    return kResources;
}

const ApiResource& resource_of(ObjectKind kind) {
    return kAll[static_cast<size_t>(kind)];
}

std::optional<ApiResource> resource_by_kind(std::string_view kind) {
    const KindInfo* k = kind_info(kind);
    return k ? std::optional<ApiResource>(kAll[static_cast<size_t>(k->kind)]) : std::nullopt;
}

const std::vector<ApiVerb>& api_verbs() {
    return kVerbs;
}

}  // namespace kd::core::kube
