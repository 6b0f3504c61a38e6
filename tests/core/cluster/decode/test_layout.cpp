// How objects are laid out in files: single objects, Lists, typed lists, arrays, concatenated
// JSON, multi-document YAML, directories; key order; skipped kinds; the report.
#include "recording_sink.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace kd::test;

namespace {

const std::string kA =
    R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"ns"},"spec":{"nodeName":"n1"}})";
const std::string kB =
    R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"b","namespace":"ns"},"spec":{"nodeName":"n2"}})";
const std::string kNode = R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}})";

std::vector<std::string> order(const std::string& text, const std::string& origin = "cluster.json") {
    RecordingSink sink;
    load_text(text, sink, origin);
    return sink.order();
}

using Order = std::vector<std::string>;

}  // namespace

TEST_CASE("a single object, a List, an array and concatenated documents give the same objects", "[layout]") {
    Order want{"Pod ns/a", "Pod ns/b", "Node n1"};
    CHECK(order(R"({"apiVersion":"v1","kind":"List","items":[)" + kA + "," + kB + "," + kNode + R"(]})") == want);
    // kubectl's own order: items before kind.
    CHECK(order(R"({"apiVersion":"v1","items":[)" + kA + "," + kB + "," + kNode +
                R"(],"kind":"List","metadata":{"resourceVersion":""}})") == want);
    CHECK(order("[" + kA + "," + kB + "," + kNode + "]") == want);
    CHECK(order(kA + "\n" + kB + kNode + "\n\n") == want);
    CHECK(order(kA) == Order{"Pod ns/a"});
    CHECK(order(R"({"kind":"List","items":[)" + kA + "]}\n" + kB + "\n[" + kNode + "]") == want);
}

TEST_CASE("object numbers count List items and documents", "[layout]") {
    RecordingSink sink;
    std::string text = R"({"kind":"List","items":[)" + kA + "," + kB + "]}\n" +
                       R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"bad"},"spec":{"priority":"high"}})";
    CHECK(error_of([&] { load_text(text, sink); }) ==
          "cluster.json:2:78: object #2 (Pod bad): spec.priority: must be an integer, got a string");
}

TEST_CASE("a typed list's items need no kind, the list's apiVersion is theirs", "[layout]") {
    // What the API server returns (kubectl get --raw /api/v1/pods): kind first, items without kind.
    RecordingSink sink;
    load_text(R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"9"},"items":[
        {"metadata":{"name":"a","namespace":"ns"},"spec":{"nodeName":"n1"}},
        {"metadata":{"name":"b","namespace":"ns"}}]})",
              sink);
    CHECK(sink.order() == Order{"Pod ns/a", "Pod ns/b"});
    CHECK(view(sink.pods[0].bound.node_name) == "n1");

    RecordingSink metrics;
    load_text(R"({"kind":"NodeMetricList","apiVersion":"slo.koordinator.sh/v1alpha1","items":[
        {"metadata":{"name":"n1"},"status":{"nodeMetric":{}}}]})",
              metrics);
    REQUIRE(metrics.metrics.size() == 1);
    CHECK(metrics.metrics[0].has_node_metric);
}

TEST_CASE("items without kind before a typed list's kind wait for it, in file order", "[layout]") {
    RecordingSink sink;
    auto report = load_text(R"({"apiVersion":"v1","items":[
        {"metadata":{"name":"a","namespace":"ns"}},
        {"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}},
        {"metadata":{"name":"b","namespace":"ns"}}],
      "kind":"PodList"})",
                            sink);
    CHECK(sink.order() == Order{"Pod ns/a", "Node n1", "Pod ns/b"});
    CHECK(report.objects == std::map<std::string, size_t>{{"Node", 1}, {"Pod", 2}});
}

TEST_CASE("an item of a plain List without kind is an error", "[layout]") {
    RecordingSink sink;
    CHECK(error_of([&] { load_text(R"({"kind":"List","items":[{"metadata":{"name":"x"}}]})", sink); }) ==
          "cluster.json: object #0: the object has no kind (every object needs apiVersion and kind, as kubectl prints "
          "them)");
}

TEST_CASE("fields before kind: the object is recorded and replayed", "[layout]") {
    RecordingSink fast, replay;
    std::string pod_first =
        R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns","labels":{"a":"1"}},
        "spec":{"containers":[{"resources":{"requests":{"cpu":"1","memory":1024}}}],"priority":5},"status":{"phase":"Running"}})";
    std::string kind_last = R"({"metadata":{"name":"p","namespace":"ns","labels":{"a":"1"}},
        "spec":{"containers":[{"resources":{"requests":{"cpu":"1","memory":1024}}}],"priority":5},"status":{"phase":"Running"},
        "apiVersion":"v1","kind":"Pod"})";
    load_text(pod_first, fast);
    load_text(kind_last, replay);
    REQUIRE(replay.pods.size() == 1);
    CHECK(replay.texts == fast.texts);
    CHECK(replay.pods[0].containers[0].requests[1].second == 1024000);

    // The same inside a List, and in a List whose kind comes last.
    RecordingSink in_list;
    load_text(R"({"items":[)" + kind_last + "," + kA + R"(],"metadata":{},"kind":"List","apiVersion":"v1"})", in_list);
    CHECK(in_list.order() == Order{"Pod ns/p", "Pod ns/a"});
    CHECK(in_list.texts[0] == fast.texts[0]);

    // A List whose first key is neither apiVersion, kind nor items: recorded whole.
    RecordingSink recorded_list;
    load_text(R"({"metadata":{"resourceVersion":""},"items":[)" + kA + "," + kB + R"(],"kind":"List"})", recorded_list);
    CHECK(recorded_list.order() == Order{"Pod ns/a", "Pod ns/b"});
}

