// deploy/ on a real kube-apiserver with RBAC on (../shared/envtest, when KDESCHED_ENVTEST names it,
// and kubectl; skipped otherwise): `kubectl apply --dry-run=server -k deploy/` accepts every
// manifest; kdesched then runs with the ServiceAccount's own token — only what the manifests grant —
// and migrates the hotspot pod; with a verb taken out of the ClusterRole, the 403 names the rule to add.
// And under Koordinator's chart's own ClusterRole (the switch by image alone keeps it), which lacks
// Jobs, ReplicationControllers and PodDisruptionBudgets, kdesched goes ready and migrates the pod.
#include "api_actor.hpp"
#include "api_loader.hpp"
#include "daemon_harness.hpp"
#include "envtest.hpp"
#include "run_command.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <regex>

using kd_test::str;

namespace {

const std::string kDeploy = KDESCHED_DEPLOY_DIR;

std::string kubectl(const kd_test::Envtest& env, const std::string& args) {
    auto r = run_command("kubectl --kubeconfig " + quote(env.kubeconfig()) + " " + args);
    INFO("kubectl " << args << ":\n" << r.output);
    REQUIRE(r.exit_code == 0);
    return r.output;
}

// The server's URL, from the env file start.sh wrote.
std::string server_of(const kd_test::Envtest& env) {
    std::ifstream in(env.work() + "/env");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("SERVER=", 0) == 0) return line.substr(7);
    return "";
}

// A kubeconfig for a ServiceAccount (by default the one the manifests create), with a token from
// the TokenRequest API.
std::filesystem::path service_account_kubeconfig(const kd_test::Envtest& env, kd_test::ApiLoader& admin,
                                                 const std::string& ns = "kdesched-system",
                                                 const std::string& name = "kdesched") {
    rapidjson::Document token;
    token.Parse(admin
                    .request("POST", "/api/v1/namespaces/" + ns + "/serviceaccounts/" + name + "/token",
                             R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest",)"
                             R"("spec":{"expirationSeconds":3600}})",
                             {201})
                    .c_str());
    std::filesystem::path file = env.work() + "/kubeconfig-" + name;
    std::ofstream(file) << "apiVersion: v1\nkind: Config\nclusters:\n- name: envtest\n  cluster:\n    server: "
                        << server_of(env) << "\n    certificate-authority: " << env.work()
                        << "/ca.crt\nusers:\n- name: kdesched\n  user:\n    token: " << str(token, {"status", "token"})
                        << "\ncontexts:\n- name: envtest\n  context: {cluster: envtest, user: kdesched}\n"
                           "current-context: envtest\n";
    return file;
}

bool log_contains(const kd_test::DaemonProcess& daemon, const std::string& text, int seconds) {
    for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
         std::chrono::steady_clock::now() < deadline; std::this_thread::sleep_for(std::chrono::milliseconds(200)))
        if (daemon.log().find(text) != std::string::npos) return true;
    return false;
}

// The RBAC server, or nullptr (the case reports skipped) without one or without kubectl.
kd_test::Envtest* rbac_server(const std::string& checks) {
    kd_test::Envtest* env = kd_test::Envtest::get(checks);
    if (!env) return nullptr;
    if (run_command("command -v kubectl").exit_code != 0) {
        std::printf("SKIPPED: kubectl is not installed, so %s could not be applied to a real API server\n",
                    checks.c_str());
        return nullptr;
    }
    return env;
}

}  // namespace

