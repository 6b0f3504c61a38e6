// Reflectors against the test API server (testkit/fake_apiserver.py): the model equals the
// server's state after each fault a live cluster produces — paged lists and an expired continue
// token, 410 Gone on list and watch, 429 with Retry-After, 500s, a connection dropped mid-stream,
// a stalled stream, slow bodies, a server restart with its resourceVersions reset — and kinds
// the server does not serve (404) or forbids (403) are said clearly while the rest works. The
// fault scenarios run twice: with JSON, and with protobuf as kdesched asks for it by default.
#include "fake_apiserver.hpp"
#include "kube/watch/cluster_sync.hpp"
#include "server_drafts.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <kdesched/view.hpp>

#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

using namespace kd::core;
using kd_test::FakeApiServer;

namespace {

std::string pod(const std::string& name, const std::string& node = "n1", const std::string& label = "v1") {
    return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
           R"(","namespace":"shop","labels":{"v":")" + label + R"("}},"spec":{"nodeName":")" + node +
           R"(","containers":[{"name":"c","resources":{"requests":{"cpu":"100m"}}}]},"status":{"phase":"Running"}})";
}

std::string pods(int from, int to) {
    std::string out = "[";
    for (int i = from; i < to; ++i) out += (i > from ? "," : "") + pod("p" + std::to_string(i));
    return out + "]";
}

// A client, a sync of every kind and a model it feeds, with short timings for tests.
struct Live {
    FakeApiServer& server;
    std::unique_ptr<kube::ApiClient> client;
    std::unique_ptr<kube::ClusterSync> sync;
    ClusterModel model;
    kube::ModelFeeder feeder{model};
    std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> logs = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(200);

    explicit Live(FakeApiServer& s, kube::ReflectorOptions o = options(), kube::ClientOptions c = client_options(),
                  kube::Connection connection = {})
        : server(s) {
        spdlog::default_logger()->sinks().push_back(logs);
        if (connection.server.empty()) connection.server = s.url();
        client = std::make_unique<kube::ApiClient>(connection, c);
        sync = std::make_unique<kube::ClusterSync>(*client, o);
        sync->start();
    }
    ~Live() {
        sync->stop();
        auto& sinks = spdlog::default_logger()->sinks();
        sinks.erase(std::remove(sinks.begin(), sinks.end(), logs), sinks.end());
    }
    static kube::ReflectorOptions options() {
        kube::ReflectorOptions o;
        o.watch_timeout_min = o.watch_timeout_max = std::chrono::seconds(2);
        o.backoff_min = std::chrono::milliseconds(50);
        o.backoff_max = std::chrono::milliseconds(400);
        return o;
    }
    // The Accept of the test (ENCODINGS() runs it in each encoding).
    static inline std::string accept = "application/json";
    static kube::ClientOptions client_options() {
        kube::ClientOptions c;
        c.accept = accept;
        c.qps = 0;
        c.backoff_base = std::chrono::milliseconds(50);
        c.stream_timeout = std::chrono::seconds(1);
        return c;
    }
    // Applies what arrives until `done` holds (or 20 s pass).
    bool until(const std::function<bool()>& done) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (std::chrono::steady_clock::now() < deadline) {
            sync->apply(feeder);
            if (done()) return true;
            sync->wait(std::chrono::steady_clock::now() + std::chrono::milliseconds(50));
        }
        return false;
    }
    bool synced() {
        return until([&] { return sync->not_synced(feeder).empty(); });
    }
    std::vector<std::string> pod_names() const {
        std::vector<std::string> out;
        for (const kd_pod* p : model.pods()) out.push_back(std::string(kd::Pod(p).name()));
        std::sort(out.begin(), out.end());
        return out;
    }
    const kube::Reflector& reflector(ObjectKind k) const {
        for (const auto& r : sync->reflectors())
            if (r->kind() == k) return *r;
        throw std::logic_error("no reflector");
    }
    std::string log_text() const {
        std::string out;
        for (const auto& l : logs->last_formatted()) out += l;
        return out;
    }
};

// Runs the rest of the test once with JSON, once with protobuf (the server answers in it).
#define ENCODINGS()                                                                                              \
    Live::accept =                                                                                               \
        GENERATE(as<std::string>{}, "application/json", "application/vnd.kubernetes.protobuf,application/json"); \
    INFO("Accept: " << Live::accept)

