// What a watch delivers, applied to the model: deletes of every kind, a relist that replaces a
// kind (objects deleted while disconnected disappear), one bad object skipped without losing the
// others, and the revision moving on with every change.
#include "cluster/cluster_model.hpp"
#include "cluster/cluster_snapshot.hpp"
#include "cluster/decode/api_objects.hpp"
#include "cluster/relist.hpp"

#include <kdesched/view.hpp>

#include <catch2/catch.hpp>

#include <algorithm>

using namespace kd::core;

namespace {

// Decodes `json` (objects without kind are `kind`) into `sink`; the problem, if any.
std::optional<std::string> feed(const std::string& json, const char* kind, ObjectSink& sink) {
    std::string text = json;
    return decode_api_objects(text.data(), text.size(), std::string("watch ") + kind, kind, "", sink);
}

std::string pod(const std::string& name, const std::string& node = "n1") {
    return R"({"metadata":{"uid":"uid-)" + name + R"(","namespace":"shop","name":")" + name +
           R"("},"spec":{"nodeName":")" + node + R"(","containers":[{"name":"c"}]},"status":{"phase":"Running"}})";
}

std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

}  // namespace

TEST_CASE("every kind the model keeps can be deleted by key, and the revision moves on", "[model][watch]") {
    ClusterModel m;
    uint64_t r0 = m.revision();
    REQUIRE_FALSE(feed(R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"uid":"pdb-1",
        "namespace":"shop","name":"web"},"spec":{"minAvailable":1}}
        {"apiVersion":"v1","kind":"Namespace","metadata":{"uid":"ns-1","name":"shop"}}
        {"apiVersion":"v1","kind":"Secret","metadata":{"uid":"s-1","namespace":"shop","name":"token"},"data":{}})",
                       "", m));
    CHECK(m.revision() > r0);
    CHECK(m.keys_of(ObjectKind::pdb) == std::vector<std::string>{"pdb-1"});
    CHECK(m.keys_of(ObjectKind::namespace_) == std::vector<std::string>{"ns-1"});
    CHECK(m.keys_of(ObjectKind::secret) == std::vector<std::string>{"s-1"});

    uint64_t r1 = m.revision();
    CHECK(m.remove(ObjectKind::pdb, "pdb-1"));
    CHECK(m.remove(ObjectKind::namespace_, "ns-1"));
    CHECK(m.remove(ObjectKind::secret, "s-1"));
    CHECK_FALSE(m.remove(ObjectKind::secret, "s-1"));
    CHECK(m.pdbs().empty());
    CHECK(m.namespaces().empty());
    CHECK(m.secret("shop", "token") == nullptr);
    CHECK(m.revision() > r1);
    // Snapshots show the revision they were built from (kd_snapshot.revision, API 1.2).
    CHECK(kd::Snapshot(&ClusterSnapshot(m, 0).raw()).revision() == m.revision());
}

TEST_CASE("keys of objects without a UID are derived the same way for storing and for relists", "[model][watch]") {
    CHECK(ClusterModel::key_of(ObjectKind::pod, "", "shop", "a") == "pod/shop/a");
    CHECK(ClusterModel::key_of(ObjectKind::pod, "u", "shop", "a") == "u");
    CHECK(ClusterModel::key_of(ObjectKind::node_metric, "u", "", "n1") == "n1");
    CHECK(ClusterModel::key_of(ObjectKind::reservation, "", "", "r") == "Reservation/r");
    CHECK(ClusterModel::key_of(ObjectKind::deployment, "", "shop", "web") == "Deployment/shop/web");
}

