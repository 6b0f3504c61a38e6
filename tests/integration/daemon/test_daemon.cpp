// `kdesched run` end to end against the test API server, with a cluster actor playing koordlet,
// koord-scheduler and the workload controllers: the hotspot migration (PodMigrationJob,
// Reservation, Eviction API, replacement bound, Succeeded), a PodDisruptionBudget's 429, two
// replicas on one lease, SIGTERM, and /healthz, /readyz, /metrics. Assertions are on what the
// server received and stored.
#include "daemon_harness.hpp"
#include "exposition_reader.hpp"
#include "run_command.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <regex>

using kd_test::ClusterActor;
using kd_test::DaemonFiles;
using kd_test::DaemonProcess;
using kd_test::FakeApiServer;
using kd_test::str;

namespace {

FakeApiServer::Options with_tokens() {
    return {{"--token", "a-token", "--token", "b-token"}, false};
}

// Requests the server received, optionally only one method and a path pattern.
std::vector<const rapidjson::Value*> requests(const rapidjson::Document& all, const std::string& method,
                                              const std::string& path_regex, const std::string& user = "") {
    std::vector<const rapidjson::Value*> out;
    std::regex re(path_regex);
    for (const auto& r : all["requests"].GetArray())
        if (str(r, {"method"}) == method && std::regex_search(str(r, {"path"}), re) &&
            (user.empty() || str(r, {"user"}) == user))
            out.push_back(&r);
    return out;
}

bool any_job_in(ClusterActor& actor, const std::string& phase) {
    auto jobs = actor.objects("PodMigrationJob");
    for (const auto& j : jobs["items"].GetArray())
        if (str(j, {"status", "phase"}) == phase) return true;
    return false;
}

std::string lease_holder(FakeApiServer& server) {
    rapidjson::Document d;
    d.Parse(server.control("GET", "objects?kind=Lease").c_str());
    for (const auto& l : d["items"].GetArray())
        if (str(l, {"metadata", "name"}) == "koord-descheduler") return str(l, {"spec", "holderIdentity"});
    return "<none>";
}

bool has_leader(FakeApiServer& server) {
    std::string holder = lease_holder(server);
    return !holder.empty() && holder != "<none>";
}

// The hotspot cluster on a test server and one daemon on it ("a", with a-token).
struct HotspotDaemon {
    FakeApiServer server{with_tokens()};
    ClusterActor actor{server};
    bool loaded = (actor.load_hotspot(), true);  // before the daemon starts
    int port = kd_test::free_port();
    DaemonFiles files{server.url(), "a-token", port};
    DaemonProcess daemon{files, "a"};
};

// The value of one sample of the Prometheus text exposition (-1 when absent).
double sample(const std::string& text, const std::string& series) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(series + " ", 0) == 0) return std::stod(line.substr(series.size() + 1));
    return -1;
}

}  // namespace

