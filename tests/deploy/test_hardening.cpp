// deploy/base's hardening: a disruption budget and spread for the two replicas, probe timeouts, the
// namespace's Pod Security level, a NetworkPolicy on the one port, a qualified image, the critical
// priority only in its overlay (with the quota GKE asks for), and a leader-election grant that an
// overlay's `namespace:` does not move away from the Lease.
#include "config/configuration.hpp"
#include "manifests.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <string>

using namespace kd::core;
using kd::test::base_deployment;
using kd::test::deploy_dir;
using kd::test::find;
using kd::test::kustomize;
using kd::test::kustomize_path;
using kd::test::rendered;

namespace {

YAML::Node pod_labels() {
    return base_deployment()["spec"]["template"]["metadata"]["labels"];
}

// Every key=value of `selector` is among `labels`.
bool selects(const YAML::Node& selector, const YAML::Node& labels) {
    REQUIRE(selector.IsMap());
    for (const auto& kv : selector)
        if (!labels[kv.first.Scalar()] || labels[kv.first.Scalar()].Scalar() != kv.second.Scalar()) return false;
    return true;
}

// Whether a rule of `role` grants `verb` on the Lease `name`.
bool grants_lease(const YAML::Node& role, const std::string& verb, const std::string& name) {
    for (const auto& rule : role["rules"]) {
        bool group = false, resource = false, verb_ok = false, named = !rule["resourceNames"];
        for (const auto& g : rule["apiGroups"]) group = group || g.Scalar() == "coordination.k8s.io";
        for (const auto& r : rule["resources"]) resource = resource || r.Scalar() == "leases";
        for (const auto& v : rule["verbs"]) verb_ok = verb_ok || v.Scalar() == verb;
        for (const auto& n : rule["resourceNames"]) named = named || n.Scalar() == name;
        if (group && resource && verb_ok && named) return true;
    }
    return false;
}

// Whether the rendered objects let ServiceAccount `ns`/`sa` `verb` the Lease `lease_ns`/`lease`: a
// RoleBinding in the Lease's namespace or a ClusterRoleBinding, naming the account, whose role grants it.
bool may_lease(const std::vector<YAML::Node>& docs, const std::string& ns, const std::string& sa,
               const std::string& lease_ns, const std::string& lease, const std::string& verb) {
    for (const auto& b : docs) {
        std::string kind = b["kind"].Scalar();
        if (kind != "ClusterRoleBinding" && !(kind == "RoleBinding" && b["metadata"]["namespace"].Scalar() == lease_ns))
            continue;
        bool names_account = false;
        for (const auto& s : b["subjects"])
            names_account = names_account || (s["kind"].Scalar() == "ServiceAccount" && s["name"].Scalar() == sa &&
                                              s["namespace"].Scalar() == ns);
        if (!names_account) continue;
        std::string role_kind = b["roleRef"]["kind"].Scalar(), role_name = b["roleRef"]["name"].Scalar();
        for (const auto& r : docs)
            if (r["kind"].Scalar() == role_kind && r["metadata"]["name"].Scalar() == role_name &&
                (role_kind == "ClusterRole" || r["metadata"]["namespace"].Scalar() == lease_ns) &&
                grants_lease(r, verb, lease))
                return true;
    }
    return false;
}

// A kustomization in a temporary folder: `namespace: foo` over deploy/, as a user's overlay would be.
struct NamespaceOverride {
    std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("kdesched-namespace-override-" + std::to_string(::getpid()));
    NamespaceOverride() {
        std::filesystem::create_directories(dir);
        // kustomize refuses absolute paths in `resources:`.
        std::ofstream(dir / "kustomization.yaml")
            << "namespace: foo\nresources:\n- " << std::filesystem::relative(deploy_dir(), dir).string() << "\n";
    }
    ~NamespaceOverride() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
};

}  // namespace

TEST_CASE("hardening: a PodDisruptionBudget lets at most one of the two replicas go at a time") {
    YAML::Node pdb = find(deploy_dir() / "base/pdb.yaml", "PodDisruptionBudget", "kdesched");
    REQUIRE(pdb.IsMap());
    CHECK(pdb["metadata"]["namespace"].Scalar() == base_deployment()["metadata"]["namespace"].Scalar());
    CHECK(pdb["spec"]["maxUnavailable"].as<int>() == 1);
    CHECK_FALSE(pdb["spec"]["minAvailable"]);
    CHECK(base_deployment()["spec"]["replicas"].as<int>() == 2);
    CHECK(selects(pdb["spec"]["selector"]["matchLabels"], pod_labels()));
}

TEST_CASE("hardening: the replicas prefer different nodes") {
    YAML::Node terms = base_deployment()["spec"]["template"]["spec"]["affinity"]["podAntiAffinity"]
                                        ["preferredDuringSchedulingIgnoredDuringExecution"];
    REQUIRE(terms.size() == 1);
    YAML::Node term = terms[0]["podAffinityTerm"];
    CHECK(term["topologyKey"].Scalar() == "kubernetes.io/hostname");
    CHECK(selects(term["labelSelector"]["matchLabels"], pod_labels()));
    CHECK(terms[0]["weight"].as<int>() == 100);
}