std::vector<std::string> names(int from, int to) {
    std::vector<std::string> out;
    for (int i = from; i < to; ++i) out.push_back("p" + std::to_string(i));
    std::sort(out.begin(), out.end());
    return out;
}

// The requests the server saw for `path` (list or watch), in order: "<code> <query>".
std::vector<std::string> served(FakeApiServer& s, const std::string& path, bool watch) {
    std::vector<std::string> out;
    auto r = s.requests();
    for (const auto& q : r["requests"].GetArray()) {
        if (std::string(q["path"].GetString()) != path || q["watch"].GetBool() != watch) continue;
        std::string query;
        for (const auto& m : q["query"].GetObject())
            query += std::string(m.name.GetString()) + "=" + m.value.GetString() + " ";
        out.push_back(std::to_string(q["code"].GetInt()) + " " + query);
    }
    return out;
}

}  // namespace

TEST_CASE("reflectors: list, then watch — additions, changes and deletions reach the model", "[kube][reflector]") {
    ENCODINGS();
    FakeApiServer server;
    server.load(pods(0, 5));
    Live live(server);
    REQUIRE(live.synced());
    CHECK(live.pod_names() == names(0, 5));
    server.load("[" + pod("p5") + "," + pod("p1", "n2", "v2") + "]");
    server.remove(R"([{"apiVersion":"v1","kind":"Pod","namespace":"shop","name":"p0"}])");
    REQUIRE(live.until([&] {
        const kd_pod* p1 = live.model.pod_by_name("shop", "p1");
        return live.pod_names() == names(1, 6) && p1 && kd::Pod(p1).node_name() == "n2";
    }));
    CHECK(kd::Pod(live.model.pod_by_name("shop", "p1")).labels().get("v") == "v2");
    const auto& stats = live.reflector(ObjectKind::pod).stats();
    CHECK(stats.lists == 1);
    CHECK(stats.relists == 0);
    // The first list comes from the watch cache (resourceVersion=0), the watch from its version.
    auto lists = served(server, "/api/v1/pods", false);
    REQUIRE_FALSE(lists.empty());
    CHECK_THAT(lists[0], Catch::Contains("resourceVersion=0"));
    auto watches = served(server, "/api/v1/pods", true);
    REQUIRE_FALSE(watches.empty());
    CHECK_THAT(watches[0], Catch::Contains("allowWatchBookmarks=true"));
}

TEST_CASE("reflectors: a paged list, and an expired continue token restarts the list", "[kube][reflector]") {
    ENCODINGS();
    FakeApiServer server;
    server.settings(R"({"rv0_ignores_limit": false})");
    server.load(pods(0, 7));
    // The second page's continue token has expired: the whole list starts again.
    server.faults(R"([{"method":"GET","path":"/api/v1/pods","watch":false,"times":1,"continue":true,
                       "action":{"type":"status","code":410}}])");
    auto o = Live::options();
    o.page_size = 3;
    Live live(server, o);
    REQUIRE(live.synced());
    CHECK(live.pod_names() == names(0, 7));
    auto lists = served(server, "/api/v1/pods", false);
    // The first page from the watch cache, the second refused, then a consistent list (no
    // resourceVersion) in three pages.
    REQUIRE(lists.size() == 5);
    CHECK_THAT(lists[0],
               Catch::StartsWith("200") && Catch::Contains("resourceVersion=0") && !Catch::Contains("continue="));
    CHECK_THAT(lists[1], Catch::StartsWith("410") && Catch::Contains("continue="));
    CHECK_THAT(lists[2],
               Catch::StartsWith("200") && !Catch::Contains("continue=") && !Catch::Contains("resourceVersion="));
    CHECK_THAT(lists[3], Catch::StartsWith("200") && Catch::Contains("continue="));
    CHECK_THAT(lists[4], Catch::StartsWith("200") && Catch::Contains("continue="));
    CHECK(live.reflector(ObjectKind::pod).stats().relists == 1);
}

