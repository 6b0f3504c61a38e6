// deploy/'s RBAC grants exactly what kdesched asks for: the table the API client enforces on every
// request (api_verbs(), core/kube/resources.cpp) against the ClusterRole, the leader-election grant
// and the Pod Picker overlay — a verb missing from a manifest fails here, and so does one granted
// that the code never uses.
#include "config/configuration.hpp"
#include "kube/client/request_attributes.hpp"
#include "kube/client/resources.hpp"
#include "manifests.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <tuple>

using namespace kd::core;
using kd::test::deploy_dir;
using kd::test::find;

namespace {

using Grant = std::tuple<std::string, std::string, std::string>;  // verb, group, resource

std::string show(const std::set<Grant>& grants) {
    std::string out;
    for (const auto& [verb, group, resource] : grants)
        out += "  " + verb + " " + resource + (group.empty() ? "" : "." + group) + "\n";
    return out.empty() ? "  (none)\n" : out;
}

// Every (verb, group, resource) a Role/ClusterRole's rules grant; wildcards are refused outright.
std::set<Grant> granted(const YAML::Node& role, std::vector<std::string>* resource_names = nullptr) {
    REQUIRE(role.IsMap());
    std::set<Grant> out;
    for (const auto& rule : role["rules"]) {
        for (const auto& g : rule["apiGroups"])
            for (const auto& r : rule["resources"])
                for (const auto& v : rule["verbs"]) {
                    INFO("a rule of " << role["metadata"]["name"].as<std::string>());
                    CHECK(v.as<std::string>() != "*");
                    CHECK(r.as<std::string>() != "*");
                    out.insert({v.as<std::string>(), g.as<std::string>(), r.as<std::string>()});
                }
        if (rule["resourceNames"] && resource_names)
            for (const auto& n : rule["resourceNames"]) resource_names->push_back(n.as<std::string>());
    }
    return out;
}

std::set<Grant> declared(kube::Grant where) {
    std::set<Grant> out;
    for (const auto& v : kube::api_verbs())
        if (v.grant == where) out.insert({std::string(v.verb), std::string(v.group), std::string(v.resource)});
    return out;
}

void require_same(const std::set<Grant>& manifest, const std::set<Grant>& code) {
    std::set<Grant> missing, unused;
    for (const auto& g : code)
        if (!manifest.count(g)) missing.insert(g);
    for (const auto& g : manifest)
        if (!code.count(g)) unused.insert(g);
    INFO("used by kdesched but not granted:\n"
         << show(missing) << "granted but never used by kdesched:\n"
         << show(unused));
    CHECK(missing.empty());
    CHECK(unused.empty());
}

}  // namespace

TEST_CASE("rbac: the ClusterRole grants exactly the cluster-wide verbs the API client can send") {
    YAML::Node role = find(deploy_dir() / "base/rbac.yaml", "ClusterRole", "kdesched");
    std::vector<std::string> names;
    std::set<Grant> grants = granted(role, &names);
    require_same(grants, declared(kube::Grant::cluster_role));
    CHECK(names.empty());  // cluster-wide rules are not limited to names
    // The table the test trusts is the one requests are checked against.
    auto eviction = kube::request_attributes("POST", "/api/v1/namespaces/shop/pods/web-1/eviction");
    REQUIRE(eviction);
    CHECK(grants.count({eviction->verb, eviction->group, eviction->resource}));
}

TEST_CASE("rbac: the leader-election grant names the default profile's Lease and is cluster-scoped") {
    DeschedulerConfiguration config = load_configuration((deploy_dir() / "base/default.yaml").string());
    // Cluster-scoped, so that an overlay's `namespace:` cannot move it away from the Lease's
    // namespace (test_hardening.cpp renders that); a ClusterRole has no metadata.namespace.
    YAML::Node role = find(deploy_dir() / "base/rbac.yaml", "ClusterRole", "kdesched-leader-election");
    REQUIRE(role.IsMap());
    CHECK_FALSE(role["metadata"]["namespace"]);
    std::vector<std::string> names;
    require_same(granted(role, &names), declared(kube::Grant::lease_role));
    CHECK(names == std::vector<std::string>{config.leaderElection.resourceName});
    // get and update are limited to that Lease; create cannot be (RBAC sees no name on a create).
    for (const auto& rule : role["rules"]) {
        bool only_create = rule["verbs"].size() == 1 && rule["verbs"][0].as<std::string>() == "create";
        CHECK(bool(rule["resourceNames"]) == !only_create);
    }
    YAML::Node binding = find(deploy_dir() / "base/rbac.yaml", "ClusterRoleBinding", "kdesched-leader-election");
    REQUIRE(binding.IsMap());
    CHECK(binding["roleRef"]["kind"].as<std::string>() == "ClusterRole");
}

TEST_CASE("rbac: every binding names the Deployment's ServiceAccount") {
    YAML::Node deployment = find(deploy_dir() / "base/deployment.yaml", "Deployment", "kdesched");
    std::string sa = deployment["spec"]["template"]["spec"]["serviceAccountName"].as<std::string>();
    std::string ns = deployment["metadata"]["namespace"].as<std::string>();
    REQUIRE(find(deploy_dir() / "base/rbac.yaml", "ServiceAccount", sa).IsMap());
    for (auto [file, kind, name] :
         {std::tuple{"base/rbac.yaml", "ClusterRoleBinding", "kdesched"},
          std::tuple{"base/rbac.yaml", "ClusterRoleBinding", "kdesched-leader-election"},
          std::tuple{"overlays/pod-picker/secret-reader.yaml", "RoleBinding", "kdesched-pod-picker-secrets"}}) {
        YAML::Node b = find(deploy_dir() / file, kind, name);
        INFO(file << ": " << kind << " " << name);
        REQUIRE(b.IsMap());
        REQUIRE(b["subjects"].size() == 1);
        CHECK(b["subjects"][0]["kind"].as<std::string>() == "ServiceAccount");
        CHECK(b["subjects"][0]["name"].as<std::string>() == sa);
        CHECK(b["subjects"][0]["namespace"].as<std::string>() == ns);
        CHECK(b["roleRef"]["name"].as<std::string>() == name);
    }
}

TEST_CASE("rbac: the Pod Picker overlay adds get on named Secrets and nothing else") {
    YAML::Node role =
        find(deploy_dir() / "overlays/pod-picker/secret-reader.yaml", "Role", "kdesched-pod-picker-secrets");
    std::vector<std::string> names;
    require_same(granted(role, &names), declared(kube::Grant::pod_picker_overlay));
    CHECK_FALSE(names.empty());  // by name only: never every Secret of the namespace
}

TEST_CASE("rbac: a request outside the table is named by verb, group and resource") {
    auto a = kube::request_attributes("PATCH", "/apis/apps/v1/namespaces/shop/deployments/web");
    REQUIRE(a);
    CHECK(a->rule() == R"(verb "patch" on "deployments" in API group "apps")");
    CHECK(kube::declared_verb(*a) == nullptr);
}
