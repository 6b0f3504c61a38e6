// deploy/ on a real kube-apiserver with RBAC on (../shared/envtest, when KDESCHED_ENVTEST names it,
// and kubectl; skipped otherwise): `kubectl apply --dry-run=server -k deploy/` accepts every
// manifest; kdesched then runs with the ServiceAccount's own token — only what the manifests grant —
// and migrates the hotspot pod; with a verb taken out of the ClusterRole, the 403 names the rule to add.
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

// A kubeconfig for the ServiceAccount the manifests create, with a token from the TokenRequest API.
std::filesystem::path service_account_kubeconfig(const kd_test::Envtest& env, kd_test::ApiLoader& admin) {
    rapidjson::Document token;
    token.Parse(admin
                    .request("POST", "/api/v1/namespaces/kdesched-system/serviceaccounts/kdesched/token",
                             R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest",)"
                             R"("spec":{"expirationSeconds":3600}})",
                             {201})
                    .c_str());
    std::filesystem::path file = env.work() + "/kubeconfig-kdesched";
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

}  // namespace

TEST_CASE("deploy/ on a real API server with RBAC: accepted, and enough for the hotspot migration", "[envtest]") {
    kd_test::Envtest* env = kd_test::Envtest::get("deploy/'s manifests and RBAC");
    if (!env) return;
    if (run_command("command -v kubectl").exit_code != 0) {
        std::printf("SKIPPED: kubectl is not installed, so deploy/ was not applied to a real API server\n");
        return;
    }
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