TEST_CASE("reflectors: 410 Gone on a watch relists — what was deleted meanwhile disappears", "[kube][reflector]") {
    ENCODINGS();
    FakeApiServer server;
    server.load(pods(0, 4));
    // The watch breaks off; while it is down p0 is deleted and the history compacted.
    server.faults(
        R"([{"method":"GET","path":"/api/v1/pods","watch":true,"times":1,"action":{"type":"stall","seconds":3}}])");
    Live live(server);
    REQUIRE(live.synced());
    server.remove(R"([{"apiVersion":"v1","kind":"Pod","namespace":"shop","name":"p0"}])");
    server.control("POST", "compact");
    REQUIRE(live.until([&] { return live.pod_names() == names(1, 4); }));
    CHECK(live.reflector(ObjectKind::pod).stats().relists >= 1);
    // An ERROR event with 410 does the same (counted from before the fault: the watch may come
    // round to it at once).
    uint64_t before = live.reflector(ObjectKind::pod).stats().relists;
    server.faults(
        R"([{"method":"GET","path":"/api/v1/pods","watch":true,"times":1,"action":{"type":"error_event","code":410,"after_events":0}}])");
    server.load("[" + pod("p9") + "]");
    bool relisted = live.until([&] {
        return live.reflector(ObjectKind::pod).stats().relists > before && live.model.pod_by_name("shop", "p9");
    });
    const auto& stats = live.reflector(ObjectKind::pod).stats();
    INFO("relists " << stats.relists << " watches " << stats.watches << " events " << stats.events << " retries "
                    << stats.retries << " last error: " << live.reflector(ObjectKind::pod).last_error());
    REQUIRE(relisted);
}

TEST_CASE("reflectors: relist_now reads what a stalled watch has not delivered, with a consistent LIST",
          "[kube][reflector]") {
    ENCODINGS();
    FakeApiServer server;
    server.load(pods(0, 3));
    // The watch goes silent for longer than the test waits, and the client would notice late.
    server.faults(
        R"([{"method":"GET","path":"/api/v1/pods","watch":true,"times":1,"action":{"type":"stall","seconds":20}}])");
    auto c = Live::client_options();
    c.stream_timeout = std::chrono::seconds(60);
    Live live(server, Live::options(), c);
    REQUIRE(live.synced());
    server.load("[" + pod("p3") + "]");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    live.sync->apply(live.feeder);
    REQUIRE(live.model.pod_by_name("shop", "p3") == nullptr);  // the watch is stalled
    const uint64_t lists = live.feeder.counters(ObjectKind::pod).lists;
    const auto asked = std::chrono::steady_clock::now();
    live.sync->relist(ObjectKind::pod);
    REQUIRE(live.until([&] { return live.feeder.counters(ObjectKind::pod).lists > lists; }));
    CHECK(std::chrono::steady_clock::now() - asked < std::chrono::seconds(3));
    CHECK(live.pod_names() == names(0, 4));
    CHECK(live.reflector(ObjectKind::pod).stats().relists == 1);
    // The list after the stalled watch reads from etcd (no resourceVersion), not the watch cache.
    auto served_lists = served(server, "/api/v1/pods", false);
    REQUIRE(served_lists.size() == 2);
    CHECK_THAT(served_lists[1], Catch::StartsWith("200") && !Catch::Contains("resourceVersion="));
}

TEST_CASE("reflectors: 429 with Retry-After and 500 are retried with backoff — no request is refused for good",
          "[kube][reflector]") {
    ENCODINGS();
    FakeApiServer server;
    server.load(pods(0, 3));
    server.faults(
        R"([{"method":"GET","path":"/api/v1/pods","watch":false,"times":1,"action":{"type":"status","code":429,"retry_after":1}},
                     {"method":"GET","path":"/api/v1/pods","watch":false,"times":2,"action":{"type":"status","code":500}}])");
    auto started = std::chrono::steady_clock::now();
    Live live(server);
    REQUIRE(live.synced());
    CHECK(live.pod_names() == names(0, 3));
    auto lists = served(server, "/api/v1/pods", false);
    REQUIRE(lists.size() == 4);
    CHECK_THAT(lists[0], Catch::StartsWith("429"));
    CHECK_THAT(lists[1], Catch::StartsWith("500"));
    CHECK_THAT(lists[3], Catch::StartsWith("200"));
    CHECK(live.reflector(ObjectKind::pod).stats().retries >= 3);
    CHECK(std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(150));
}