TEST_CASE("hardening: probes wait longer than the 1 s default, and no longer than their period") {
    YAML::Node c = base_deployment()["spec"]["template"]["spec"]["containers"][0];
    for (const char* probe : {"livenessProbe", "readinessProbe"}) {
        INFO(probe);
        REQUIRE(c[probe]["timeoutSeconds"]);
        CHECK(c[probe]["timeoutSeconds"].as<int>() > 1);
        CHECK(c[probe]["timeoutSeconds"].as<int>() <= c[probe]["periodSeconds"].as<int>());
    }
}

TEST_CASE("hardening: the namespace enforces Pod Security's restricted level") {
    YAML::Node ns = find(deploy_dir() / "base/namespace.yaml", "Namespace", "kdesched-system");
    REQUIRE(ns.IsMap());
    for (const char* mode : {"enforce", "audit", "warn"}) {
        INFO(mode);
        CHECK(ns["metadata"]["labels"][std::string("pod-security.kubernetes.io/") + mode].Scalar() == "restricted");
    }
    // What restricted asks of the pod (the rest is checked in test_manifests.cpp).
    YAML::Node pod = base_deployment()["spec"]["template"]["spec"];
    CHECK(pod["securityContext"]["runAsNonRoot"].as<bool>());
    CHECK_FALSE(pod["hostNetwork"]);
    CHECK_FALSE(pod["containers"][0]["securityContext"]["privileged"]);
}

TEST_CASE("hardening: the NetworkPolicy admits ingress to the http port only, from the monitoring namespace") {
    YAML::Node np = find(deploy_dir() / "base/networkpolicy.yaml", "NetworkPolicy", "kdesched");
    REQUIRE(np.IsMap());
    CHECK(selects(np["spec"]["podSelector"]["matchLabels"], pod_labels()));
    CHECK(np["spec"]["policyTypes"].as<std::vector<std::string>>() == std::vector<std::string>{"Ingress"});
    REQUIRE(np["spec"]["ingress"].size() == 1);
    YAML::Node rule = np["spec"]["ingress"][0];
    REQUIRE(rule["ports"].size() == 1);
    YAML::Node port = base_deployment()["spec"]["template"]["spec"]["containers"][0]["ports"][0];
    CHECK(rule["ports"][0]["port"].Scalar() == port["name"].Scalar());
    CHECK(rule["ports"][0]["protocol"].Scalar() == "TCP");
    REQUIRE(rule["from"].size() == 1);
    YAML::Node match = rule["from"][0]["namespaceSelector"]["matchExpressions"][0];
    CHECK(match["key"].Scalar() == "kubernetes.io/metadata.name");
    CHECK(match["values"].as<std::vector<std::string>>() == std::vector<std::string>{"monitoring"});
}

TEST_CASE("hardening: the rendered image is registry/name:tag") {
    auto docs = kustomize(".");
    if (!docs) return;
    std::string image = rendered(*docs, "Deployment")["spec"]["template"]["spec"]["containers"][0]["image"].Scalar();
    INFO(image);
    std::string registry = image.substr(0, image.find('/'));
    CHECK(image.find('/') != std::string::npos);
    CHECK(registry.find('.') != std::string::npos);  // a host, not a Docker Hub user
    CHECK(image.find(':', image.rfind('/')) != std::string::npos);
}

TEST_CASE("hardening: system-cluster-critical only through its overlay, with the quota that admits it") {
    auto docs = kustomize("overlays/critical-priority");
    if (!docs) return;
    YAML::Node d = rendered(*docs, "Deployment");
    CHECK(d["spec"]["template"]["spec"]["priorityClassName"].Scalar() == "system-cluster-critical");
    YAML::Node quota = rendered(*docs, "ResourceQuota");
    CHECK(quota["metadata"]["namespace"].Scalar() == d["metadata"]["namespace"].Scalar());
    YAML::Node scope = quota["spec"]["scopeSelector"]["matchExpressions"][0];
    CHECK(scope["scopeName"].Scalar() == "PriorityClass");
    CHECK(scope["operator"].Scalar() == "In");
    CHECK(scope["values"].as<std::vector<std::string>>() == std::vector<std::string>{"system-cluster-critical"});
    CHECK(quota["spec"]["hard"]["pods"].as<int>() > d["spec"]["replicas"].as<int>());  // room for a rolling update
}

TEST_CASE("hardening: an overlay's `namespace: foo` moves kdesched but leaves it the Lease it needs") {
    NamespaceOverride overlay;
    auto docs = kustomize_path(overlay.dir);
    if (!docs) return;
    DeschedulerConfiguration config = load_configuration((deploy_dir() / "base/default.yaml").string());
    YAML::Node d = rendered(*docs, "Deployment");
    std::string ns = d["metadata"]["namespace"].Scalar();
    std::string sa = d["spec"]["template"]["spec"]["serviceAccountName"].Scalar();
    CHECK(ns == "foo");
    const auto& le = config.leaderElection;
    for (const char* verb : {"get", "update", "create"}) {
        INFO(verb << " Lease " << le.resourceNamespace << "/" << le.resourceName << " as " << ns << "/" << sa);
        CHECK(may_lease(*docs, ns, sa, le.resourceNamespace, le.resourceName, verb));
    }
    // The grant is for that Lease, not every one.
    CHECK_FALSE(may_lease(*docs, ns, sa, le.resourceNamespace, "someone-elses-lease", "update"));
}
