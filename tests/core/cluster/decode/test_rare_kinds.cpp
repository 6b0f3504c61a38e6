// PodMigrationJob and Reservation: recorded into a DOM and read into owned structs.
#include "recording_sink.hpp"

#include <catch2/catch.hpp>

#include <rapidjson/document.h>

using namespace kd::test;

namespace {

const char* const kJob = R"({
  "apiVersion": "scheduling.koordinator.sh/v1alpha1",
  "kind": "PodMigrationJob",
  "metadata": {
    "annotations": {"koordinator.sh/evict-reason": "node hot", "koordinator.sh/evict-trigger": "LowNodeLoad"},
    "creationTimestamp": "2024-05-01T12:00:00Z",
    "labels": {"koordinator.sh/evict-policy": "Eviction"},
    "name": "pmj-1", "resourceVersion": "77", "uid": "pmj-uid"
  },
  "spec": {
    "deleteOptions": {"gracePeriodSeconds": 30, "propagationPolicy": "Background"},
    "mode": "ReservationFirst",
    "paused": true,
    "podRef": {"apiVersion": "v1", "kind": "Pod", "name": "web-1", "namespace": "default", "uid": "pod-uid"},
    "reservationOptions": {
      "reservationRef": {"apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "Reservation", "name": "pmj-uid", "uid": "rsv-uid"},
      "template": {
        "metadata": {"labels": {"app.kubernetes.io/created-by": "koord-descheduler"}},
        "spec": {
          "allocateOnce": true,
          "owners": [{"object": {"kind": "Pod", "name": "web-1", "namespace": "default"}}],
          "template": {
            "metadata": {"labels": {"app": "web"}},
            "spec": {
              "schedulerName": "koord-scheduler",
              "containers": [{"name": "a", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}},
                             {"name": "b", "resources": {"requests": {"cpu": "500m"}}}],
              "initContainers": [{"name": "i", "resources": {"requests": {"cpu": "2"}}},
                                 {"name": "s", "restartPolicy": "Always", "resources": {"requests": {"memory": "100Mi"}}}],
              "overhead": {"cpu": "100m"},
              "nodeSelector": {"zone": "a"},
              "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["node-1"]}]}]}}},
              "tolerations": [{"key": "k", "operator": "Equal", "value": "v", "effect": "NoSchedule"}]
            }
          }
        }
      }
    },
    "ttl": "5m"
  },
  "status": {
    "conditions": [{"lastProbeTime": "2024-05-01T12:00:01Z", "lastTransitionTime": "2024-05-01T12:00:02Z", "message": "created", "reason": "Created", "status": "True", "type": "ReservationCreated"}],
    "message": "waiting", "nodeName": "node-2", "phase": "Running",
    "podRef": {"kind": "Pod", "name": "web-1-new", "namespace": "default"},
    "reason": "WaitForPodBindReservation", "status": "Evicting"
  }
})";

const char* const kReservation = R"(apiVersion: scheduling.koordinator.sh/v1alpha1
kind: Reservation
metadata:
  creationTimestamp: "2024-05-01T12:00:00Z"
  labels:
    app.kubernetes.io/created-by: koord-descheduler
  name: rsv-1
  resourceVersion: "5"
  uid: rsv-uid
spec:
  allocateOnce: false
  expires: "2024-05-02T12:00:00Z"
  owners:
  - controller:
      apiVersion: apps/v1
      controller: true
      kind: ReplicaSet
      name: web-5d
      namespace: default
      uid: rs-uid
  - labelSelector:
      matchLabels:
        app: web
  - object:
      kind: Pod
      name: web-1
      namespace: default
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: a
        resources:
          requests:
            cpu: 250m
            memory: 64Mi
  ttl: 1h
  unschedulable: true
status:
  conditions:
  - lastTransitionTime: "2024-05-01T12:00:03Z"
    reason: Available
    status: "True"
    type: Ready
  currentOwners:
  - kind: Pod
    name: web-1-new
    namespace: default
    uid: new-uid
  nodeName: node-2
  phase: Available
)";

}  // namespace

