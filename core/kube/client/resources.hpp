// The API resources kdesched reads and writes — each kind's row of cluster/kind_table.hpp as the
// API serves it (group, version, plural, scope, what needs it) — and the requests it may make:
// what the reflectors, the writers, messages (a CRD that is not served, a missing RBAC rule) and
// the RBAC manifest's test work from.
#pragma once

#include "cluster/kind_table.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kd::core::kube {

struct ApiResource {
    std::string_view group;  // "" for the core group
    std::string_view version;
    std::string_view resource;  // plural
    std::string_view kind;
    bool namespaced;
    std::string_view needed_by;     // what is missing without it, for messages ("" = kdesched itself)
    bool custom;                    // a CustomResourceDefinition's kind (Koordinator's): served as JSON only
    std::string_view if_forbidden;  // KindInfo::if_forbidden

    std::string group_version() const;  // "v1", "apps/v1"
    // /api/v1/pods, /apis/apps/v1/namespaces/ns/replicasets (a namespace only for namespaced kinds).
    std::string collection_path(std::string_view ns = "") const;
    std::string object_path(std::string_view ns, std::string_view name) const;
    // The RBAC rule a verb on it needs: `verb "list" on "pods" in API group ""`.
    std::string rbac_rule(std::string_view verb) const;
};

// The RBAC rule a request needs, in the words messages use:
// `verb "create" on "pods/eviction" in API group ""`.
std::string rbac_rule(std::string_view verb, std::string_view resource, std::string_view group);

// Every kind read by list + watch, in the order reflectors start.
const std::vector<ApiResource>& watched_resources();
// The resource of a model kind.
const ApiResource& resource_of(ObjectKind kind);
// By kind name ("Pod", "PodMigrationJob", …); nullopt when kdesched does not know it.
std::optional<ApiResource> resource_by_kind(std::string_view kind);

// Where deploy/ grants a verb: the ClusterRole, the Role beside the leader-election Lease, or the
// Pod Picker overlay (Secrets are read only when a picker header names one); or nowhere, because
// only `kdesched explain` makes it, as the operator's own user.
enum class Grant { cluster_role, lease_role, pod_picker_overlay, operator_user };

// One request kdesched can make: the verb RBAC names it by, the group and the resource (with its
// subresource, "pods/eviction"). The API client refuses any request not in this table, and the
// RBAC test holds deploy/'s rules to exactly these — so the manifests grant what the code does.
struct ApiVerb {
    std::string_view verb, group, resource;
    Grant grant;
};
const std::vector<ApiVerb>& api_verbs();

}  // namespace kd::core::kube
