// The wire form plugins read (kd_snapshot.list_objects, encoded by cluster/migration_json.cpp) of
// PodMigrationJobs and Reservations fits Koordinator's CRDs (their schema facts in tests/data/crd), so what kdesched
// stores and writes back is what a real koord-scheduler and koord-descheduler would accept.
#include "cluster/cluster_model.hpp"
#include "cluster/cluster_snapshot.hpp"
#include "cluster/decode/snapshot_files.hpp"
#include "crd_schema.hpp"

#include <kdesched/view.hpp>

#include <rapidjson/document.h>

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

using namespace kd::core;

TEST_CASE("PodMigrationJobs and Reservations listed to plugins fit the CRDs", "[decode][crd]") {
    ClusterModel model;
    load_cluster_files({std::string(KD_DECODE_DATA_DIR) + "/cluster.json"}, model);
    auto snap = std::make_unique<ClusterSnapshot>(model, 0);
    kd::Snapshot s(&snap->raw());
    for (const char* kind : {"PodMigrationJob", "Reservation"}) {
        CrdSchema schema(std::string(KD_CRD_FACTS_DIR) + "/" +
                         (std::string(kind) == "Reservation" ? "reservations" : "podmigrationjobs") +
                         ".v1alpha1.facts");
        rapidjson::Document list;
        std::string text(s.list_objects(kind));
        list.Parse(text.c_str());
        REQUIRE(list.IsArray());
        REQUIRE(list.Size() >= 1);  // the fixture has some of each
        for (const auto& obj : list.GetArray()) {
            INFO(kind << " " << obj["metadata"]["name"].GetString());
            CHECK(std::string(obj["kind"].GetString()) == kind);
            CHECK(schema.validate(obj) == std::vector<std::string>{});
        }
    }
}

TEST_CASE("the NodeMetrics of the test and example snapshots fit the NodeMetric CRD", "[decode][crd]") {
    CrdSchema schema(std::string(KD_CRD_FACTS_DIR) + "/nodemetrics.v1alpha1.facts");
    for (std::string file :
         {std::string(KD_DECODE_DATA_DIR) + "/cluster.json", std::string(KD_EXAMPLES_DIR) + "/hotspot.json"}) {
        std::ifstream in(file);
        std::stringstream text;
        text << in.rdbuf();
        rapidjson::Document doc;
        doc.Parse(text.str().c_str());
        REQUIRE(doc.HasMember("items"));
        size_t checked = 0;
        for (const auto& obj : doc["items"].GetArray()) {
            if (std::string(obj["kind"].GetString()) != "NodeMetric") continue;
            INFO(file << ": NodeMetric " << obj["metadata"]["name"].GetString());
            CHECK(schema.validate(obj) == std::vector<std::string>{});
            ++checked;
        }
        CHECK(checked >= 1);
    }
}

TEST_CASE("Namespaces and PodDisruptionBudgets are listed to plugins in their wire form (API 1.7)", "[decode]") {
    ClusterModel model;
    auto report = load_cluster_text(R"({"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "web", "uid": "ns-2", "labels": {"team": "a"}}},
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "batch", "uid": "ns-1"}},
        {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
         "metadata": {"namespace": "web", "name": "front", "uid": "pdb-1"},
         "spec": {"selector": {"matchLabels": {"app": "front"},
                               "matchExpressions": [{"key": "tier", "operator": "In", "values": ["a", "b"]}]},
                  "maxUnavailable": "25%"},
         "status": {"disruptionsAllowed": 2}},
        {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
         "metadata": {"namespace": "batch", "name": "all", "uid": "pdb-2"},
         "spec": {"selector": {}, "minAvailable": 1}},
        {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
         "metadata": {"namespace": "batch", "name": "none", "uid": "pdb-3"}, "spec": {"minAvailable": 1}}
    ]})",
                                    "objects.json", model);
    CHECK(report.objects["Namespace"] == 2);
    CHECK(report.objects["PodDisruptionBudget"] == 3);
    auto snap = std::make_unique<ClusterSnapshot>(model, 0);
    kd::Snapshot s(&snap->raw());
    // By name, and by namespace and name; an empty selector ({}: every pod) is kept apart from none.
    CHECK(s.list_objects("Namespace") ==
          R"([{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"batch","uid":"ns-1"}},)"
          R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"web","uid":"ns-2","labels":{"team":"a"}}}])");
    CHECK(s.list_objects("PodDisruptionBudget") ==
          R"([{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"namespace":"batch","name":"all",)"
          R"("uid":"pdb-2"},"spec":{"selector":{},"minAvailable":1},"status":{"disruptionsAllowed":0}},)"
          R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"namespace":"batch","name":"none",)"
          R"("uid":"pdb-3"},"spec":{"minAvailable":1},"status":{"disruptionsAllowed":0}},)"
          R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"namespace":"web","name":"front",)"
          R"("uid":"pdb-1"},"spec":{"selector":{"matchLabels":{"app":"front"},"matchExpressions":[{"key":"tier",)"
          R"("operator":"In","values":["a","b"]}]},"maxUnavailable":"25%"},"status":{"disruptionsAllowed":2}}])");
}

TEST_CASE("PriorityClasses and PersistentVolumeClaims are read from snapshot files and listed to plugins (API 1.8)",
          "[decode]") {
    const char* const json = R"({"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "low", "uid": "pc-2"},
         "value": 800, "globalDefault": false, "description": "batch"},
        {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "high", "uid": "pc-1"},
         "value": 900, "preemptionPolicy": "Never"},
        {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"namespace": "web", "name": "data", "uid": "pvc-1"},
         "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "fast", "resources": {"requests": {"storage": "1Gi"}}},
         "status": {"phase": "Bound"}},
        {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"namespace": "batch", "name": "scratch", "uid": "pvc-2"},
         "spec": {"storageClassName": null}}
    ]})";
    const char* const yaml = R"(apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low, uid: pc-2}
value: 800
globalDefault: false
description: batch
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high, uid: pc-1}
value: 900
preemptionPolicy: Never
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {namespace: web, name: data, uid: pvc-1}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: fast
  resources: {requests: {storage: 1Gi}}
status: {phase: Bound}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {namespace: batch, name: scratch, uid: pvc-2}
spec: {storageClassName: null}
)";
    const std::string priority_classes =
        R"([{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"high","uid":"pc-1"},"value":900},)"
        R"({"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"low","uid":"pc-2"},"value":800}])";
    // By namespace and name; a claim naming no class has no storageClassName.
    const std::string claims =
        R"([{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"namespace":"batch","name":"scratch","uid":"pvc-2"},"spec":{}},)"
        R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"namespace":"web","name":"data","uid":"pvc-1"},)"
        R"("spec":{"storageClassName":"fast"}}])";
    for (auto [text, file] : {std::pair<const char*, const char*>{json, "objects.json"}, {yaml, "objects.yaml"}}) {
        INFO(file);
        ClusterModel model;
        auto report = load_cluster_text(text, file, model);
        CHECK(report.objects["PriorityClass"] == 2);
        CHECK(report.objects["PersistentVolumeClaim"] == 2);
        auto snap = std::make_unique<ClusterSnapshot>(model, 0);
        kd::Snapshot s(&snap->raw());
        CHECK(s.list_objects("PriorityClass") == priority_classes);
        CHECK(s.list_objects("PersistentVolumeClaim") == claims);
    }
}
