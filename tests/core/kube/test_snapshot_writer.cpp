// `kdesched snapshot`'s writer: every kind of the kind table is written, with its apiVersion and
// kind, and counted under its name — the last kinds of the table too (a writer sized for fewer
// kinds indexed past its arrays once PriorityClass and PersistentVolumeClaim were added, and the
// envtest snapshot then counted pods as Reservations); a LIST that broke off writes nothing twice;
// metrics-server's NodeMetrics and PodMetrics, outside the table, written so that the snapshot
// reader reads them back.
#include "cluster/decode/snapshot_files.hpp"
#include "cluster/usage_metrics.hpp"
#include "kube/client/resources.hpp"
#include "kube/watch/snapshot_writer.hpp"
#include "recording_sink.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace kd::core;
using namespace kd::core::kube;

namespace {

void list(SnapshotWriter& w, ObjectKind kind, const std::vector<std::string>& names) {
    std::vector<Change> changes;
    changes.push_back(Change::of(Change::Type::list_start, kind));
    Change items = Change::of(Change::Type::list_items, kind);
    for (const auto& n : names)
        items.add(R"({"metadata":{"name":")" + n + R"(","managedFields":[{"manager":"x"}]}})", Encoding::json);
    changes.push_back(std::move(items));
    changes.push_back(Change::of(Change::Type::list_done, kind, "7"));
    w.consume(changes);
}

}  // namespace

TEST_CASE("snapshot writer: every kind of the table is written and counted under its own name") {
    std::ostringstream out;
    SnapshotWriter w(out);
    size_t i = 0;
    for (ObjectKind kind : kAllObjectKinds) {
        std::vector<std::string> names;
        for (size_t n = 0; n <= i % 3; ++n) names.push_back(std::string(kind_name(kind)) + "-" + std::to_string(n));
        list(w, kind, names);
        ++i;
    }
    auto counts = w.finish();
    REQUIRE(counts.size() == kAllObjectKinds.size());
    i = 0;
    for (ObjectKind kind : kAllObjectKinds) {
        INFO(kind_name(kind));
        CHECK(counts.at(std::string(kind_name(kind))) == i % 3 + 1);
        const ApiResource& res = resource_of(kind);
        CHECK(out.str().find(R"({"apiVersion":")" + res.group_version() + R"(","kind":")" + std::string(res.kind) +
                             R"(","metadata":{"name":")" + std::string(kind_name(kind)) + "-0\"}}") !=
              std::string::npos);
        ++i;
    }
    CHECK(out.str().find("managedFields") == std::string::npos);
}

TEST_CASE("snapshot writer: a LIST that broke off and started again is written once") {
    std::ostringstream out;
    SnapshotWriter w(out);
    std::vector<Change> changes;
    changes.push_back(Change::of(Change::Type::list_start, ObjectKind::reservation));
    Change first = Change::of(Change::Type::list_items, ObjectKind::reservation);
    first.add(R"({"metadata":{"name":"r-1"}})", Encoding::json);
    changes.push_back(std::move(first));
    changes.push_back(Change::of(Change::Type::list_abort, ObjectKind::reservation));
    w.consume(changes);
    list(w, ObjectKind::reservation, {"r-1", "r-2"});
    auto counts = w.finish();
    CHECK(counts == std::map<std::string, size_t>{{"Reservation", 2}});
}

namespace {

// What a snapshot reader keeps of metrics.k8s.io usage.
struct UsageSink : kd::test::RecordingSink {
    std::vector<NodeUsage> node_usage;
    std::vector<PodUsage> pod_usage;
    void on_node_usage(NodeUsage n) override { node_usage.push_back(std::move(n)); }
    void on_pod_usage(PodUsage p) override { pod_usage.push_back(std::move(p)); }
};

}  // namespace

TEST_CASE("snapshot writer: NodeMetrics and PodMetrics listed once are written after the table's kinds and read back") {
    std::ostringstream out;
    SnapshotWriter w(out);
    list(w, ObjectKind::node, {"node-1"});
    // As metrics-server answers a LIST: items without apiVersion and kind.
    rapidjson::Document nodes, pods;
    nodes.Parse(R"({"kind":"NodeMetricsList","apiVersion":"metrics.k8s.io/v1beta1","items":[
        {"metadata":{"name":"node-1","managedFields":[]},"timestamp":"2026-03-01T08:59:50Z","window":"20s",
         "usage":{"cpu":"3200m","memory":"4Gi"}}]})");
    pods.Parse(R"({"kind":"PodMetricsList","apiVersion":"metrics.k8s.io/v1beta1","items":[
        {"metadata":{"namespace":"shop","name":"web-1"},"timestamp":"2026-03-01T08:59:45Z","window":"15s",
         "containers":[{"name":"app","usage":{"cpu":"700m","memory":"600Mi"}}]}]})");
    w.add_listed(kMetricsApiVersion, kNodeMetricsKind, nodes["items"]);
    w.add_listed(kMetricsApiVersion, kPodMetricsKind, pods["items"]);
    auto counts = w.finish();
    CHECK(counts == std::map<std::string, size_t>{{"Node", 1}, {"NodeMetrics", 1}, {"PodMetrics", 1}});
    const std::string text = out.str();
    CHECK(text.find(R"({"apiVersion":"metrics.k8s.io/v1beta1","kind":"NodeMetrics","metadata":{"name":"node-1"},)") !=
          std::string::npos);
    CHECK(text.find(R"({"apiVersion":"v1","kind":"Node")") < text.find(R"("kind":"NodeMetrics")"));
    CHECK(text.find("managedFields") == std::string::npos);

    UsageSink sink;
    load_cluster_text(text, "snapshot.json", sink);
    REQUIRE(sink.node_usage.size() == 1);
    CHECK(sink.node_usage[0].name == "node-1");
    CHECK(sink.node_usage[0].usage == UsageAmounts{{"cpu", 3200}, {"memory", 4LL * 1024 * 1024 * 1024 * 1000}});
    REQUIRE(sink.pod_usage.size() == 1);
    CHECK((sink.pod_usage[0].ns + "/" + sink.pod_usage[0].name) == "shop/web-1");
    REQUIRE(sink.pod_usage[0].containers.size() == 1);
    CHECK(sink.pod_usage[0].containers[0].usage.at("cpu") == 700);
}
