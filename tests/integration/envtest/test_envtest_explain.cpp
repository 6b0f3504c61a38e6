// Why pods stayed, live, against a real kube-apiserver (../shared/envtest when KDESCHED_ENVTEST
// names it; skipped otherwise): `kdesched run`'s /debug/explain (read with `kdesched explain --url`)
// gives the same lines as `kdesched simulate --kubeconfig --explain` on the same cluster, and
// `kdesched explain --kubeconfig`, finding no leader pod to ask, simulates and says what it cannot know.
#include "api_loader.hpp"
#include "crd_installer.hpp"
#include "daemon_harness.hpp"
#include "envtest.hpp"
#include "run_command.hpp"

#include <rapidjson/document.h>

#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <thread>

namespace {

const std::string kKdesched = KDESCHED_BINARY;

// PodLifeTime in dry run with DefaultEvictor's defaults: every hotspot pod is old enough, and the
// evictor keeps the kube-system DaemonSet pods (system-node-critical), so the table is never empty.
std::string explain_profile(int port) {
    return "apiVersion: descheduler/v1alpha2\nkind: DeschedulerConfiguration\ndeschedulingInterval: 1s\n"
           "dryRun: true\nhealthzBindAddress: 127.0.0.1:" +
           std::to_string(port) + "\nmetricsBindAddress: 127.0.0.1:" + std::to_string(port) +
           "\nleaderElection:\n  resourceNamespace: default\n  leaseDuration: 3s\n  renewDeadline: 2s\n"
           "  retryPeriod: 500ms\n"
           "profiles:\n- name: explain\n  plugins:\n    deschedule:\n      enabled:\n      - name: PodLifeTime\n"
           "    balance:\n      disabled:\n      - name: \"*\"\n"
           "    filter:\n      disabled:\n      - name: \"*\"\n      enabled:\n      - name: DefaultEvictor\n"
           "    evict:\n      disabled:\n      - name: \"*\"\n      enabled:\n      - name: DefaultEvictor\n"
           "  pluginConfig:\n  - name: PodLifeTime\n    args:\n      maxPodLifeTimeSeconds: 1\n";
}

rapidjson::Document explain_doc(const std::string& output) {
    rapidjson::Document d;
    size_t at = output.find('{');
    REQUIRE(at != std::string::npos);
    d.Parse(output.substr(at).c_str());
    REQUIRE_FALSE(d.HasParseError());
    return d;
}

std::set<std::string> explain_lines(const rapidjson::Value& explain) {
    std::set<std::string> out;
    for (const auto& e : explain.GetArray())
        out.insert(std::string(e["pod"].GetString()) + " " + e["stage"].GetString() + " " + e["plugin"].GetString() +
                   " " + e["reason"].GetString());
    return out;
}

}  // namespace

TEST_CASE("kdesched explain: the leader's last cycle says what simulate --explain says (real API server)",
          "[envtest]") {
    kd_test::Envtest* env = kd_test::Envtest::get("/debug/explain and `kdesched explain` on a real API server");
    if (!env) return;
    auto client = env->client();
    kd_test::ApiLoader loader(*client);
    kd_test::install_crds(loader, kd_test::Envtest::crds());
    loader.load_file(std::string(KDESCHED_EXAMPLES_DIR) + "/hotspot.json");
    std::this_thread::sleep_for(std::chrono::seconds(2));  // older than maxPodLifeTimeSeconds

    int port = kd_test::free_port();
    kd_test::DaemonFiles files(std::filesystem::path(env->kubeconfig()), port);
    const std::string config = (files.dir / "profile.yaml").string();
    std::ofstream(config) << explain_profile(port);
    kd_test::DaemonProcess daemon(files, "explain");

    const std::string url = "http://127.0.0.1:" + std::to_string(port);
    rapidjson::Document live;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
        auto r = run_command(quote(kKdesched) + " explain --output json --url " + url);
        if (r.exit_code == 0) {
            live = explain_doc(r.output);
            if (live["cycle"].GetUint64() >= 2) break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    INFO(daemon.log());
    REQUIRE(live.IsObject());
    REQUIRE(live["cycle"].GetUint64() >= 2);
    CHECK(std::string(live["source"].GetString()) == url);
    std::set<std::string> from_daemon = explain_lines(live["explain"]);
    size_t kept = 0;  // the four kube-proxy pods, kept by DefaultEvictor
    for (const auto& l : from_daemon)
        kept += l.rfind("kube-system/kube-proxy-", 0) == 0 && l.find(" DefaultEvictor ") != std::string::npos;
    CHECK(kept == 4);

    auto sim = run_command(quote(kKdesched) + " simulate --output json --explain --cycles 1 --config " + quote(config) +
                           " --kubeconfig " + quote(env->kubeconfig()));
    INFO(sim.output);
    REQUIRE(sim.exit_code == 0);
    auto simulated = explain_doc(sim.output);
    CHECK(explain_lines(simulated["cycles"][0]["explain"]) == from_daemon);

    // One pod's line, as text.
    auto one = run_command(quote(kKdesched) + " explain --url " + url + " --pod kube-system/kube-proxy-b3682");
    CHECK(one.exit_code == 0);
    CHECK_THAT(one.output, Catch::Contains("1 pod(s) considered and not evicted named kube-system/kube-proxy-b3682"));
    CHECK_THAT(one.output, Catch::Contains("DefaultEvictor"));

    // Through the cluster: the Lease names the leader, whose pod the API server does not have (the
    // daemon runs beside the server here), so explain simulates and says so.
    auto via = run_command(quote(kKdesched) + " explain --output json --config " + quote(config) + " --kubeconfig " +
                           quote(env->kubeconfig()));
    INFO(via.output);
    REQUIRE(via.exit_code == 0);
    auto fallback = explain_doc(via.output);
    CHECK(std::string(fallback["source"].GetString()) == "simulation");
    CHECK_THAT(std::string(fallback["noLeader"].GetString()),
               Catch::Contains("did not answer through the API server's pod proxy"));
    CHECK(fallback["notKnown"].Size() == 3);
    CHECK(explain_lines(fallback["explain"]) == from_daemon);

    daemon.signal(SIGTERM);
    CHECK(daemon.wait(20) == 0);
}