TEST_CASE_METHOD(HotspotDaemon, "run: the hotspot pod migrates end to end through the API server", "[daemon]") {
    REQUIRE(actor.until([&] { return any_job_in(actor, "Succeeded"); }, 60));
    auto all = server.requests();

    // A PodMigrationJob created, its status written through the status subresource: a merge
    // patch of the status alone, on the resourceVersion it was decided on.
    auto created = requests(all, "POST", "^/apis/scheduling.koordinator.sh/v1alpha1/podmigrationjobs$", "token:a…");
    REQUIRE_FALSE(created.empty());
    CHECK(str((*created.front())["body"], {"kind"}) == "PodMigrationJob");
    auto statuses = requests(all, "PATCH", "^/apis/scheduling.koordinator.sh/v1alpha1/podmigrationjobs/[^/]+/status$");
    REQUIRE_FALSE(statuses.empty());
    for (auto* patch : statuses) {
        const auto& body = (*patch)["body"];
        CHECK(body.MemberCount() == 2);
        CHECK(body.HasMember("status"));
        CHECK_FALSE(str(body, {"metadata", "resourceVersion"}).empty());
    }
    CHECK(requests(all, "PUT", "^/apis/scheduling.koordinator.sh/v1alpha1/podmigrationjobs/").empty());
    // A Reservation first, then the eviction through the Eviction API (policy/v1).
    auto reservations = requests(all, "POST", "^/apis/scheduling.koordinator.sh/v1alpha1/reservations$");
    auto evictions = requests(all, "POST", "^/api/v1/namespaces/[^/]+/pods/[^/]+/eviction$");
    REQUIRE_FALSE(reservations.empty());
    REQUIRE_FALSE(evictions.empty());
    CHECK(str((*evictions.front())["body"], {"apiVersion"}) == "policy/v1");
    CHECK(str((*evictions.front())["body"], {"kind"}) == "Eviction");
    CHECK((*reservations.front())["time"].GetDouble() < (*evictions.front())["time"].GetDouble());
    // Events recorded (events.k8s.io/v1), about the job and the pod.
    auto events = requests(all, "POST", "^/apis/events.k8s.io/v1/namespaces/[^/]+/events$");
    REQUIRE_FALSE(events.empty());
    bool descheduled = false;
    for (auto* e : events) descheduled |= str((*e)["body"], {"reason"}) == "Descheduled";
    CHECK(descheduled);
    // The job that succeeded says so, and its pod left node-1.
    auto jobs = actor.objects("PodMigrationJob");
    std::string pod;
    for (const auto& j : jobs["items"].GetArray())
        if (str(j, {"status", "phase"}) == "Succeeded") pod = str(j, {"spec", "podRef", "name"});
    REQUIRE_FALSE(pod.empty());
    auto pods = actor.objects("Pod");
    for (const auto& p : pods["items"].GetArray()) CHECK(str(p, {"metadata", "name"}) != pod);

    // Health and metrics, scraped and matching what happened.
    CHECK(kd_test::scrape(port, "/healthz") == std::make_pair(200, std::string("ok")));
    CHECK(kd_test::scrape(port, "/readyz").first == 200);
    auto [code, metrics] = kd_test::scrape(port, "/metrics");
    REQUIRE(code == 200);
    CHECK(sample(metrics, R"(leader_election_master_status{name="koord-descheduler"})") == 1);
    // Successful evictions counted = evictions the server received. The daemon may go on to a
    // second migration after the first succeeded, so both sides are read again until they agree.
    auto evicted_total = [](const std::string& text) {
        double evicted = 0;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
            if (line.rfind("descheduler_pods_evicted_total{", 0) == 0 &&
                line.find("result=\"success\"") != std::string::npos)
                evicted += std::stod(line.substr(line.rfind(' ') + 1));
        return evicted;
    };
    CHECK(evicted_total(metrics) >= 1);
    double counted = 0, received = 0;
    CHECK(actor.until(
        [&] {
            counted = evicted_total(kd_test::scrape(port, "/metrics").second);
            auto now = server.requests();
            received = double(requests(now, "POST", "^/api/v1/namespaces/[^/]+/pods/[^/]+/eviction$").size());
            return counted == received;
        },
        10));
    CHECK(counted == received);
    CHECK(metrics.find("descheduler_pods_evicted{") != std::string::npos);  // the deprecated twin
    CHECK(metrics.find("descheduler_loop_duration_seconds_count") != std::string::npos);
    CHECK(metrics.find("descheduler_descheduler_loop_duration_seconds_count") != std::string::npos);
    CHECK(metrics.find(R"(descheduler_strategy_duration_seconds_count{extension_point="balance",)"
                       R"(profile="kdesched-default",strategy="LowNodeLoad"})") != std::string::npos);
    // The whole text as Prometheus reads it, strictly (the reflectors' and model's families too).
    auto families = kd_test::ExpositionReader::read(metrics);
    CHECK(families.at("kdesched_watch_events_total").type == "counter");
    CHECK(families.at("kdesched_model_objects").type == "gauge");
    CHECK(metrics.find(R"(kdesched_api_requests_total{code="201",resource="pods/eviction",verb="create"})") !=
          std::string::npos);
    // The gauges follow the model about once a second.
    CHECK(actor.until(
        [&] {
            return sample(kd_test::scrape(port, "/metrics").second,
                          R"(kdesched_pod_migration_jobs{phase="Succeeded"})") >= 1;
        },
        10));
    CHECK(sample(metrics, R"(kdesched_model_objects{kind="Node"})") == 4);
    CHECK(sample(metrics, "process_resident_memory_bytes") > 0);

    // SIGTERM: the running hook finishes, the lease is handed back, exit 0.
    auto t = std::chrono::steady_clock::now();
    daemon.signal(SIGTERM);
    CHECK(daemon.wait(15) == 0);
    CHECK(std::chrono::steady_clock::now() - t < std::chrono::seconds(10));
    CHECK(lease_holder(server).empty());
}