TEST_CASE("reflectors: a connection dropped mid-stream resumes from the last resourceVersion, without a relist",
          "[kube][reflector]") {
    ENCODINGS();
    FakeApiServer server;
    server.load(pods(0, 2));
    Live live(server);
    REQUIRE(live.synced());
    server.faults(
        R"([{"method":"GET","path":"/api/v1/pods","watch":true,"times":1,"action":{"type":"drop","after_events":1}}])");
    // Whatever watch is open ends at its timeout; the next one carries the fault.
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    server.load(pods(2, 6));
    REQUIRE(live.until([&] { return live.pod_names() == names(0, 6); }));
    CHECK(live.reflector(ObjectKind::pod).stats().relists == 0);
    CHECK(live.reflector(ObjectKind::pod).stats().lists == 1);
}

TEST_CASE("reflectors: a LIST body cut off mid-way and a slow body", "[kube][reflector]") {
    ENCODINGS();
    FakeApiServer server;
    server.load(pods(0, 30));
    server.faults(
        R"([{"method":"GET","path":"/api/v1/pods","watch":false,"times":1,"action":{"type":"drop","after_bytes":1500}},
                     {"method":"GET","path":"/api/v1/pods","watch":false,"times":1,"action":{"type":"slow","chunk_bytes":700,"delay_ms":5}}])");
    Live live(server);
    REQUIRE(live.synced());
    CHECK(live.pod_names() == names(0, 30));
    CHECK(live.reflector(ObjectKind::pod).stats().lists == 1);
}

TEST_CASE("reflectors: a server restart with its resourceVersions reset forces relists that end equal to it",
          "[kube][reflector]") {
    ENCODINGS();
    FakeApiServer server;
    server.load(pods(0, 3));
    Live live(server);
    REQUIRE(live.synced());
    server.control("POST", "restart");
    server.remove(R"([{"apiVersion":"v1","kind":"Pod","namespace":"shop","name":"p1"}])");
    server.load(pods(3, 5));
    REQUIRE(live.until([&] { return live.pod_names() == std::vector<std::string>{"p0", "p2", "p3", "p4"}; }));
    CHECK(live.reflector(ObjectKind::pod).stats().relists >= 1);
}

TEST_CASE(
    "reflectors: a kind not served (404) is said once with what needs it, a forbidden kind (403) names the "
    "RBAC rule, one kdesched can go without is read as empty, saying what that costs, the rest syncs",
    "[kube][reflector]") {
    ENCODINGS();
    FakeApiServer server;
    server.settings(R"({"not_served":[{"group":"slo.koordinator.sh","resource":"nodemetrics"}],
                        "forbid":[{"verb":"list","group":"policy","resource":"poddisruptionbudgets"},
                                  {"verb":"list","group":"scheduling.koordinator.sh","resource":"reservations"}]})");
    server.load(pods(0, 2));
    Live live(server);
    REQUIRE(live.until([&] {
        auto missing = live.sync->not_synced(live.feeder);
        return missing.size() == 1 && missing[0].find("forbidden") != std::string::npos;
    }));
    CHECK(live.pod_names() == names(0, 2));
    CHECK(live.reflector(ObjectKind::node_metric).stats().not_served);
    CHECK(live.reflector(ObjectKind::pdb).stats().forbidden);
    // MigrationController's own objects it cannot do without: the kind stays unsynced.
    auto missing = live.sync->not_synced(live.feeder);
    REQUIRE(missing.size() == 1);
    CHECK_THAT(missing[0], Catch::StartsWith("Reservation: ") && Catch::Contains("forbidden"));
    CHECK_FALSE(live.reflector(ObjectKind::reservation).stats().forbidden);
    std::string logs = live.log_text();
    CHECK_THAT(logs, Catch::Contains("NodeMetric (/apis/slo.koordinator.sh/v1alpha1/nodemetrics) is not served by the "
                                     "API server (HTTP 404"));
    CHECK_THAT(logs, Catch::Contains("LowNodeLoad (node usage comes from koordlet's NodeMetrics) has no data until it "
                                     "is (install Koordinator's CRDs)"));
    CHECK_THAT(logs, Catch::Contains("forbidden: GET /apis/policy/v1/poddisruptionbudgets?"));
    CHECK_THAT(logs, Catch::Contains("grant kdesched's ServiceAccount verb \"list\" on \"poddisruptionbudgets\" in API "
                                     "group \"policy\" in deploy/base/rbac.yaml"));
    CHECK_THAT(logs, Catch::Contains("PodDisruptionBudget (/apis/policy/v1/poddisruptionbudgets) may not be listed "
                                     "(HTTP 403): kdesched goes on without them — the plugins see no "
                                     "PodDisruptionBudget"));
    // Said once each, though retried.
    CHECK(logs.find("is not served") == logs.rfind("is not served"));
    CHECK(logs.find("may not be listed") == logs.rfind("may not be listed"));
    CHECK(logs.find("forbidden: GET /apis/policy") == logs.rfind("forbidden: GET /apis/policy"));
}

