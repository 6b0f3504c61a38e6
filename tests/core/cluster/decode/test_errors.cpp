// Error messages: file, position, object number, kind and name, field path, problem, hint.
#include "recording_sink.hpp"

#include "error.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace kd::test;

namespace {

std::string load_error(const std::string& text, const std::string& origin = "cluster.json") {
    RecordingSink sink;
    return error_of([&] { load_text(text, sink, origin); });
}

const std::string kHint =
    " (a quantity is a number with an optional suffix, e.g. \"500m\", \"1.5\", \"2Gi\" or \"1e3\", and must fit in "
    "64-bit milli-units)";

}  // namespace

TEST_CASE("an invalid quantity names file, position, object, field and value", "[errors]") {
    std::string text = R"({"apiVersion":"v1","kind":"List","items":[
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0","namespace":"default"}},
{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}},
{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"}},
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1","namespace":"default"},
 "spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"12x"}}}]}}]})";
    CHECK(load_error(text) ==
          "cluster.json:6:67: object #3 (Pod default/web-1): "
          "spec.containers[0].resources.requests.cpu: invalid quantity \"12x\"" +
              kHint);
}

TEST_CASE("the object's name is found even when it comes after the bad field", "[errors]") {
    std::string text = R"({"apiVersion":"v1","kind":"Pod",
"spec":{"initContainers":[{},{"resources":{"limits":{"memory":"1KiB"}}}]},
"metadata":{"namespace":"default","name":"late"}})";
    CHECK(load_error(text) ==
          "cluster.json:2:63: object #0 (Pod default/late): "
          "spec.initContainers[1].resources.limits.memory: invalid quantity \"1KiB\"" +
              kHint);
}

TEST_CASE("wrong types name the field and what was expected", "[errors]") {
    auto err = [](const std::string& body) {
        return load_error(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},)" + body + "}");
    };
    CHECK(err(R"("spec":{"unschedulable":"yes"})") ==
          "cluster.json:1:82: object #0 (Node n): spec.unschedulable: must be true or false, got a string");
    CHECK(err(R"("spec":{"taints":{"key":"a"}})") ==
          "cluster.json:1:75: object #0 (Node n): spec.taints: must be a list, got an object");
    CHECK(err(R"("status":{"allocatable":{"cpu":true}})") ==
          "cluster.json:1:89: object #0 (Node n): status.allocatable.cpu: must be a quantity (a string such as "
          "\"500m\", or a number), got a boolean");
    CHECK(load_error(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":["p"]}})") ==
          "cluster.json:1:52: object #0 (Pod): metadata.name: must be a string, got a list");
    CHECK(load_error(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"priority":1.5}})") ==
          "cluster.json:1:76: object #0 (Pod p): spec.priority: must be an integer, got 1.5");
    CHECK(load_error(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"priority":3000000000}})") ==
          "cluster.json:1:76: object #0 (Pod p): spec.priority: out of range for a 32-bit integer: 3000000000");
    CHECK(load_error(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","creationTimestamp":"yesterday"}})") ==
          "cluster.json:1:76: object #0 (Pod p): metadata.creationTimestamp: invalid timestamp \"yesterday\" (use "
          "RFC 3339, e.g. \"2024-05-01T12:00:00Z\")");
    // A bound row's value is checked as the other fields' are.
    CHECK(load_error(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"status":{"startTime":5}})") ==
          "cluster.json:1:79: object #0 (Pod p): status.startTime: must be a string, got a number");
    CHECK(load_error(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"status":{"startTime":"soon"}})") ==
          "cluster.json:1:79: object #0 (Pod p): status.startTime: invalid timestamp \"soon\" (use "
          "RFC 3339, e.g. \"2024-05-01T12:00:00Z\")");
    CHECK(load_error(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"nodeName":7}})") ==
          "cluster.json:1:76: object #0 (Pod p): spec.nodeName: must be a string, got a number");
}

TEST_CASE("a replayed object has no position but the same message", "[errors]") {
    CHECK(
        load_error(R"({"metadata":{"name":"p"},"spec":{"overhead":{"cpu":"1.2.3"}},"kind":"Pod","apiVersion":"v1"})") ==
        "cluster.json: object #0 (Pod p): spec.overhead.cpu: invalid quantity \"1.2.3\"" + kHint);
}

TEST_CASE("objects without a usable kind", "[errors]") {
    CHECK(load_error(R"({"apiVersion":"v1","kind":7,"metadata":{}})") ==
          "cluster.json:1:27: object #0: kind: must be a string, got a number");
    CHECK(load_error(R"({"apiVersion":"v1","metadata":{"name":"x"}})") ==
          "cluster.json: object #0: the object has no kind (every object needs apiVersion and kind, as kubectl prints "
          "them)");
    CHECK(load_error(R"({"kind":"List","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"}}, 42]})") ==
          "cluster.json:1:83: object #1: expected an object, got a number");
    CHECK(load_error(R"("just a string")") ==
          "cluster.json:1:1: object #0: expected an object or a list of objects, got a string");
    CHECK(load_error(R"({"items":[],"kind":"Pod"})") ==
          "cluster.json:1:20: object #0 (Pod): \"items\" come before the kind, which is not a List kind (a file with "
          "items must be a List (kind List, PodList, …))");
}