namespace {

// `kdesched snapshot --digest` of the server the daemon reads: a fresh read, digested.
std::string server_digest(const DaemonFiles& files) {
    auto r =
        run_bounded({KDESCHED_BINARY, "snapshot", "--kubeconfig", (files.dir / "kubeconfig").string(), "--digest"}, 60);
    REQUIRE(r.exit_code == 0);
    return r.output.substr(0, r.output.find('\n'));
}

// One kind's entry of a digest answer.
std::string kind_digest(const std::string& json, const std::string& kind) {
    rapidjson::Document d;
    d.Parse(json.c_str());
    if (!d.IsObject() || !d.HasMember("kinds") || !d["kinds"].HasMember(kind.c_str())) return "<none>";
    return kd_test::text_of(d["kinds"][kind.c_str()]);
}

}  // namespace

TEST_CASE_METHOD(HotspotDaemon,
                 "run: /debug/model equals `kdesched snapshot --digest` of the server, and shows a watch that lags",
                 "[daemon]") {
    const std::string ns_v1 = R"([{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"digest","uid":"ns-digest",)"
                              R"("labels":{"v":"1"}}}])";
    server.load(ns_v1);
    // Synced: the model equals a fresh read (the daemon's own writes may need a moment to come back).
    std::string model, fresh;
    REQUIRE(actor.until(
        [&] {
            fresh = server_digest(files);
            model = kd_test::scrape(port, "/debug/model").second;
            return model == fresh;
        },
        20));
    CHECK(kind_digest(model, "Node").find(R"("count":4)") != std::string::npos);
    const std::string before = kind_digest(model, "Namespace");

    // The daemon's watches are dropped and their resumption stalls for 6 s: a Namespace changed
    // meanwhile is on the server, not yet in the model — and the digests say so.
    server.faults(R"([{"path":"/api/v1/namespaces","watch":true,"times":0,"action":{"type":"stall","seconds":6}}])");
    server.control("POST", "drop_watches", "{}");
    server.load(std::string(ns_v1).replace(ns_v1.find(R"("v":"1")"), 7, R"("v":"2")"));
    fresh = server_digest(files);
    CHECK(kind_digest(fresh, "Namespace") != before);
    CHECK(kind_digest(kd_test::scrape(port, "/debug/model").second, "Namespace") == before);
    server.control("DELETE", "faults");
    // The stalled watch resumes and brings the change: equal again.
    CHECK(actor.until(
        [&] {
            return kind_digest(kd_test::scrape(port, "/debug/model").second, "Namespace") ==
                   kind_digest(server_digest(files), "Namespace");
        },
        20));
    CHECK(kind_digest(kd_test::scrape(port, "/debug/model").second, "Namespace") != before);
}

