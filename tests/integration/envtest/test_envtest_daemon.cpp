// `kdesched run` against a real kube-apiserver (../shared/envtest, when KDESCHED_ENVTEST names it;
// skipped otherwise): the hotspot scenario's writes are accepted as a real server checks them —
// the Lease, PodMigrationJob create then its status subresource, the Reservation, the Eviction
// API, Events — with the test playing koordlet, the scheduler and the workload controller (a
// server alone has none: evicted pods stay Terminating until the test deletes them).
#include "api_loader.hpp"
#include "crd_installer.hpp"
#include "daemon_harness.hpp"
#include "envtest.hpp"

#include <catch2/catch.hpp>

using kd_test::str;

namespace {

// The cluster around the daemon, through the real API.
class ApiActor {
public:
    explicit ApiActor(kd_test::ApiLoader& api) : api_(api) {}

    rapidjson::Document list(const std::string& path) {
        rapidjson::Document d;
        d.Parse(api_.request("GET", path, "").c_str());
        return d;
    }

    void step() {
        const std::string now = kd_test::ClusterActor::now();
        auto metrics = list("/apis/slo.koordinator.sh/v1alpha1/nodemetrics");
        for (auto& m : metrics["items"].GetArray()) {
            m["status"]["updateTime"].SetString(now.c_str(), metrics.GetAllocator());
            m.AddMember("apiVersion", "slo.koordinator.sh/v1alpha1", metrics.GetAllocator());
            m.AddMember("kind", "NodeMetric", metrics.GetAllocator());
            api_.request("PUT",
                         "/apis/slo.koordinator.sh/v1alpha1/nodemetrics/" + str(m, {"metadata", "name"}) + "/status",
                         kd_test::text_of(m), {200, 409});
        }
        auto pods = list("/api/v1/pods");
        for (const auto& p : pods["items"].GetArray())  // no kubelet: finish what was evicted
            if (!str(p, {"metadata", "deletionTimestamp"}).empty())
                api_.request("DELETE",
                             "/api/v1/namespaces/" + str(p, {"metadata", "namespace"}) + "/pods/" +
                                 str(p, {"metadata", "name"}) + "?gracePeriodSeconds=0",
                             "", {200, 404});
        auto reservations = list("/apis/scheduling.koordinator.sh/v1alpha1/reservations");
        auto jobs = list("/apis/scheduling.koordinator.sh/v1alpha1/podmigrationjobs");
        for (auto& r : reservations["items"].GetArray()) {
            std::string name = str(r, {"metadata", "name"}), phase = str(r, {"status", "phase"});
            std::string head =
                R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation","metadata":)" +
                kd_test::text_of(r["metadata"]) + R"(,"spec":)" + kd_test::text_of(r["spec"]);
            const std::string path = "/apis/scheduling.koordinator.sh/v1alpha1/reservations/" + name + "/status";
            if (phase.empty()) {
                api_.request("PUT", path,
                             head +
                                 R"(,"status":{"phase":"Available","nodeName":"node-2","conditions":[)"
                                 R"({"type":"Scheduled","status":"True","reason":"Scheduled","lastProbeTime":null,)"
                                 R"("lastTransitionTime":null},{"type":"Ready","status":"True","reason":"Available",)"
                                 R"("lastProbeTime":null,"lastTransitionTime":null}]}})",
                             {200, 409});
                continue;
            }
            if (phase != "Available") continue;
            for (const auto& j : jobs["items"].GetArray()) {
                if (kd_test::text_of(j).find("\"" + name + "\"") == std::string::npos) continue;
                std::string ns = str(j, {"spec", "podRef", "namespace"}), pod = str(j, {"spec", "podRef", "name"});
                bool gone = true;
                for (const auto& p : pods["items"].GetArray())
                    gone &= !(str(p, {"metadata", "namespace"}) == ns && str(p, {"metadata", "name"}) == pod);
                if (!gone) continue;
                rapidjson::Document created;
                created.Parse(api_.request("POST", "/api/v1/namespaces/" + ns + "/pods",
                                           R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + pod +
                                               R"(-moved"},"spec":{"nodeName":"node-2","containers":[{"name":"c",)"
                                               R"("image":"x"}]}})",
                                           {201, 409})
                                  .c_str());
                std::string uid = str(created, {"metadata", "uid"});
                if (uid.empty()) continue;
                api_.request("PUT", "/api/v1/namespaces/" + ns + "/pods/" + pod + "-moved/status",
                             R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + pod +
                                 R"(-moved","namespace":")" + ns + R"(","resourceVersion":")" +
                                 str(created, {"metadata", "resourceVersion"}) +
                                 R"("},"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}})");
                api_.request("PUT", path,
                             head +
                                 R"(,"status":{"phase":"Succeeded","nodeName":"node-2","conditions":[)"
                                 R"({"type":"Scheduled","status":"True","reason":"Scheduled","lastProbeTime":null,)"
                                 R"("lastTransitionTime":null}],"currentOwners":[{"namespace":")" +
                                 ns + R"(","name":")" + pod + R"(-moved","uid":")" + uid + R"("}]}})",
                             {200, 409});
                break;
            }
        }
    }