TEST_CASE("JSON syntax errors give line, column and byte offset", "[errors]") {
    CHECK(load_error("{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"Pod\"\n  \"metadata\": {}\n}") ==
          "cluster.json:4:3: invalid JSON (byte 42): Missing a comma or '}' after an object member.");
    CHECK(load_error("[\n{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\\nb\"}},\n{\"kind\": }\n]") ==
          "cluster.json:3:10: invalid JSON (byte 54): Invalid value.");
    CHECK(load_error(R"({"apiVersion":"v1","kind":"Pod"} trailing)") ==
          "cluster.json:1:36: invalid JSON (byte 35): Invalid value.");
}

TEST_CASE("YAML syntax errors give file:line:column", "[errors][yaml]") {
    CHECK(load_error("apiVersion: v1\nkind: Pod\n---\napiVersion: v1\nkind: [Pod\n", "cluster.yaml") ==
          "cluster.yaml:6:1: invalid YAML: end of sequence flow not found");
}

TEST_CASE("YAML decoding errors point at the field's line and column", "[errors][yaml]") {
    std::string text = R"(apiVersion: v1
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: n1
- apiVersion: v1
  kind: Pod
  metadata:
    name: web-1
    namespace: default
  spec:
    containers:
    - name: a
      resources:
        requests:
          cpu: 12x
kind: List
)";
    CHECK(load_error(text, "cluster.yaml") ==
          "cluster.yaml:17:16: object #1 (Pod default/web-1): spec.containers[0].resources.requests.cpu: invalid "
          "quantity \"12x\"" +
              kHint);
    CHECK(load_error("apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  name: b\n", "dup.yaml") ==
          "dup.yaml:5:3: metadata.name: duplicate key (first at line 4, column 3)");
}

TEST_CASE("a missing file or directory is named", "[errors][files]") {
    RecordingSink sink;
    CHECK(error_of([&] { load_cluster_files({"/no/such/cluster.json"}, sink); }) ==
          "/no/such/cluster.json: no such file or directory");
}

TEST_CASE("the sink's errors are said about the object", "[errors]") {
    struct Refusing : RecordingSink {
        void on_node(const NodeDraft& d) override {
            if (d.meta.name == "n2") throw kd::core::Error("", "duplicate node n2");
            RecordingSink::on_node(d);
        }
    } sink;
    std::string text = R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}}
{"apiVersion":"v1","kind":"Node","metadata":{"name":"n2"}})";
    CHECK(error_of([&] { load_text(text, sink); }) == "cluster.json: object #1 (Node n2): duplicate node n2");
    CHECK(sink.nodes.size() == 1);
}

TEST_CASE("absurdly deep nesting is refused, not a stack overflow", "[errors]") {
    std::string deep = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"x":)" +
                       std::string(100000, '[') + std::string(100000, ']') + "}}";
    CHECK(load_error(deep) ==
          "cluster.json:1:579: nested more than 512 levels deep (a Kubernetes object is never that "
          "deep; is this a cluster snapshot?)");
}

TEST_CASE("errors in a file name its path, with line and column from the file as written", "[errors][files]") {
    auto path = std::filesystem::temp_directory_path() / "kdesched-decode-test-error.json";
    // Escapes before the error: the in-situ reader has unescaped them by then, the message must not care.
    std::ofstream(path)
        << "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"Pod\",\n    \"metadata\": {\n"
           "        \"annotations\": {\"note\": \"line\\nbreak\\n\"},\n        \"name\": \"p\"\n    },\n"
           "    \"spec\": {\"overhead\": {\"memory\": \"-1x\"}}\n}\n";
    RecordingSink sink;
    CHECK(error_of([&] { load_cluster_files({path}, sink); }) ==
          path.string() + ":8:37: object #0 (Pod p): spec.overhead.memory: invalid quantity \"-1x\"" + kHint);
    std::filesystem::remove(path);
}

TEST_CASE("a null kind is no kind", "[errors]") {
    CHECK(load_error(R"({"apiVersion":"v1","kind":null,"metadata":{"name":"x"}})") ==
          "cluster.json: object #0: the object has no kind (every object needs apiVersion and kind, as kubectl prints "
          "them)");
}

TEST_CASE("a container status of the wrong type names its path", "[errors]") {
    std::string text = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"},)"
                       R"("status":{"initContainerStatuses":[{"name":"a","restartCount":"7"}]}})";
    CHECK_THAT(
        load_error(text),
        Catch::Contains("cluster.json:1:136: object #0 (Pod ns/p): status.initContainerStatuses[0].restartCount: "
                        "must be an integer, got a string"));
}