TEST_CASE("run: a PodDisruptionBudget's 429 refuses the eviction with the server's message", "[daemon]") {
    FakeApiServer server(with_tokens());
    ClusterActor actor(server);
    actor.load_hotspot();
    // Every pod of the shop is protected: the Eviction API answers 429.
    auto pods = actor.objects("Pod");
    std::string protected_pods = "[";
    for (const auto& p : pods["items"].GetArray())
        protected_pods += std::string(protected_pods.size() > 1 ? "," : "") + R"({"namespace":")" +
                          str(p, {"metadata", "namespace"}) + R"(","name":")" + str(p, {"metadata", "name"}) + "\"}";
    server.settings(R"({"pdb_protected":)" + protected_pods + "]}");
    int port = kd_test::free_port();
    DaemonFiles files(server.url(), "a-token", port);
    DaemonProcess daemon(files, "a");

    auto refused_event = [&] {
        auto all = server.requests();
        for (auto* e : requests(all, "POST", "^/apis/events.k8s.io/v1/namespaces/[^/]+/events$"))
            if (str((*e)["body"], {"reason"}) == "Evicting" && str((*e)["body"], {"type"}) == "Warning" &&
                str((*e)["body"], {"note"}).find("disruption budget") != std::string::npos)
                return true;
        return false;
    };
    REQUIRE(actor.until(refused_event, 60));
    auto all = server.requests();
    auto evictions = requests(all, "POST", "/eviction$");
    REQUIRE_FALSE(evictions.empty());
    for (auto* e : evictions) CHECK((*e)["code"].GetInt() == 429);
    // Not retried by the client: each attempt is the job's own (one request per reconcile).
    CHECK_FALSE(any_job_in(actor, "Succeeded"));
    // The pods are all still there, and nothing counted them as evicted.
    CHECK(actor.objects("Pod")["items"].Size() == pods["items"].Size());
    auto metrics = kd_test::scrape(port, "/metrics").second;
    CHECK(
        metrics.find(
            R"(descheduler_pods_evicted_total{dry_run="false",namespace="shop",node="node-1",profile="kdesched-default",result="error")") !=
        std::string::npos);
    daemon.signal(SIGTERM);
    CHECK(daemon.wait(15) == 0);
}

TEST_CASE("run: two replicas on one lease — one writes — SIGKILL hands over within the lease — SIGTERM at once",
          "[daemon]") {
    FakeApiServer server(with_tokens());
    ClusterActor actor(server);
    actor.load_hotspot();
    int port_a = kd_test::free_port(), port_b = kd_test::free_port();
    DaemonFiles files_a(server.url(), "a-token", port_a), files_b(server.url(), "b-token", port_b);
    auto a = std::make_unique<DaemonProcess>(files_a, "a");
    REQUIRE(actor.until([&] { return has_leader(server); }, 20, false));
    std::string holder_a = lease_holder(server);
    DaemonProcess b(files_b, "b");

    // A creates a migration; the scheduler holds its Reservation back for now.
    REQUIRE(actor.until([&] { return actor.objects("PodMigrationJob")["items"].Size() > 0; }, 60, false));
    std::string job = str(actor.objects("PodMigrationJob")["items"][0], {"metadata", "name"});
    // B is warm (synced) but writes nothing while A leads.
    REQUIRE(actor.until([&] { return kd_test::scrape(port_b, "/readyz").first == 200; }, 20, false));
    auto before = server.requests();
    for (const char* m : {"POST", "PUT", "PATCH", "DELETE"})
        for (auto* r : requests(before, m, "^/api", "token:b…"))
            CHECK(str(*r, {"path"}).find("/leases/") != std::string::npos);  // only lease attempts
    CHECK(sample(kd_test::scrape(port_b, "/metrics").second,
                 R"(leader_election_master_status{name="koord-descheduler"})") == 0);

    // A dies without a word: B takes over once the lease runs out (3 s) and finishes A's job.
    auto killed = std::chrono::steady_clock::now();
    a->signal(SIGKILL);
    REQUIRE(actor.until(
        [&] {
            auto h = lease_holder(server);
            return !h.empty() && h != holder_a;
        },
        10, false));
    CHECK(std::chrono::steady_clock::now() - killed < std::chrono::seconds(3 + 3));
    bool finished = actor.until(
        [&] {
            auto jobs = actor.objects("PodMigrationJob");
            for (const auto& j : jobs["items"].GetArray())
                if (str(j, {"metadata", "name"}) == job && str(j, {"status", "phase"}) == "Succeeded") return true;
            return false;
        },
        60);
    if (!finished) {  // what B did and what the server holds, to tell a stall from a slow machine
        UNSCOPED_INFO("B's log:\n" << b.log());
        UNSCOPED_INFO("jobs: " << server.control("GET", "objects?kind=PodMigrationJob"));
        UNSCOPED_INFO("reservations: " << server.control("GET", "objects?kind=Reservation"));
    }
    REQUIRE(finished);
    auto after = server.requests();
    CHECK_FALSE(
        requests(after, "PATCH", "^/apis/scheduling.koordinator.sh/v1alpha1/podmigrationjobs/" + job, "token:b…")
            .empty());
    // Before its first hook B read the jobs and Reservations again, from etcd (no resourceVersion):
    // its watch may lag behind what A wrote last.
    CHECK_THAT(b.log(), Catch::Contains("leading: PodMigrationJobs and Reservations read again before the first hook"));
    for (const char* kind : {"podmigrationjobs", "reservations"}) {
        bool consistent = false;
        for (auto* r :
             requests(after, "GET", std::string("^/apis/scheduling.koordinator.sh/v1alpha1/") + kind + "$", "token:b…"))
            consistent |= !(*r)["watch"].GetBool() && !(*r)["query"].HasMember("resourceVersion");
        CHECK(consistent);
    }

    // SIGTERM hands the lease back at once.
    b.signal(SIGTERM);
    CHECK(b.wait(15) == 0);
    CHECK(lease_holder(server).empty());
}