private:
    kd_test::ApiLoader& api_;
};

}  // namespace

TEST_CASE("kdesched run's writes are accepted by a real API server: the hotspot migration", "[envtest]") {
    kd_test::Envtest* env = kd_test::Envtest::get("`kdesched run` writing to a real API server");
    if (!env) return;
    auto client = env->client();
    kd_test::ApiLoader api(*client);
    kd_test::install_crds(api, kd_test::Envtest::crds());
    api.load_file(std::string(KDESCHED_EXAMPLES_DIR) + "/hotspot.json");
    api.request("POST", "/api/v1/namespaces",
                R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"koordinator-system"}})", {201, 409});
    ApiActor actor(api);
    actor.step();
    int port = kd_test::free_port();
    kd_test::DaemonFiles files(std::filesystem::path(env->kubeconfig()), port);
    kd_test::DaemonProcess daemon(files, "envtest");

    auto succeeded = [&] {
        auto jobs = actor.list("/apis/scheduling.koordinator.sh/v1alpha1/podmigrationjobs");
        for (const auto& j : jobs["items"].GetArray())
            if (str(j, {"status", "phase"}) == "Succeeded") return true;
        return false;
    };
    bool done = false;
    for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
         !done && std::chrono::steady_clock::now() < deadline;) {
        actor.step();
        done = succeeded();
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    std::string problems;  // what the daemon warned about, for the failure message
    std::istringstream log(daemon.log());
    for (std::string line; std::getline(log, line);)
        if (line.find("[warning]") != std::string::npos || line.find("[error]") != std::string::npos)
            problems += line.substr(0, 400) + "\n";
    INFO(problems.substr(0, 8000));
    REQUIRE(done);
    // The status went through the subresource (a create drops it), so the phase is the server's.
    auto lease = actor.list("/apis/coordination.k8s.io/v1/namespaces/koordinator-system/leases");
    REQUIRE(lease["items"].Size() == 1);
    CHECK_FALSE(str(lease["items"][0], {"spec", "holderIdentity"}).empty());
    CHECK(actor.list("/apis/scheduling.koordinator.sh/v1alpha1/reservations")["items"].Size() >= 1);
    auto events = actor.list("/apis/events.k8s.io/v1/events");
    bool descheduled = false;
    for (const auto& e : events["items"].GetArray())
        descheduled |= str(e, {"reason"}) == "Descheduled" && str(e, {"reportingController"}) == "koord-descheduler";
    CHECK(descheduled);
    daemon.signal(SIGTERM);
    CHECK(daemon.wait(20) == 0);
    lease = actor.list("/apis/coordination.k8s.io/v1/namespaces/koordinator-system/leases");
    CHECK(str(lease["items"][0], {"spec", "holderIdentity"}).empty());
}