TEST_CASE("deploy/ on a real API server with RBAC: accepted, and enough for the hotspot migration", "[envtest]") {
    kd_test::Envtest* env = rbac_server("deploy/'s manifests and RBAC");
    if (!env) return;
    auto client = env->client();
    kd_test::ApiLoader admin(*client);
    // koordinator-system exists (Koordinator's install makes it): kdesched's Lease goes there.
    kd_test::install_hotspot(admin, kd_test::Envtest::crds(), std::string(KDESCHED_EXAMPLES_DIR) + "/hotspot.json");

    // A server-side dry run checks every object as the server would store it (the namespace first:
    // a dry run does not create it for the objects inside).
    kubectl(*env, "apply -f " + quote(kDeploy + "/base/namespace.yaml"));
    std::string dry = kubectl(*env, "apply --dry-run=server -k " + quote(kDeploy));
    for (const char* object : {"serviceaccount/kdesched", "clusterrole.rbac.authorization.k8s.io/kdesched",
                               "clusterrolebinding.rbac.authorization.k8s.io/kdesched",
                               "clusterrole.rbac.authorization.k8s.io/kdesched-leader-election",
                               "clusterrolebinding.rbac.authorization.k8s.io/kdesched-leader-election",
                               "deployment.apps/kdesched", "service/kdesched-metrics",
                               "poddisruptionbudget.policy/kdesched", "networkpolicy.networking.k8s.io/kdesched"}) {
        INFO(dry);
        CHECK(std::regex_search(
            dry, std::regex(std::string("(^|\n)") + object + " (created|configured) \\(server dry run\\)")));
    }
    CHECK(std::regex_search(dry, std::regex("configmap/kdesched-config-[a-z0-9]+ created \\(server dry run\\)")));
    kubectl(*env, "apply -k " + quote(kDeploy));

    // The ClusterRole without `create` on PodMigrationJobs: the daemon's first migration is refused,
    // and the log says which rule to add.
    std::string rbac;
    {
        std::ifstream in(kDeploy + "/base/rbac.yaml");
        rbac.assign(std::istreambuf_iterator<char>(in), {});
    }
    const std::string full =
        "  resources: [podmigrationjobs, reservations]\n  verbs: [get, list, watch, create, update, patch, delete]\n";
    REQUIRE(rbac.find(full) != std::string::npos);
    std::string reduced = rbac;
    reduced.replace(
        reduced.find(full), full.size(),
        "  resources: [podmigrationjobs, reservations]\n  verbs: [get, list, watch, update, patch, delete]\n"
        "- apiGroups: [scheduling.koordinator.sh]\n  resources: [reservations]\n  verbs: [create]\n");
    std::ofstream(env->work() + "/rbac-reduced.yaml") << reduced;
    kubectl(*env, "apply -f " + quote(env->work() + "/rbac-reduced.yaml"));

    kd_test::ApiActor actor(admin);
    actor.step();
    int port = kd_test::free_port();
    kd_test::DaemonFiles files(service_account_kubeconfig(*env, admin), port);
    kd_test::DaemonProcess daemon(files, "envtest-rbac");
    const std::string rule =
        R"(grant kdesched's ServiceAccount verb "create" on "podmigrationjobs" in API group "scheduling.koordinator.sh")";
    bool said = false;
    for (int i = 0; i < 100 && !said; ++i) {
        actor.step();
        said = log_contains(daemon, rule, 1);
    }
    INFO(kd_test::warnings_in(daemon.log()));
    CHECK(said);
    CHECK(actor.list("/apis/scheduling.koordinator.sh/v1alpha1/podmigrationjobs")["items"].Size() == 0);

    // The manifests as shipped: the same daemon, its token unchanged, now migrates the pod.
    kubectl(*env, "apply -k " + quote(kDeploy));
    bool done = actor.step_until_succeeded(120);
    INFO(kd_test::warnings_in(daemon.log()));
    REQUIRE(done);
    std::string holder = actor.lease_holder();
    CHECK_FALSE(holder.empty());  // the leader-election ClusterRole lets it lead
    CHECK(holder.find("leases>") == std::string::npos);
    // Nothing the daemon did was forbidden once the shipped RBAC was back.
    std::string log = daemon.log();
    size_t last_refusal = log.rfind(rule);
    REQUIRE(last_refusal != std::string::npos);
    CHECK(log.find("HTTP 403", log.find('\n', last_refusal)) == std::string::npos);
    daemon.signal(SIGTERM);
    CHECK(daemon.wait(20) == 0);
}