TEST_CASE_METHOD(HotspotDaemon, "run: a leader that cannot renew its lease exits 3 soon after the renew deadline",
                 "[daemon]") {
    REQUIRE(actor.until([&] { return has_leader(server); }, 20, false));
    // The API server refuses every renewal from now on (a partition, an overloaded server).
    server.faults(R"([{"method":"PUT","path":"/apis/coordination.k8s.io/v1/namespaces/koordinator-system/leases/",
                       "times":0,"action":{"type":"status","code":500}}])");
    auto cut = std::chrono::steady_clock::now();
    int code = daemon.wait(20);
    CHECK(code == 3);
    // renewDeadline is 2 s; each failed renewal is retried by the client for a few seconds more.
    CHECK(std::chrono::steady_clock::now() - cut < std::chrono::seconds(15));
    CHECK_THAT(daemon.log(), Catch::Contains("lost the lease koordinator-system/koord-descheduler"));
}

// kubernetes-sigs/descheduler's chart probes https://:10258/healthz: with --secure-port the same
// endpoints answer over TLS too (a self-signed certificate), beside the plain ones.
TEST_CASE("run: --secure-port serves /healthz, /readyz and /metrics over HTTPS as well", "[daemon]") {
    FakeApiServer server{with_tokens()};
    ClusterActor actor{server};
    actor.load_hotspot();
    int port = kd_test::free_port(), secure = kd_test::free_port();
    DaemonFiles files{server.url(), "a-token", port};
    DaemonProcess daemon{files, "a", {"--secure-port", std::to_string(secure), "--bind-address", "127.0.0.1"}};
    REQUIRE(actor.until([&] { return kd_test::scrape(secure, "/readyz", true).first == 200; }, 30));
    CHECK(kd_test::scrape(secure, "/healthz", true) == std::make_pair(200, std::string("ok")));
    auto [code, metrics] = kd_test::scrape(secure, "/metrics", true);
    CHECK(code == 200);
    CHECK(sample(metrics, R"(leader_election_master_status{name="koord-descheduler"})") >= 0);
    CHECK(kd_test::scrape(secure, "/healthz").first == 0);  // plain HTTP: no answer on the secure port
    CHECK(kd_test::scrape(port, "/healthz") == std::make_pair(200, std::string("ok")));
    CHECK_THAT(daemon.log(),
               Catch::Contains("serving every endpoint over HTTPS on 127.0.0.1:" + std::to_string(secure) +
                               " (the secure port) with a self-signed certificate for "));
}

TEST_CASE("run: a server that cannot be reached is exit code 3 after the sync wait, a bad kubeconfig exit 1",
          "[daemon]") {
    int port = kd_test::free_port();
    DaemonFiles files("http://127.0.0.1:" + std::to_string(kd_test::free_port()), "a-token", port);
    std::ofstream(files.dir / "bad-kubeconfig") << "apiVersion: v1\nkind: Config\nclusters: 7\n";
    auto r = run_bounded({KDESCHED_BINARY, "run", "--config", (files.dir / "profile.yaml").string(), "--kubeconfig",
                          (files.dir / "bad-kubeconfig").string(), "--plugin-dir", KDESCHED_PLUGIN_DIR},
                         20);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("bad-kubeconfig") != std::string::npos);
}
