// What the API server's authorizer sees in a request (k8s.io/apiserver's RequestInfoFactory): the
// verb, API group, resource with its subresource, namespace and name, derived from the method and
// the path. The API client checks every request against the declared verbs (resources.hpp) with it,
// and names the RBAC rule to add when the server answers 403.
#pragma once

#include "kube/client/resources.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace kd::core::kube {

struct RequestAttributes {
    std::string verb;      // get, list, watch, create, update, patch, delete, deletecollection
    std::string group;     // "" for the core group
    std::string resource;  // "pods", "pods/eviction", "podmigrationjobs/status"
    std::string ns, name;

    // rbac_rule(verb, resource, group).
    std::string rule() const;
};

// nullopt for a non-resource request (discovery: /api, /apis/policy/v1, /version, /healthz, …).
std::optional<RequestAttributes> request_attributes(std::string_view method, std::string_view target);

// The declared verb that covers `a`, or nullptr when kdesched's table has none.
const ApiVerb* declared_verb(const RequestAttributes& a);

}  // namespace kd::core::kube
