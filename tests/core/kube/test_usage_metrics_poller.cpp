// The daemon's poller of metrics.k8s.io (kube/watch/usage_metrics_poller.hpp) against the test
// API server: node usage smoothed over rounds as upstream's collector smooths it (the sequence of
// usageclients_test.go@v0.35.1 TestActualUsageClient: 1400m, then 500m, then 900m read as 1400m,
// 1310m, 1269m), pods as last listed, and metrics-server missing (404, 503) or forbidden (403)
// said once, retried, and leaving no usage rather than zero usage.
#include "client_options.hpp"
#include "fake_apiserver.hpp"
#include "kube/watch/usage_metrics_poller.hpp"

#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <catch2/catch.hpp>

#include <algorithm>

using namespace kd::core;
using kd_test::FakeApiServer;

namespace {

std::string node_metrics(const std::string& name, const std::string& cpu, const std::string& memory = "1Gi") {
    return R"({"apiVersion":"metrics.k8s.io/v1beta1","kind":"NodeMetrics","metadata":{"name":")" + name +
           R"("},"timestamp":"2026-11-28T02:00:00Z","window":"20.01s","usage":{"cpu":")" + cpu + R"(","memory":")" +
           memory + R"("}})";
}

std::string pod_metrics(const std::string& name, const std::string& cpu) {
    return R"({"apiVersion":"metrics.k8s.io/v1beta1","kind":"PodMetrics","metadata":{"namespace":"shop","name":")" +
           name +
           R"("},"timestamp":"2026-11-28T02:00:00Z","window":"20.01s","containers":[{"name":"c","usage":{"cpu":")" +
           cpu + R"(","memory":"10Mi"}}]})";
}

struct Poll {
    FakeApiServer& server;
    kube::ApiClient client{kd_test::connection_to(server), kd_test::quick_client_options()};
    kube::UsageMetricsPoller poller{client};
    uint64_t seen = 0;
    std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> logs = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(50);
    explicit Poll(FakeApiServer& s) : server(s) { spdlog::default_logger()->sinks().push_back(logs); }
    ~Poll() {
        auto& sinks = spdlog::default_logger()->sinks();
        sinks.erase(std::remove(sinks.begin(), sinks.end(), logs), sinks.end());
    }
    UsageMetrics round() {
        poller.poll_once();
        auto fresh = poller.take_if_newer(&seen);
        REQUIRE(fresh);
        return *fresh;
    }
    size_t logged(const std::string& text) {
        auto lines = logs->last_formatted();
        return std::count_if(lines.begin(), lines.end(),
                             [&](const std::string& l) { return l.find(text) != std::string::npos; });
    }
};

}  // namespace

TEST_CASE("usage poller: node cpu and memory smoothed over rounds, pods as last listed", "[usage]") {
    FakeApiServer server;
    server.load("[" + node_metrics("n1", "400m") + "," + node_metrics("n2", "1400m", "1000") + "," +
                pod_metrics("web-1", "120m") + "]");
    Poll p(server);
    UsageMetrics u = p.round();
    CHECK(u.nodes.at("n1").usage == UsageAmounts{{"cpu", 400}, {"memory", 1073741824000}});
    CHECK(u.nodes.at("n2").usage.at("cpu") == 1400);
    CHECK(u.pods.at({"shop", "web-1"}).containers.at(0).usage.at("cpu") == 120);
    CHECK(p.poller.problem().empty());
    // Nothing new until the next round.
    CHECK_FALSE(p.poller.take_if_newer(&p.seen));

    server.load("[" + node_metrics("n2", "500m", "2000") + "]");
    server.remove(R"([{"apiVersion":"metrics.k8s.io/v1beta1","kind":"PodMetrics","namespace":"shop","name":"web-1"}])");
    u = p.round();
    CHECK(u.nodes.at("n2").usage.at("cpu") == 1310);
    CHECK(u.nodes.at("n2").usage.at("memory") == 1100 * 1000);  // bytes: round(0.9 × 1000 + 0.1 × 2000)
    CHECK(u.nodes.at("n1").usage.at("cpu") == 400);             // the same sample: the same value
    CHECK(u.pods.empty());                                      // web-1's metrics are gone
    server.load("[" + node_metrics("n2", "900m", "2000") + "]");
    CHECK(p.round().nodes.at("n2").usage.at("cpu") == 1269);
}

