// What the API server's authorizer sees in each request kdesched makes, and the client's refusal
// of any request its verb table does not declare (so deploy/'s RBAC and the code cannot drift).
#include "kube/client/api_client.hpp"
#include "kube/client/request_attributes.hpp"

#include <catch2/catch.hpp>

using namespace kd::core::kube;

namespace {

std::string attrs(const char* method, const char* target) {
    auto a = request_attributes(method, target);
    if (!a) return "non-resource";
    return a->verb + " " + a->group + "|" + a->resource + " ns=" + a->ns + " name=" + a->name;
}

}  // namespace

TEST_CASE("request attributes: verbs, groups, subresources and namespaces as RequestInfoFactory reads them") {
    CHECK(attrs("GET", "/api/v1/pods?limit=500&resourceVersion=0") == "list |pods ns= name=");
    CHECK(attrs("GET", "/api/v1/pods?allowWatchBookmarks=true&watch=true&resourceVersion=7") ==
          "watch |pods ns= name=");
    CHECK(attrs("GET", "/api/v1/nodes?watch=1") == "watch |nodes ns= name=");
    CHECK(attrs("GET", "/api/v1/nodes?watch=false") == "list |nodes ns= name=");
    CHECK(attrs("GET", "/api/v1/namespaces/shop/secrets/token") == "get |secrets ns=shop name=token");
    CHECK(attrs("POST", "/api/v1/namespaces/shop/pods/web-1/eviction") == "create |pods/eviction ns=shop name=web-1");
    CHECK(attrs("PATCH", "/api/v1/namespaces/shop/pods/web-1") == "patch |pods ns=shop name=web-1");
    CHECK(attrs("DELETE", "/api/v1/namespaces/shop/pods/web-1") == "delete |pods ns=shop name=web-1");
    CHECK(attrs("DELETE", "/api/v1/namespaces/shop/pods") == "deletecollection |pods ns=shop name=");
    CHECK(attrs("PUT", "/apis/scheduling.koordinator.sh/v1alpha1/podmigrationjobs/j1/status") ==
          "update scheduling.koordinator.sh|podmigrationjobs/status ns= name=j1");
    CHECK(attrs("POST", "/apis/coordination.k8s.io/v1/namespaces/koordinator-system/leases") ==
          "create coordination.k8s.io|leases ns=koordinator-system name=");
    // The Namespace object itself, and its status subresource.
    CHECK(attrs("GET", "/api/v1/namespaces/shop") == "get |namespaces ns= name=shop");
    CHECK(attrs("PUT", "/api/v1/namespaces/shop/status") == "update |namespaces/status ns= name=shop");
    // Discovery is not a resource request (every authenticated user may read it).
    CHECK(attrs("GET", "/apis/policy/v1") == "non-resource");
    CHECK(attrs("GET", "/api") == "non-resource");
    CHECK(attrs("GET", "/version") == "non-resource");
}

TEST_CASE("request attributes: every verb kdesched declares is one a request can carry") {
    for (const auto& v : api_verbs()) {
        INFO(v.verb << " " << v.resource << " " << v.group);
        CHECK((v.verb == "get" || v.verb == "list" || v.verb == "watch" || v.verb == "create" || v.verb == "update" ||
               v.verb == "patch" || v.verb == "delete"));
        RequestAttributes a{std::string(v.verb), std::string(v.group), std::string(v.resource), "", ""};
        CHECK(declared_verb(a) == &v);
    }
}

TEST_CASE("api client: a request kdesched does not declare is refused before it is sent, naming the rule") {
    Connection c;
    c.server = "https://127.0.0.1:1";  // never reached: the refusal comes first
    ClientOptions o;
    o.max_attempts = 3;
    ApiClient client(c, o);
    ApiResult r = client.call(
        {"PATCH", "/apis/apps/v1/namespaces/shop/deployments/web", {}, "{}", "application/merge-patch+json"});
    CHECK_FALSE(r.answered());
    CHECK(r.attempts == 1);  // not retried
    CHECK(r.describe() ==
          "PATCH /apis/apps/v1/namespaces/shop/deployments/web needs verb \"patch\" on \"deployments\" in API "
          "group \"apps\", which kdesched does not declare (a defect: add it to api_verbs() in "
          "core/kube/resources.cpp and to deploy/base/rbac.yaml)");
}
