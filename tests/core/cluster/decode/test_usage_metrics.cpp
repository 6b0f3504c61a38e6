// metrics.k8s.io/v1beta1 NodeMetrics and PodMetrics in snapshot files (what `kubectl get --raw
// /apis/metrics.k8s.io/v1beta1/nodes` prints, or single objects), JSON and YAML, reach the model's
// usage and are listed to plugins (kd_snapshot.list_objects, plugin API 1.8).
#include "cluster/cluster_model.hpp"
#include "cluster/cluster_snapshot.hpp"
#include "cluster/decode/snapshot_files.hpp"
#include "error.hpp"

#include <kdesched/view.hpp>

#include <catch2/catch.hpp>

using namespace kd::core;

namespace {

const std::string kNodeMetricsList = R"({"kind": "NodeMetricsList", "apiVersion": "metrics.k8s.io/v1beta1",
  "metadata": {}, "items": [
    {"metadata": {"name": "n2", "creationTimestamp": "2026-11-28T02:00:00Z"}, "timestamp": "2026-11-28T01:59:50Z",
     "window": "10.049s", "usage": {"cpu": "250m", "memory": "1Gi"}},
    {"metadata": {"name": "n1"}, "timestamp": "2026-11-28T01:59:51Z", "window": "20.01s",
     "usage": {"cpu": "1500123456n", "memory": "2048Ki"}}]})";

}  // namespace

TEST_CASE("NodeMetrics and PodMetrics of a snapshot are listed to plugins in their wire form", "[decode][metrics]") {
    ClusterModel model;
    auto report = load_cluster_text(kNodeMetricsList, "nodes.json", model);
    CHECK(report.objects["NodeMetrics"] == 2);
    report = load_cluster_text(R"(apiVersion: metrics.k8s.io/v1beta1
kind: PodMetrics
metadata: {namespace: web, name: front-1}
timestamp: "2026-11-28T01:59:40Z"
window: 15s
containers:
- name: app
  usage: {cpu: 120m, memory: 64Mi}
- name: sidecar
  usage: {cpu: 5m, memory: 10Mi}
)",
                               "pods.yaml", model);
    CHECK(report.objects["PodMetrics"] == 1);
    auto snap = std::make_unique<ClusterSnapshot>(model, 0);
    kd::Snapshot s(&snap->raw());
    // By name; amounts in milli-units rounded up as the quantity parser does (1500123456n → 1501m).
    CHECK(s.list_objects("NodeMetrics.metrics.k8s.io") ==
          R"([{"apiVersion":"metrics.k8s.io/v1beta1","kind":"NodeMetrics","metadata":{"name":"n1"},)"
          R"("timestamp":"2026-11-28T01:59:51Z","window":"20.01s","usage":{"cpu":"1501m","memory":"2097152"}},)"
          R"({"apiVersion":"metrics.k8s.io/v1beta1","kind":"NodeMetrics","metadata":{"name":"n2"},)"
          R"("timestamp":"2026-11-28T01:59:50Z","window":"10.049s","usage":{"cpu":"250m","memory":"1073741824"}}])");
    CHECK(
        s.list_objects("PodMetrics.metrics.k8s.io") ==
        R"([{"apiVersion":"metrics.k8s.io/v1beta1","kind":"PodMetrics","metadata":{"name":"front-1",)"
        R"("namespace":"web"},"timestamp":"2026-11-28T01:59:40Z","window":"15s","containers":[{"name":"app",)"
        R"("usage":{"cpu":"120m","memory":"67108864"}},{"name":"sidecar","usage":{"cpu":"5m","memory":"10485760"}}]}])");
    // Koordinator's NodeMetric is another kind: its name does not answer for metrics.k8s.io.
    CHECK(s.list_objects("NodeMetric") == "[]");
}

TEST_CASE("A snapshot without metrics lists none, and the model's revision follows the usage", "[decode][metrics]") {
    ClusterModel model;
    auto snap = std::make_unique<ClusterSnapshot>(model, 0);
    CHECK(kd::Snapshot(&snap->raw()).list_objects("NodeMetrics.metrics.k8s.io") == "[]");
    uint64_t before = model.revision();
    UsageMetrics usage;
    usage.nodes["n1"] = NodeUsage{"n1", "", "", {{"cpu", 1000}}};
    model.set_usage_metrics(usage);
    CHECK(model.revision() == before + 1);
    model.set_usage_metrics(usage);  // the same again: nothing changed
    CHECK(model.revision() == before + 1);
}

TEST_CASE("A malformed NodeMetrics names its file, object and field", "[decode][metrics]") {
    ClusterModel model;
    CHECK_THROWS_WITH(load_cluster_text(R"({"apiVersion": "metrics.k8s.io/v1beta1", "kind": "NodeMetrics",
            "metadata": {"name": "n1"}, "usage": {"cpu": "12x"}})",
                                        "bad.json", model),
                      Catch::Contains("bad.json") && Catch::Contains("NodeMetrics n1") &&
                          Catch::Contains("usage.cpu") && Catch::Contains("invalid quantity \"12x\""));
    CHECK_THROWS_WITH(load_cluster_text(R"({"apiVersion": "metrics.k8s.io/v1beta1", "kind": "PodMetrics",
            "metadata": {"namespace": "web"}, "containers": []})",
                                        "nameless.json", model),
                      Catch::Contains("nameless.json") && Catch::Contains("metadata.name: is missing"));
    // Another group's NodeMetrics is not metrics-server's: skipped with a note, not read.
    auto report = load_cluster_text(R"({"apiVersion": "example.com/v1", "kind": "NodeMetrics",
            "metadata": {"name": "n1"}, "usage": {"cpu": "1"}})",
                                    "other.json", model);
    CHECK(model.usage_metrics().nodes.empty());
    CHECK(report.objects["NodeMetrics"] == 0);
}