TEST_CASE("a relist replaces one kind exactly: what was deleted meanwhile disappears, other kinds stay",
          "[model][watch]") {
    ClusterModel m;
    REQUIRE_FALSE(feed(pod("a") + pod("b") + pod("c"), "Pod", m));
    REQUIRE_FALSE(feed(R"({"apiVersion":"v1","kind":"Node","metadata":{"uid":"n1","name":"n1"}})", "", m));
    CHECK(sorted(m.keys_of(ObjectKind::pod)) == std::vector<std::string>{"uid-a", "uid-b", "uid-c"});

    // While the watch was down: b deleted, c moved to n2, d created.
    Relist relist(m, ObjectKind::pod);
    REQUIRE_FALSE(feed(pod("a") + pod("c", "n2") + pod("d"), "Pod", relist));
    CHECK(relist.delivered() == 3);
    CHECK(relist.finish() == 1);
    CHECK(sorted(m.keys_of(ObjectKind::pod)) == std::vector<std::string>{"uid-a", "uid-c", "uid-d"});
    CHECK(m.pod_by_name("shop", "b") == nullptr);
    CHECK(kd::Pod(m.pod_by_name("shop", "c")).node_name() == "n2");
    CHECK(m.node_by_name("n1") != nullptr);  // another kind: untouched

    // An empty list empties the kind.
    Relist none(m, ObjectKind::pod);
    CHECK(none.finish() == 3);
    CHECK(m.pod_count() == 0);
}

TEST_CASE("a relist of one workload kind leaves the other workload kinds alone", "[model][watch]") {
    ClusterModel m;
    REQUIRE_FALSE(feed(R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"uid":"rs","namespace":"shop",
        "name":"web-1"}} {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"uid":"dep","namespace":"shop",
        "name":"web"}})",
                       "", m));
    Relist relist(m, ObjectKind::replica_set);
    CHECK(relist.finish() == 1);
    CHECK(m.workload_by_uid("rs") == nullptr);
    CHECK(m.workload_by_uid("dep") != nullptr);
}

TEST_CASE("one bad object is reported with its name and skipped — the objects before it are kept", "[model][watch]") {
    ClusterModel m;
    std::string bad = R"({"metadata":{"uid":"uid-x","namespace":"shop","name":"x"},"spec":{"containers":
        [{"name":"c","resources":{"requests":{"cpu":"12x"}}}]}})";
    auto problem = feed(pod("a") + bad + pod("b"), "Pod", m);
    REQUIRE(problem);
    CHECK_THAT(*problem, Catch::Contains("watch Pod"));
    CHECK_THAT(*problem, Catch::Contains("(Pod shop/x)"));
    CHECK_THAT(*problem, Catch::Contains("invalid quantity \"12x\""));
    CHECK(m.pod_by_name("shop", "a") != nullptr);
    CHECK(m.pod_by_name("shop", "x") == nullptr);
    // Not JSON at all: a problem, no exception.
    std::string junk = "{\"metadata\": [";
    CHECK(decode_api_objects(junk.data(), junk.size(), "watch Pod", "Pod", "v1", m).has_value());
}

TEST_CASE("a relist of PersistentVolumeClaims replaces the claims and leaves the PriorityClasses", "[model][watch]") {
    auto claim = [](const std::string& name, const std::string& cls) {
        return R"({"metadata":{"uid":"pvc-)" + name + R"(","namespace":"shop","name":")" + name +
               R"("},"spec":{"storageClassName":")" + cls + R"("}})";
    };
    ClusterModel m;
    REQUIRE_FALSE(feed(claim("a", "fast") + claim("b", "slow"), "PersistentVolumeClaim", m));
    REQUIRE_FALSE(feed(R"({"metadata":{"uid":"pc-1","name":"high"},"value":1000})", "PriorityClass", m));
    CHECK(sorted(m.keys_of(ObjectKind::pvc)) == std::vector<std::string>{"pvc-a", "pvc-b"});
    CHECK(m.priority_classes().at("pc-1").value == 1000);

    Relist relist(m, ObjectKind::pvc);
    REQUIRE_FALSE(feed(claim("b", "gold"), "PersistentVolumeClaim", relist));
    CHECK(relist.finish() == 1);
    CHECK(m.keys_of(ObjectKind::pvc) == std::vector<std::string>{"pvc-b"});
    CHECK(m.pvcs().at("pvc-b").storage_class == "gold");
    CHECK(m.keys_of(ObjectKind::priority_class) == std::vector<std::string>{"pc-1"});
}