TEST_CASE("a PodMigrationJob: metadata, spec, reservation template, status", "[rare]") {
    RecordingSink sink;
    auto report = load_text(kJob, sink);
    REQUIRE(sink.jobs.size() == 1);
    CHECK(report.objects == std::map<std::string, size_t>{{"PodMigrationJob", 1}});
    const auto& j = sink.jobs[0];
    CHECK(j.uid == "pmj-uid");
    CHECK(j.name == "pmj-1");
    CHECK(j.resource_version == "77");
    CHECK(j.creation_ms == 1714564800000);
    CHECK(j.labels == std::map<std::string, std::string>{{"koordinator.sh/evict-policy", "Eviction"}});
    CHECK(j.annotations.at("koordinator.sh/evict-trigger") == "LowNodeLoad");
    CHECK(j.paused);
    REQUIRE(j.ttl);
    CHECK(j.ttl->ms() == 300000);
    CHECK(j.mode == "ReservationFirst");
    CHECK(j.pod_ref == kd::core::ObjectReference{"v1", "Pod", "default", "web-1", "pod-uid", "", ""});
    REQUIRE(j.reservation_ref);
    CHECK(j.reservation_ref->name == "pmj-uid");
    CHECK(j.reservation_ref->uid == "rsv-uid");
    REQUIRE(j.reservation_template);
    const auto& t = *j.reservation_template;
    // The whole ReservationTemplateSpec is kept, as read.
    rapidjson::Document tpl;
    tpl.Parse(t.json.c_str());
    REQUIRE(tpl.IsObject());
    CHECK(tpl["spec"]["allocateOnce"].GetBool());
    CHECK(tpl["metadata"]["labels"]["app.kubernetes.io/created-by"] == "koord-descheduler");
    CHECK(t.labels == std::map<std::string, std::string>{{"app", "web"}});
    CHECK(t.scheduler_name == "koord-scheduler");
    // containers 1.5 cpu + 1Gi; init: 2 cpu alone, then the sidecar's 100Mi adds to both; overhead.
    CHECK(t.requests ==
          std::vector<std::pair<std::string, int64_t>>{{"cpu", 2100}, {"memory", 1024 * kMi + 100 * kMi}});
    CHECK(t.node_selector == std::map<std::string, std::string>{{"zone", "a"}});
    CHECK(t.has_required_affinity);
    REQUIRE(t.affinity_terms.size() == 1);
    CHECK(t.affinity_terms[0].fields ==
          std::vector<kd::core::PodTemplate::Requirement>{{"metadata.name", "NotIn", {"node-1"}}});
    REQUIRE(t.tolerations.size() == 1);
    CHECK(t.tolerations[0] == kd::core::PodTemplate::Toleration{"k", "Equal", "v", "NoSchedule"});
    REQUIRE(j.delete_options_json);
    CHECK(*j.delete_options_json == R"({"gracePeriodSeconds":30,"propagationPolicy":"Background"})");
    CHECK(j.phase == "Running");
    CHECK(j.status == "Evicting");
    CHECK(j.reason == "WaitForPodBindReservation");
    CHECK(j.message == "waiting");
    CHECK(j.node_name == "node-2");
    REQUIRE(j.conditions.size() == 1);
    CHECK(j.conditions[0] ==
          kd::core::Condition{"ReservationCreated", "True", "Created", "created", 1714564801000, 1714564802000});
    REQUIRE(j.status_pod_ref);
    CHECK(j.status_pod_ref->name == "web-1-new");
}

