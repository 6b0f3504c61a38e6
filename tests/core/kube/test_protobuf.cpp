// Kubernetes protobuf, read as a real kube-apiserver (v1.32) wrote it: tests/data/protobuf holds,
// for every built-in kind kdesched reads, the server's JSON and protobuf answers to the same LIST
// (and the same watch), made by tools/protobuf-fixtures.sh from objects.yaml. Both encodings
// must give exactly the same drafts, whatever the chunk boundaries of the body.
#include "affinity_text.hpp"
#include "cluster/decode/api_objects.hpp"
#include "cluster/decode/protobuf_wire.hpp"
#include "cluster/decode/snapshot_files.hpp"
#include "kube/client/api_status.hpp"
#include "kube/watch/response_splitters.hpp"
#include "recording_sink.hpp"
#include "spread_text.hpp"

#include <kdesched/view.hpp>

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace kd::core;
using namespace kd::core::kube;

namespace {

std::string read(const std::string& name) {
    std::ifstream in(std::string(KD_PROTOBUF_DATA_DIR) + "/" + name, std::ios::binary);
    REQUIRE(in);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Kind {
    const char* file;
    const char* kind;
    const char* api;
};
const Kind kKinds[] = {
    {"nodes", "Node", "v1"},
    {"pods", "Pod", "v1"},
    {"namespaces", "Namespace", "v1"},
    {"replicasets", "ReplicaSet", "apps/v1"},
    {"deployments", "Deployment", "apps/v1"},
    {"statefulsets", "StatefulSet", "apps/v1"},
    {"jobs", "Job", "batch/v1"},
    {"daemonsets", "DaemonSet", "apps/v1"},
    {"replicationcontrollers", "ReplicationController", "v1"},
    {"poddisruptionbudgets", "PodDisruptionBudget", "policy/v1"},
};

// The canonical texts of the JSON LIST's objects.
std::vector<std::string> from_json(const Kind& k) {
    kd::test::RecordingSink sink;
    load_cluster_text(read(std::string(k.file) + ".json"), std::string(k.file) + ".json", sink);
    return sink.texts;
}

// The same from the protobuf LIST, fed in pieces of `chunk` bytes.
std::vector<std::string> from_protobuf(const Kind& k, size_t chunk, std::string* rv = nullptr) {
    kd::test::RecordingSink sink;
    ApiObjectDecoder decoder(std::string(k.file) + ".pb", k.kind, k.api, sink);
    std::vector<std::string> problems;
    ListBodySplitter splitter([&](std::string_view item, Encoding e) {
        CHECK(e == Encoding::protobuf);
        if (auto p = decoder.decode_protobuf(item)) problems.push_back(*p);
    });
    const std::string body = read(std::string(k.file) + ".pb");
    for (size_t i = 0; i < body.size(); i += chunk) splitter.feed(std::string_view(body).substr(i, chunk));
    CHECK(splitter.complete());
    CHECK(problems.empty());
    if (rv) *rv = splitter.resource_version();
    return sink.texts;
}

const std::string& find(const std::vector<std::string>& texts, const std::string& prefix) {
    for (const auto& t : texts)
        if (t.rfind(prefix, 0) == 0) return t;
    FAIL("no object " << prefix);
    return texts.front();
}

}  // namespace

TEST_CASE("protobuf: every kind's LIST decodes to exactly the drafts of its JSON", "[kube][protobuf]") {
    for (const Kind& k : kKinds) {
        INFO(k.kind);
        std::vector<std::string> json = from_json(k), pb = from_protobuf(k, 1 << 20);
        REQUIRE(!json.empty());
        CHECK(pb == json);
    }
}

TEST_CASE("protobuf: the fields that matter are read (not merely equal to JSON)", "[kube][protobuf]") {
    auto pods = from_protobuf(kKinds[1], 4096);
    const std::string& web = find(pods, "Pod kd-fixtures/web-1 ");
    // Overhead from the RuntimeClass, the sidecar's restartPolicy, the node affinity's two terms,
    // tolerations, volumes, the last-applied annotation dropped and an empty one kept.
    CHECK(web.find("overhead={cpu=250,memory=67108864000}") != std::string::npos);
    CHECK(web.find("nodeName=kd-node-1") != std::string::npos);
    CHECK(web.find("kubectl.kubernetes.io/last-applied-configuration") == std::string::npos);
    CHECK(web.find("note=") != std::string::npos);
    CHECK(web.find("apps/v1,ReplicaSet,web-5d8f,6b1d3c52-0000-4000-8000-000000000001,1;") != std::string::npos);
    CHECK(web.find("priority=100000") != std::string::npos);
    // Tolerations, a bound list (PodSpec 22): an empty operator or effect is absent.
    CHECK(web.find(" tolerations=[key=dedicated operator=Equal value=batch effect=NoSchedule ;operator=Exists ;]") !=
          std::string::npos);
    // Container statuses in kd_pod's order (the server lists the init containers' after), the
    // waiting reason, the running state; the last state is not read.
    CHECK(web.find("statuses=[0,app,7,1,CrashLoopBackOff,0;0,log,0,2,,0;1,setup,0,3,Completed,0;1,proxy,1,2,,0;]") !=
          std::string::npos);
    const std::string& batch = find(pods, "Pod kd-fixtures/batch-1 ");
    CHECK(batch.find("deleting=1") != std::string::npos);
    // status.startTime (PodStatus 7, metav1.Time): 2026-11-20T10:00:00Z and 09:59:58Z.
    CHECK(web.find(" startTime=1795168800000") != std::string::npos);
    CHECK(batch.find("reason=Evicted startTime=1795168798000 statuses=[0,main,2,3,Error,1;]") != std::string::npos);

    auto pdbs = from_protobuf(kKinds[9], 7);
    CHECK(find(pdbs, "PodDisruptionBudget kd-fixtures/db ").find("maxUnavailable=25%") != std::string::npos);
    CHECK(find(pdbs, "PodDisruptionBudget kd-fixtures/web ").find("minAvailable=2 ") != std::string::npos);
    auto jobs = from_protobuf(kKinds[6], 64);
    CHECK(jobs.at(0).find("replicas=5 ready=2") != std::string::npos);
    auto daemons = from_protobuf(kKinds[7], 64);
    CHECK(daemons.at(0).find("replicas=2 ready=1") != std::string::npos);
}

TEST_CASE("protobuf: a LIST body split at any byte gives the same items", "[kube][protobuf]") {
    const Kind& pods = kKinds[1];
    const auto whole = from_protobuf(pods, 1 << 20);
    for (size_t chunk : {size_t(1), size_t(2), size_t(5), size_t(13), size_t(100), size_t(1000)}) {
        INFO("chunk " << chunk);
        std::string rv;
        CHECK(from_protobuf(pods, chunk, &rv) == whole);
        CHECK(!rv.empty());
    }
}

TEST_CASE("protobuf: a broken LIST body is refused or left incomplete, never half-read as whole", "[kube][protobuf]") {
    const std::string body = read("pods.pb");
    SECTION("cut short") {
        ListBodySplitter s([](std::string_view, Encoding) {});
        s.feed(std::string_view(body).substr(0, body.size() - 10));
        CHECK_FALSE(s.complete());
    }
    SECTION("not an envelope") {
        ProtobufListSplitter s([](std::string_view) {});
        CHECK_THROWS_WITH(s.feed("k8x\0abc"), Catch::Contains("no \"k8s\\0\" envelope"));
    }
    SECTION("an item longer than the list") {
        // The envelope's raw says 4 bytes; an item inside claims 100.
        const std::string bad = std::string("k8s\0", 4) + "\x12\x04\x12\x64\x0a\x00";
        ProtobufListSplitter s([](std::string_view) {});
        CHECK_THROWS_WITH(s.feed(bad), Catch::Contains("a field longer than the List"));
    }
    SECTION("an item larger than kMaxObjectBytes, refused before its bytes are gathered") {
        // The envelope's raw says 2^40 bytes, an item inside 2^30.
        const std::string bad = std::string("k8s\0\x12\x80\x80\x80\x80\x80\x20\x12\x80\x80\x80\x80\x04", 17);
        ProtobufListSplitter s([](std::string_view) {});
        CHECK_THROWS_WITH(s.feed(bad), Catch::Contains("an item of 1073741824 bytes"));
    }
}

TEST_CASE("protobuf: a malformed object is one clear problem naming it, the rest goes on", "[kube][protobuf]") {
    std::vector<std::string> items;
    ProtobufListSplitter s([&](std::string_view item) { items.emplace_back(item); });
    s.feed(read("pods.pb"));
    REQUIRE(items.size() == 2);
    kd::test::RecordingSink sink;
    ApiObjectDecoder decoder("LIST pods", "Pod", "v1", sink);
    // Cut inside the spec: the metadata before it was read, so the message names the pod.
    std::string cut = items[1].substr(0, items[1].size() - 40);
    auto problem = decoder.decode_protobuf(cut);
    REQUIRE(problem);
    CHECK_THAT(*problem, Catch::Contains("LIST pods: object #0 (Pod kd-fixtures/web-1)") &&
                             Catch::Contains("malformed protobuf: a length past the end of the message") &&
                             Catch::Contains("contentType: application/json"));
    CHECK_FALSE(decoder.decode_protobuf(items[0]));
    CHECK(sink.pods.size() == 1);
}

TEST_CASE("protobuf: a bad value inside a good message is reported as JSON's would be", "[kube][protobuf]") {
    // A Namespace whose creationTimestamp is fine but whose labels map entry is a varint: not a map.
    std::string meta = std::string("\x0a\x02ns") + "\x58\x01";  // name "ns", field 11 as varint
    std::string object = "\x0a" + std::string(1, char(meta.size())) + meta;
    kd::test::RecordingSink sink;
    ApiObjectDecoder decoder("watch namespaces", "Namespace", "v1", sink);
    auto problem = decoder.decode_protobuf(object);
    REQUIRE(problem);
    CHECK_THAT(*problem, Catch::Contains("metadata.labels") && Catch::Contains("expected a length-delimited field"));
    CHECK(sink.namespaces.empty());
}

TEST_CASE("protobuf: a Pod's status.startTime (PodStatus 7, metav1.Time) is read as JSON's", "[kube][protobuf]") {
    // Pod {metadata = 1 {name = 1 "a"}, status = 3 {startTime = 7 {seconds = 1}}}: 2026-11-20T10:00:05Z.
    std::string seconds = "\x08";
    for (uint64_t v = 1795168805; v; v >>= 7) seconds += char((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
    std::string start = "\x3a" + std::string(1, char(seconds.size())) + seconds;
    std::string status = "\x1a" + std::string(1, char(start.size())) + start;
    std::string object = std::string("\x0a\x03\x0a\x01") + "a" + status;
    kd::test::RecordingSink pb, json;
    ApiObjectDecoder decoder("watch pods", "Pod", "v1", pb);
    CHECK_FALSE(decoder.decode_protobuf(object));
    load_cluster_text(
        R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"status":{"startTime":"2026-11-20T10:00:05Z"}})",
        "pod.json", json);
    REQUIRE(pb.pods.size() == 1);
    CHECK(pb.pods[0].bound.start_time_ms == 1795168805000);
    CHECK(pb.texts == json.texts);
}

TEST_CASE("protobuf: spec.resourceClaims (PodSpec 39) and a volume's claimName are read as JSON's",
          "[kube][protobuf]") {
    // The server's fixtures have no resource claim: Pod {metadata = 1 {name = 1 "a"}, spec = 2
    // {resourceClaims = 39 {name = 1 "gpu", resourceClaimName = 3 "gpu-claim"}, {name = 1 "nic",
    // resourceClaimTemplateName = 4 "nic-tpl"}}}, written by hand.
    auto message = [](const std::string& tag, const std::string& body) {
        return tag + std::string(1, char(body.size())) + body;
    };
    std::string claims = message("\xba\x02", message("\x0a", "gpu") + message("\x1a", "gpu-claim")) +
                         message("\xba\x02", message("\x0a", "nic") + message("\x22", "nic-tpl"));
    std::string object = message("\x0a", message("\x0a", "a")) + message("\x12", claims);
    kd::test::RecordingSink pb, json;
    ApiObjectDecoder decoder("watch pods", "Pod", "v1", pb);
    CHECK_FALSE(decoder.decode_protobuf(object));
    load_cluster_text(
        R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"resourceClaims":[)"
        R"({"name":"gpu","resourceClaimName":"gpu-claim"},{"name":"nic","resourceClaimTemplateName":"nic-tpl"}]}})",
        "pod.json", json);
    REQUIRE(pb.pods.size() == 1);
    REQUIRE(pb.pods[0].bound_spec.resource_claim_count == 2);
    CHECK(kd::sv(pb.pods[0].bound_spec.resource_claims[1].resource_claim_template_name) == "nic-tpl");
    CHECK(pb.texts == json.texts);

    // web-1's persistentVolumeClaim volume (Volume.volumeSource 2, persistentVolumeClaim 10,
    // claimName 1), as the real kube-apiserver encoded it.
    kd::test::RecordingSink server;
    ApiObjectDecoder list_decoder("pods.pb", "Pod", "v1", server);
    ListBodySplitter splitter(
        [&](std::string_view item, Encoding) { CHECK_FALSE(list_decoder.decode_protobuf(item)); });
    splitter.feed(read("pods.pb"));
    bool seen = false;
    for (const auto& p : server.pods) {
        if (p.meta.name != "web-1") continue;
        seen = true;
        REQUIRE(p.bound_spec.pvc_claim_names.count == 1);
        CHECK(kd::sv(p.bound_spec.pvc_claim_names.items[0]) == "data-web-1");
    }
    CHECK(seen);
}

TEST_CASE("protobuf: a PriorityClass's value (2) and a claim's spec.storageClassName (PersistentVolumeClaimSpec 5)",
          "[kube][protobuf]") {
    // Written by hand from k8s.io/api's generated.proto (scheduling/v1, core/v1): the server's
    // fixtures have neither kind.
    auto message = [](const std::string& tag, const std::string& body) {
        return tag + std::string(1, char(body.size())) + body;
    };
    // PriorityClass {metadata = 1 {name = 1 "high"}, value = 2 (varint 1000), description = 4 "x"}.
    std::string pc = message("\x0a", message("\x0a", "high")) + std::string("\x10\xe8\x07") + message("\x22", "x");
    // PersistentVolumeClaim {metadata = 1 {name = 1 "data", namespace = 3 "shop"}, spec = 2
    // {accessModes = 1 "ReadWriteOnce", storageClassName = 5 "fast"}, status = 3 {phase = 1 "Bound"}}.
    std::string pvc = message("\x0a", message("\x0a", "data") + message("\x1a", "shop")) +
                      message("\x12", message("\x0a", "ReadWriteOnce") + message("\x2a", "fast")) +
                      message("\x1a", message("\x0a", "Bound"));
    kd::test::RecordingSink pb, json;
    ApiObjectDecoder classes("watch priorityclasses", "PriorityClass", "scheduling.k8s.io/v1", pb);
    CHECK_FALSE(classes.decode_protobuf(pc));
    ApiObjectDecoder claims("watch persistentvolumeclaims", "PersistentVolumeClaim", "v1", pb);
    CHECK_FALSE(claims.decode_protobuf(pvc));
    load_cluster_text(
        R"({"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"high"},"value":1000,"description":"x"}
{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"data","namespace":"shop"},"spec":{"accessModes":["ReadWriteOnce"],"storageClassName":"fast"},"status":{"phase":"Bound"}})",
        "objects.json", json);
    REQUIRE(pb.priority_classes.size() == 1);
    CHECK(pb.priority_classes[0].value == 1000);
    REQUIRE(pb.pvcs.size() == 1);
    CHECK(pb.pvcs[0].storage_class == "fast");
    CHECK(pb.texts == json.texts);
    REQUIRE(pb.texts.size() == 2);
    CHECK(pb.texts[0].rfind("PriorityClass high ", 0) == 0);
    CHECK(pb.texts[1].rfind("PersistentVolumeClaim shop/data ", 0) == 0);
}

