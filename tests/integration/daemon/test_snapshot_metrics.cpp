// `kdesched snapshot` against the test API server serving metrics-server's aggregated API: the
// NodeMetrics and PodMetrics it serves are written into the snapshot, and `kdesched simulate` on
// that snapshot evicts what it evicts on tests/data/clusters/metrics-server, the files the server
// was loaded from. When metrics.k8s.io is not served (404) or its list is forbidden (403), the
// snapshot is written without them and one line on stderr says what that means.
#include "daemon_harness.hpp"
#include "run_command.hpp"
#include "simulated_evictions.hpp"
#include "snapshot_objects.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

using kd_test::DaemonFiles;
using kd_test::FakeApiServer;
using kd_test::str;

namespace {

const std::string kClusterDir = KDESCHED_TEST_CLUSTERS "/metrics-server";
const std::string kMetricsPolicy = KDESCHED_TEST_PROFILES "/integration/sigs-metrics-policy.yaml";

// The metrics-server cluster on a test server, a kubeconfig for it, and where to write.
struct MetricsServerCluster {
    FakeApiServer server;
    bool loaded = (server.load(kd_test::snapshot_objects_json(kClusterDir)), true);
    DaemonFiles files{server.url(), "a-token", kd_test::free_port()};
    std::string snapshot = (files.dir / "snapshot.json").string();

    BoundedResult take_snapshot() {
        return run_bounded(
            {KDESCHED_BINARY, "snapshot", "--kubeconfig", (files.dir / "kubeconfig").string(), "-o", snapshot}, 60);
    }
    rapidjson::Document written() {
        rapidjson::Document d;
        d.Parse(kd_test::read_file(snapshot).c_str());
        return d;
    }
};

// The objects of one kind in a written snapshot, by "namespace/name" (or "name").
std::map<std::string, const rapidjson::Value*> of_kind(const rapidjson::Document& snapshot, const std::string& kind) {
    std::map<std::string, const rapidjson::Value*> out;
    for (const auto& o : snapshot["items"].GetArray()) {
        if (str(o, {"kind"}) != kind) continue;
        std::string ns = str(o, {"metadata", "namespace"});
        out[(ns.empty() ? "" : ns + "/") + str(o, {"metadata", "name"})] = &o;
    }
    return out;
}

// One cycle under the metrics policy: "pod node result" per eviction.
std::vector<std::string> evicted_by_usage(const std::string& cluster) {
    return simulated_evictions("--config " + quote(kMetricsPolicy) + " --cluster " + quote(cluster));
}

size_t occurrences(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

const std::string kNoMetricsLine = "warning: the snapshot has no NodeMetrics or PodMetrics: ";
const std::string kWhatItMeans = "LowNodeUtilization with metricsUtilization cannot run on this snapshot";

}  // namespace

TEST_CASE_METHOD(MetricsServerCluster,
                 "snapshot: metrics-server's NodeMetrics and PodMetrics are written, and simulate decides by them",
                 "[snapshot][metrics]") {
    auto r = take_snapshot();
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("3 NodeMetrics") && Catch::Contains("5 PodMetrics"));
    CHECK(r.output.find(kNoMetricsLine) == std::string::npos);

    // The values served, as served, each with its apiVersion and kind.
    rapidjson::Document snap = written();
    REQUIRE_FALSE(snap.HasParseError());
    auto nodes = of_kind(snap, "NodeMetrics");
    REQUIRE(nodes.size() == 3);
    CHECK(str(*nodes.at("node-1"), {"apiVersion"}) == "metrics.k8s.io/v1beta1");
    CHECK(str(*nodes.at("node-1"), {"usage", "cpu"}) == "3200m");
    CHECK(str(*nodes.at("node-1"), {"usage", "memory"}) == "4Gi");
    CHECK(str(*nodes.at("node-2"), {"usage", "cpu"}) == "400m");
    CHECK(str(*nodes.at("node-3"), {"window"}) == "20.01s");
    auto pods = of_kind(snap, "PodMetrics");
    REQUIRE(pods.size() == 5);
    const auto& web1 = *pods.at("shop/web-1");
    REQUIRE(web1["containers"].Size() == 1);
    CHECK(str(web1["containers"][0], {"name"}) == "app");
    CHECK(str(web1["containers"][0], {"usage", "cpu"}) == "700m");
    CHECK(str(*pods.at("shop/db-1"), {"timestamp"}) == "2026-03-01T08:59:45Z");
    CHECK(str((*pods.at("shop/db-1"))["containers"][0], {"usage", "memory"}) == "1Gi");
    CHECK(of_kind(snap, "Pod").size() == 5);

    // The snapshot decides as the files it came from: web-1 and web-2 leave node-1 by usage.
    const std::vector<std::string> expected{"shop/web-1 node-1 accepted", "shop/web-2 node-1 accepted"};
    CHECK(evicted_by_usage(kClusterDir) == expected);
    CHECK(evicted_by_usage(snapshot) == expected);
}

TEST_CASE_METHOD(MetricsServerCluster,
                 "snapshot: without metrics.k8s.io (404) the snapshot is written without usage, and one line says so",
                 "[snapshot][metrics]") {
    server.settings(R"({"unserved_groups": ["metrics.k8s.io"]})");
    auto r = take_snapshot();
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK(occurrences(r.output, kNoMetricsLine) == 1);
    CHECK_THAT(r.output, Catch::Contains(kNoMetricsLine + "metrics.k8s.io/v1beta1 is not served (HTTP 404") &&
                             Catch::Contains("is metrics-server installed and its APIService available") &&
                             Catch::Contains(kWhatItMeans));
    rapidjson::Document snap = written();
    CHECK(of_kind(snap, "Node").size() == 3);
    CHECK(of_kind(snap, "Pod").size() == 5);
    CHECK(of_kind(snap, "NodeMetrics").empty());
    CHECK(of_kind(snap, "PodMetrics").empty());
}

TEST_CASE_METHOD(MetricsServerCluster,
                 "snapshot: a forbidden PodMetrics list (403) writes neither kind of usage and names the RBAC rule",
                 "[snapshot][metrics]") {
    server.faults(R"([{"method":"GET","path":"/apis/metrics.k8s.io/v1beta1/pods","times":0,
        "action":{"type":"status","code":403,"reason":"Forbidden","message":"pods.metrics.k8s.io is forbidden"}}])");
    auto r = take_snapshot();
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK(occurrences(r.output, kNoMetricsLine) == 1);
    CHECK_THAT(r.output, Catch::Contains(kNoMetricsLine + "cannot list pods of metrics.k8s.io: HTTP 403") &&
                             Catch::Contains(R"(grant verb "list" on "pods" in API group "metrics.k8s.io")") &&
                             Catch::Contains(kWhatItMeans));
    rapidjson::Document snap = written();
    CHECK(of_kind(snap, "Pod").size() == 5);
    CHECK(of_kind(snap, "NodeMetrics").empty());  // both or neither: node usage alone evicts nothing
    CHECK(of_kind(snap, "PodMetrics").empty());
}