TEST_CASE("a Reservation from YAML: template, owners, ttl, expiry, status", "[rare][yaml]") {
    RecordingSink sink;
    load_text(kReservation, sink, "reservation.yaml");
    REQUIRE(sink.reservations.size() == 1);
    const auto& r = sink.reservations[0];
    CHECK(r.uid == "rsv-uid");
    CHECK(r.name == "rsv-1");
    CHECK(r.resource_version == "5");
    CHECK(r.creation_ms == 1714564800000);
    CHECK(r.labels.at("app.kubernetes.io/created-by") == "koord-descheduler");
    CHECK(r.annotations.empty());
    CHECK(r.template_.labels == std::map<std::string, std::string>{{"app", "web"}});
    CHECK(r.template_.requests == std::vector<std::pair<std::string, int64_t>>{{"cpu", 250}, {"memory", 64 * kMi}});
    CHECK(r.template_.json.find("\"containers\"") != std::string::npos);
    REQUIRE(r.owners.size() == 3);
    REQUIRE(r.owners[0].controller);
    CHECK(r.owners[0].controller->kind == "ReplicaSet");
    CHECK(r.owners[0].controller->ns == "default");
    CHECK(r.owners[0].controller->uid == "rs-uid");
    CHECK(r.owners[0].controller->controller);
    CHECK_FALSE(r.owners[0].object);
    REQUIRE(r.owners[1].label_selector);
    CHECK(r.owners[1].label_selector->matchLabels.at("app") == "web");
    REQUIRE(r.owners[2].object);
    CHECK(r.owners[2].object->name == "web-1");
    REQUIRE(r.ttl);
    CHECK(r.ttl->ms() == 3600000);
    CHECK(r.expires_ms == 1714651200000);
    CHECK_FALSE(r.allocate_once);
    CHECK(r.unschedulable);
    CHECK(r.phase == "Available");
    CHECK(r.node_name == "node-2");
    REQUIRE(r.conditions.size() == 1);
    CHECK(r.conditions[0].reason == "Available");
    CHECK(r.conditions[0].last_transition_ms == 1714564803000);
    REQUIRE(r.current_owners.size() == 1);
    CHECK(r.current_owners[0].uid == "new-uid");
}

TEST_CASE("Reservation defaults: allocateOnce true, no ttl, no expiry", "[rare]") {
    RecordingSink sink;
    load_text(
        R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation","metadata":{"name":"r"},"spec":{"template":{}}})",
        sink);
    REQUIRE(sink.reservations.size() == 1);
    CHECK(sink.reservations[0].allocate_once);
    CHECK_FALSE(sink.reservations[0].ttl);
    CHECK(sink.reservations[0].expires_ms == 0);
    CHECK(sink.reservations[0].template_.json == "{}");
}

TEST_CASE("rare kinds keep file order among the others and report malformed fields", "[rare]") {
    RecordingSink sink;
    load_cluster_files({KD_DECODE_DATA_DIR "/cluster.json"}, sink);
    auto order = sink.order();
    REQUIRE(order.size() >= 2);
    CHECK(order[order.size() - 2] == "PodMigrationJob pmj-1");
    CHECK(order.back() == "Reservation rsv-1");

    RecordingSink bad;
    CHECK(
        error_of([&] {
            load_text(
                R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"PodMigrationJob","metadata":{"name":"j"},"spec":{"ttl":"soon"}})",
                bad);
        }) ==
        "cluster.json: object #0 (PodMigrationJob j): spec.ttl: invalid duration \"soon\" (use e.g. \"5m\" or "
        "\"24h\")");
    CHECK(error_of([&] {
              load_text(
                  "apiVersion: scheduling.koordinator.sh/v1alpha1\nkind: Reservation\nmetadata:\n  name: r\nspec:\n"
                  "  template:\n    spec:\n      containers:\n      - resources:\n          requests:\n"
                  "            cpu: lots\n",
                  bad, "r.yaml");
          }) ==
          "r.yaml:11:18: object #0 (Reservation r): spec.template.spec.containers[0].resources.requests.cpu: "
          "invalid quantity \"lots\" (a quantity is a number with an optional suffix, e.g. \"500m\", \"1.5\", "
          "\"2Gi\" or \"1e3\", and must fit in 64-bit milli-units)");
}

TEST_CASE("rare kinds of another group are skipped with a note", "[rare]") {
    RecordingSink sink;
    auto report = load_text(R"({"apiVersion":"example.com/v1","kind":"Reservation","metadata":{"name":"r"}})", sink);
    CHECK(sink.reservations.empty());
    CHECK(report.notes ==
          std::vector<std::string>{"cluster.json: skipped 1 object of kind Reservation with apiVersion "
                                   "example.com/v1 (kdesched reads scheduling.koordinator.sh/v1alpha1)"});
}