TEST_CASE("reflectors: a built-in kind not served points at the server, not at Koordinator's CRDs",
          "[kube][reflector]") {
    FakeApiServer server;
    server.settings(R"({"not_served":[{"group":"","resource":"replicationcontrollers"}]})");
    server.load(pods(0, 1));
    Live live(server);
    REQUIRE(live.until([&] { return live.sync->not_synced(live.feeder).empty(); }));
    CHECK(live.reflector(ObjectKind::replication_controller).stats().not_served);
    std::string logs = live.log_text();
    CHECK_THAT(logs, Catch::Contains("ReplicationController (/api/v1/replicationcontrollers) is not served by the API "
                                     "server (HTTP 404") &&
                         Catch::Contains("a built-in kind every Kubernetes API server serves"));
    CHECK_THAT(logs, !Catch::Contains("install Koordinator's CRDs"));
}

TEST_CASE("reflectors: the test server's protobuf (its own encoder) decodes to what its JSON gives, every kind",
          "[kube][reflector][protobuf]") {
    // The real server's objects of tests/data/protobuf, loaded into the test server.
    std::string objects = "[";
    for (const char* file : {"nodes", "pods", "namespaces", "replicasets", "deployments", "statefulsets", "jobs",
                             "daemonsets", "replicationcontrollers", "poddisruptionbudgets"}) {
        std::ifstream in(std::string(KD_PROTOBUF_DATA_DIR) + "/" + file + ".json");
        std::stringstream text;
        text << in.rdbuf();
        rapidjson::Document list;
        list.Parse(text.str().c_str());
        REQUIRE(list.IsObject());
        std::string kind = list["kind"].GetString();
        kind.resize(kind.size() - 4);  // "PodList" -> "Pod"
        for (auto& item : list["items"].GetArray()) {
            item.AddMember("kind", rapidjson::Value(kind.c_str(), list.GetAllocator()), list.GetAllocator());
            item.AddMember("apiVersion", rapidjson::Value(list["apiVersion"], list.GetAllocator()),
                           list.GetAllocator());
            rapidjson::StringBuffer b;
            rapidjson::Writer<rapidjson::StringBuffer> w(b);
            item.Accept(w);
            objects += (objects.size() > 1 ? "," : "") + std::string(b.GetString());
        }
    }
    FakeApiServer server;
    server.load(objects + "]");
    auto read_all = [&](const std::string& accept) {
        auto options = Live::client_options();
        options.accept = accept;
        kube::Connection connection;
        connection.server = server.url();
        kube::ApiClient client(connection, options);
        kd_test::ServerDrafts drafts = kd_test::read_server_drafts(client);
        REQUIRE(drafts.failures.empty());
        CHECK(drafts.problems.empty());
        return drafts;
    };
    auto json = read_all("application/json");
    auto pb = read_all("application/vnd.kubernetes.protobuf,application/json");
    REQUIRE(json.texts.size() >= 15);
    CHECK(pb.texts == json.texts);
    CHECK(pb.encodings.at("Pod") == kube::Encoding::protobuf);
    CHECK(pb.encodings.at("PodDisruptionBudget") == kube::Encoding::protobuf);
    CHECK(json.encodings.at("Pod") == kube::Encoding::json);
}