// The rules of Koordinator's chart for koord-descheduler (koordinator-sh/charts,
// versions/v1.8.0/templates/rbac/koord-descheduler.yaml) as facts: no Jobs, ReplicationControllers
// or PodDisruptionBudgets. Switching by image alone keeps them, so kdesched must run on them.
const char* const kKoordinatorChartRole = R"(apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: koord-descheduler-role}
rules:
- {apiGroups: ["", events.k8s.io], resources: [events], verbs: ["*"]}
- {apiGroups: [coordination.k8s.io], resources: [leases], verbs: [create, get, update]}
- {apiGroups: [""], resources: [namespaces], verbs: [list, get, watch]}
- {apiGroups: [""], resources: [nodes], verbs: [list, get, patch, update, watch]}
- {apiGroups: [""], resources: [pods], verbs: ["*"]}
- {apiGroups: [""], resources: [pods/eviction], verbs: [create]}
- {apiGroups: [scheduling.k8s.io], resources: [priorityclasses], verbs: [get, watch, list]}
- {apiGroups: [apiextensions.k8s.io], resources: [customresourcedefinitions], verbs: [get, list, patch, update, watch]}
- {apiGroups: [apps], resources: ["*"], verbs: [get, list, watch]}
- {apiGroups: [apps.kruise.io], resources: ["*"], verbs: [get, list, watch]}
- apiGroups: [config.koordinator.sh, slo.koordinator.sh, scheduling.koordinator.sh, topology.node.k8s.io]
  resources: ["*"]
  verbs: ["*"]
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: koord-descheduler, namespace: koordinator-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: koord-descheduler-rolebinding}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: koord-descheduler-role}
subjects:
- {kind: ServiceAccount, name: koord-descheduler, namespace: koordinator-system}
)";

TEST_CASE("Koordinator's chart's RBAC is enough: kdesched goes ready without Jobs and PDBs and migrates the pod",
          "[envtest]") {
    kd_test::Envtest* env = rbac_server("Koordinator's chart's RBAC");
    if (!env) return;
    auto client = env->client();
    kd_test::ApiLoader admin(*client);
    kd_test::install_hotspot(admin, kd_test::Envtest::crds(), std::string(KDESCHED_EXAMPLES_DIR) + "/hotspot.json");
    std::ofstream(env->work() + "/koordinator-chart-rbac.yaml") << kKoordinatorChartRole;
    kubectl(*env, "apply -f " + quote(env->work() + "/koordinator-chart-rbac.yaml"));

    kd_test::ApiActor actor(admin);
    actor.step();
    int port = kd_test::free_port();
    kd_test::DaemonFiles files(service_account_kubeconfig(*env, admin, "koordinator-system", "koord-descheduler"),
                               port);
    kd_test::DaemonProcess daemon(files, "envtest-chart-rbac");
    bool done = actor.step_until_succeeded(120);
    INFO(kd_test::warnings_in(daemon.log()));
    REQUIRE(done);
    CHECK(kd_test::scrape(port, "/readyz").first == 200);
    // What it went without, said once each with the cost.
    std::string log = daemon.log();
    for (const char* kind : {"Job (/apis/batch/v1/jobs)", "ReplicationController (/api/v1/replicationcontrollers)",
                             "PodDisruptionBudget (/apis/policy/v1/poddisruptionbudgets)",
                             "PersistentVolumeClaim (/api/v1/persistentvolumeclaims)"}) {
        std::string said = std::string(kind) + " may not be listed (HTTP 403): kdesched goes on without them";
        CHECK(log.find(said) != std::string::npos);
        CHECK(log.find(said) == log.rfind(said));
    }
    daemon.signal(SIGTERM);
    CHECK(daemon.wait(20) == 0);
}