TEST_CASE("multi-document YAML, with a List among the documents", "[layout][yaml]") {
    RecordingSink sink;
    auto report = load_text(R"(# a comment before the first document
---
apiVersion: v1
kind: Pod
metadata:
  name: a
  namespace: ns
spec:
  nodeName: n1
---
apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: b
    namespace: ns
- apiVersion: v1
  kind: Service
  metadata:
    name: s
kind: List
---
# an empty document
---
- apiVersion: v1
  kind: Node
  metadata:
    name: n1
...
)",
                            sink, "cluster.yaml");
    CHECK(sink.order() == Order{"Pod ns/a", "Pod ns/b", "Node n1"});
    CHECK(report.notes ==
          std::vector<std::string>{"cluster.yaml: skipped 1 object of kind Service (not used by kdesched)"});
}

TEST_CASE("a typed YAML list gives its items their kind", "[layout][yaml]") {
    RecordingSink sink;
    load_text("apiVersion: v1\nitems:\n- metadata:\n    name: a\n    namespace: ns\nkind: PodList\n", sink,
              "pods.yaml");
    CHECK(sink.order() == Order{"Pod ns/a"});
}

TEST_CASE("unknown kinds are skipped with one note per kind and file", "[layout]") {
    RecordingSink sink;
    std::string svc = R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"ports":[{"port":80}]}})";
    std::string cm = R"({"apiVersion":"v1","data":{"k":"v"},"kind":"ConfigMap","metadata":{"name":"c"}})";
    auto report =
        load_text(R"({"kind":"List","items":[)" + svc + "," + kA + "," + svc + "," + cm + "," + svc + "]}", sink);
    CHECK(sink.order() == Order{"Pod ns/a"});
    CHECK(report.notes == std::vector<std::string>{
                              "cluster.json: skipped 3 objects of kind Service (not used by kdesched)",
                              "cluster.json: skipped 1 object of kind ConfigMap (not used by kdesched)",
                          });
    CHECK(report.objects == std::map<std::string, size_t>{{"Pod", 1}});
    CHECK(report.total_objects() == 1);
}

TEST_CASE("a directory loads its snapshot files in name order, notes name each file", "[layout][files]") {
    RecordingSink sink;
    auto report = load_cluster_files({KD_DECODE_DATA_DIR "/dir"}, sink);
    CHECK(sink.order() == Order{"Namespace shop", "Node node-1", "Node node-2", "Pod shop/web-1", "Pod shop/batch-1"});
    CHECK(report.files == 4);  // README.txt is not read
    CHECK(report.bytes > 0);
    CHECK(report.decode_seconds >= 0);
    CHECK(report.notes == std::vector<std::string>{KD_DECODE_DATA_DIR "/dir/40-empty.yml: no objects"});
    CHECK(report.objects == std::map<std::string, size_t>{{"Namespace", 1}, {"Node", 2}, {"Pod", 2}});
}

TEST_CASE("files and directories mix, the report adds up", "[layout][files]") {
    RecordingSink sink;
    auto report =
        load_cluster_files({KD_DECODE_DATA_DIR "/cluster.json", KD_DECODE_DATA_DIR "/dir/10-namespace.json"}, sink);
    CHECK(report.files == 2);
    CHECK(report.objects.at("Namespace") == 2);
    CHECK(report.objects.at("Pod") == 2);
    CHECK(report.objects.at("PodMigrationJob") == 1);
    CHECK(report.objects.at("Reservation") == 1);
    CHECK(report.notes ==
          std::vector<std::string>{
              KD_DECODE_DATA_DIR "/cluster.json: skipped 2 objects of kind Service (not used by kdesched)",
              KD_DECODE_DATA_DIR "/cluster.json: skipped 1 object of kind ConfigMap (not used by kdesched)",
          });
}

TEST_CASE("without a known extension, the first byte picks the format", "[layout][files]") {
    auto dir = std::filesystem::temp_directory_path() / "kdesched-decode-test-format";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "snapshot") << "\n  " << kA;
    std::ofstream(dir / "snapshot.txt") << "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n";
    RecordingSink sink;
    load_cluster_files({dir / "snapshot", dir / "snapshot.txt"}, sink);
    CHECK(sink.order() == Order{"Pod ns/a", "Node n1"});
    std::filesystem::remove_all(dir);
}

TEST_CASE("a UTF-8 byte order mark and an empty file are fine", "[layout]") {
    CHECK(order("\xEF\xBB\xBF" + kA) == Order{"Pod ns/a"});
    RecordingSink sink;
    auto report = load_text("  \n", sink);
    CHECK(sink.texts.empty());
    CHECK(report.notes == std::vector<std::string>{"cluster.json: no objects"});
}

TEST_CASE("a big List goes through with every object and drafts reused between objects", "[layout]") {
    std::string text = R"({"apiVersion":"v1","items":[)";
    for (int i = 0; i < 2000; ++i) {
        if (i) text += ",";
        text += R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p)" + std::to_string(i) +
                R"(","namespace":"ns","labels":{"i":")" + std::to_string(i) +
                R"("}},"spec":{"containers":[{"resources":{"requests":{"cpu":")" + std::to_string(i) + R"(m"}}}]}})";
    }
    text += R"(],"kind":"List"})";
    RecordingSink sink;
    auto report = load_text(text, sink);
    REQUIRE(sink.pods.size() == 2000);
    CHECK(report.objects.at("Pod") == 2000);
    CHECK(sink.pods[1999].meta.labels.size() == 1);
    CHECK(sink.pods[1999].containers.size() == 1);
    CHECK(sink.pods[1999].containers[0].requests[0].second == 1999);
}