TEST_CASE("protobuf: spec.topologySpreadConstraints (PodSpec 33), a bound list, is read whole", "[kube][protobuf]") {
    // web-1 has two constraints (objects.yaml): every element field, its labelSelector's
    // matchLabels and matchExpressions included, comes out of the server's protobuf as from JSON.
    kd::test::RecordingSink pb, json;
    ApiObjectDecoder decoder("pods.pb", "Pod", "v1", pb);
    ListBodySplitter splitter([&](std::string_view item, Encoding) { CHECK_FALSE(decoder.decode_protobuf(item)); });
    splitter.feed(read("pods.pb"));
    load_cluster_text(read("pods.json"), "pods.json", json);
    REQUIRE(pb.pods.size() == json.pods.size());
    size_t with = 0;
    for (size_t i = 0; i < pb.pods.size(); ++i) {
        const auto spread = kd::test::spread_text(pb.pods[i].bound_spec);
        CHECK(spread == kd::test::spread_text(json.pods[i].bound_spec));
        if (pb.pods[i].meta.name == "web-1") CHECK(spread == kd::test::kTwoSpreadConstraints);
        with += !spread.empty();
    }
    CHECK(with == 1);
}

TEST_CASE("protobuf: preferred node affinity, pod (anti-)affinity terms and images are read whole",
          "[kube][protobuf]") {
    // web-1 (objects.yaml) has every kind of term, weighted ones with the term inlined (Affinity 1–3,
    // NodeAffinity 2, PodAffinity / PodAntiAffinity 1–2, WeightedPodAffinityTerm, PodAffinityTerm 1–6,
    // Container 2), as the real kube-apiserver encoded them.
    kd::test::RecordingSink pb, json;
    ApiObjectDecoder decoder("pods.pb", "Pod", "v1", pb);
    ListBodySplitter splitter([&](std::string_view item, Encoding) { CHECK_FALSE(decoder.decode_protobuf(item)); });
    splitter.feed(read("pods.pb"));
    load_cluster_text(read("pods.json"), "pods.json", json);
    REQUIRE(pb.pods.size() == json.pods.size());
    bool seen = false;
    for (size_t i = 0; i < pb.pods.size(); ++i) {
        const auto text = kd::test::affinity_text(pb.pods[i].bound_spec);
        CHECK(text == kd::test::affinity_text(json.pods[i].bound_spec));
        if (pb.pods[i].meta.name != "web-1") continue;
        CHECK(text == kd::test::kWebAffinity);
        seen = true;
    }
    CHECK(seen);
}