TEST_CASE("usage poller: metrics.k8s.io not served (404) is said once, leaves no usage, and is polled again",
          "[usage]") {
    FakeApiServer server;
    server.load("[" + node_metrics("n1", "400m") + "]");
    server.settings(R"({"unserved_groups": ["metrics.k8s.io"]})");
    Poll p(server);
    UsageMetrics u = p.round();
    CHECK(u.nodes.empty());  // no usage, not zero usage: the plugin finds no NodeMetrics
    CHECK_THAT(p.poller.problem(), Catch::StartsWith("metrics.k8s.io/v1beta1 is not served (HTTP 404") &&
                                       Catch::Contains("is metrics-server installed and its APIService available") &&
                                       Catch::Contains("polling again every 5 s"));
    p.round();
    CHECK(p.logged("metrics.k8s.io/v1beta1 is not served") == 1);
    // metrics-server comes up: usage arrives, and the recovery is said.
    server.settings(R"({"unserved_groups": []})");
    u = p.round();
    CHECK(u.nodes.at("n1").usage.at("cpu") == 400);
    CHECK(p.poller.problem().empty());
    CHECK(p.logged("metrics.k8s.io answers again: usage of 1 nodes and 0 pods") == 1);
}

TEST_CASE("usage poller: an unavailable APIService (503) and a forbidden list (403) are said, not fatal", "[usage]") {
    FakeApiServer server;
    server.load("[" + node_metrics("n1", "400m") + "]");
    Poll p(server);
    REQUIRE(p.round().nodes.size() == 1);
    server.faults(R"([{"method":"GET","path":"/apis/metrics.k8s.io/v1beta1/nodes","times":0,
        "action":{"type":"status","code":503,"reason":"ServiceUnavailable","message":"service unavailable"}}])");
    UsageMetrics u = p.round();
    CHECK_THAT(p.poller.problem(), Catch::StartsWith("metrics.k8s.io/v1beta1 is not served (HTTP 503"));
    CHECK(u.nodes.at("n1").usage.at("cpu") == 400);  // a failed round keeps the smoothed value, as upstream
    server.control("DELETE", "faults");
    server.faults(R"([{"method":"GET","path":"/apis/metrics.k8s.io/v1beta1/pods","times":0,
        "action":{"type":"status","code":403,"reason":"Forbidden","message":"pods.metrics.k8s.io is forbidden"}}])");
    u = p.round();
    CHECK_THAT(p.poller.problem(), Catch::StartsWith("cannot list pods of metrics.k8s.io: HTTP 403") &&
                                       Catch::Contains("\"list\" on \"pods\" in API group \"metrics.k8s.io\""));
    CHECK(u.pods.empty());
}

TEST_CASE("usage poller: its thread polls at its interval and stops", "[usage]") {
    FakeApiServer server;
    server.load("[" + node_metrics("n1", "400m") + "]");
    kube::ApiClient client(kd_test::connection_to(server), kd_test::quick_client_options());
    kube::UsageMetricsPoller poller(client, kube::UsagePollerOptions{std::chrono::milliseconds(50)});
    poller.start();
    poller.wait_first_round(std::chrono::seconds(10));
    uint64_t seen = 0;
    auto first = poller.take_if_newer(&seen);
    REQUIRE(first);
    CHECK(first->nodes.size() == 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK(poller.take_if_newer(&seen));  // more rounds came
    poller.stop();
    CHECK(server.served("/apis/metrics.k8s.io/v1beta1/nodes").size() >= 3);
}