TEST_CASE("protobuf: a watch stream gives the events of its JSON twin, split anywhere", "[kube][protobuf]") {
    struct Seen {
        std::vector<std::string> types, versions, texts;
    };
    auto play = [](const std::string& body, size_t chunk) {
        Seen seen;
        kd::test::RecordingSink sink;
        ApiObjectDecoder decoder("watch pods", "Pod", "v1", sink);
        WatchStreamSplitter splitter([&](const WatchEvent& e, Encoding enc) {
            seen.types.emplace_back(e.type);
            seen.versions.emplace_back(e.resource_version);
            std::string copy(e.object);
            auto problem =
                enc == Encoding::protobuf ? decoder.decode_protobuf(copy) : decoder.decode(copy.data(), copy.size());
            CHECK_FALSE(problem);
        });
        for (size_t i = 0; i < body.size(); i += chunk) splitter.feed(std::string_view(body).substr(i, chunk));
        seen.texts = sink.texts;
        return seen;
    };
    const Seen json = play(read("pods-watch.json"), 1 << 20);
    REQUIRE(json.types.size() >= 2);
    for (size_t chunk : {size_t(1), size_t(3), size_t(4), size_t(17), size_t(1) << 20}) {
        INFO("chunk " << chunk);
        Seen pb = play(read("pods-watch.pb"), chunk);
        CHECK(pb.types == json.types);
        CHECK(pb.versions == json.versions);
        CHECK(pb.texts == json.texts);
    }
}

TEST_CASE("protobuf: Status answers and ERROR events are read", "[kube][protobuf]") {
    // metav1.Status {message = 3 "too old", reason = 4 "Expired", code = 6 410} in its envelope.
    const std::string status =
        "\x1a\x07too old\x22\x07"
        "Expired\x30\x9a\x03";
    const std::string type_meta = "\x0a\x02v1\x12\x06Status";
    const std::string body =
        std::string("k8s\0", 4) + "\x0a" + char(type_meta.size()) + type_meta + "\x12" + char(status.size()) + status;
    ApiStatus s = parse_status(body);
    CHECK(s.reason == "Expired");
    CHECK(s.message == "too old");
    CHECK(read_error_event(status, Encoding::protobuf).code == 410);
    CHECK(read_error_event(R"({"kind":"Status","code":410})", Encoding::json).code == 410);
    // Nested deeper than the JSON limit: read as a Status without a code, not parsed (the stack).
    const std::string deep = "{\"kind\":\"Status\",\"code\":410,\"x\":" + std::string(300'000, '[') + "}";
    CHECK(read_error_event(deep, Encoding::json).code == 0);
    CHECK(parse_status(deep).reason.empty());
}
