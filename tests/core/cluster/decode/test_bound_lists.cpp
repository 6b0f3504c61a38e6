// Bound lists of structs (cluster/schema/object_schema.hpp): spec.topologySpreadConstraints, one
// row and its element rows, read the same from JSON and YAML (protobuf: tests/core/kube); and
// the API 1.6 lists: preferred node affinity, pod (anti-)affinity terms, container images.
#include "affinity_text.hpp"
#include "recording_sink.hpp"
#include "spread_text.hpp"

#include <kdesched/view.hpp>

#include <catch2/catch.hpp>

using namespace kd::test;

namespace {

const char* const kJson = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"ns"},"spec":{
 "topologySpreadConstraints":[
  {"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone","whenUnsatisfiable":"DoNotSchedule",
   "labelSelector":{"matchLabels":{"app":"web","tier":"front"},
    "matchExpressions":[{"key":"track","operator":"In","values":["stable","canary"]},{"key":"legacy","operator":"DoesNotExist"}]},
   "minDomains":2,"nodeAffinityPolicy":"Ignore","nodeTaintsPolicy":"Honor","matchLabelKeys":["pod-template-hash"]},
  {"maxSkew":3,"topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"ScheduleAnyway"}],
 "containers":[{"name":"c"}]}}
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"b","namespace":"ns"},"spec":{"containers":[{"name":"c"}]}}
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"c","namespace":"ns"},"spec":{"topologySpreadConstraints":null}}
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"d","namespace":"ns"},"spec":{"topologySpreadConstraints":[]}})";

const char* const kYaml = R"(apiVersion: v1
kind: Pod
metadata: {name: a, namespace: ns}
spec:
  containers: [{name: c}]
  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: DoNotSchedule
    labelSelector:
      matchLabels: {app: web, tier: front}
      matchExpressions:
      - {key: track, operator: In, values: [stable, canary]}
      - {key: legacy, operator: DoesNotExist}
    minDomains: 2
    nodeAffinityPolicy: Ignore
    nodeTaintsPolicy: Honor
    matchLabelKeys: [pod-template-hash]
  - {maxSkew: 3, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway}
---
apiVersion: v1
kind: Pod
metadata: {name: b, namespace: ns}
spec: {containers: [{name: c}]}
)";

}  // namespace

TEST_CASE("spec.topologySpreadConstraints, a bound list, is read whole from JSON and YAML", "[kinds][bound-list]") {
    RecordingSink json;
    load_text(kJson, json);
    REQUIRE(json.pods.size() == 4);
    CHECK(spread_text(json.pods[0].bound_spec) == kTwoSpreadConstraints);
    // Every element carries its struct_size (the stride the model and plugins walk by).
    CHECK(json.pods[0].bound_spec.topology_spread_constraints[0].struct_size == sizeof(kd_topology_spread_constraint));
    CHECK(json.pods[0].bound_spec.topology_spread_constraints[0].match_expressions[1].struct_size ==
          sizeof(kd_selector_requirement));
    // Absent, null or empty: no list, and nothing left over from the pod before (the draft's clear()).
    for (size_t i = 1; i < 4; ++i) {
        CHECK(json.pods[i].bound_spec.topology_spread_constraint_count == 0);
        CHECK(json.pods[i].bound_spec.topology_spread_constraints == nullptr);
    }
    CHECK(json.texts[0].find(" topologySpreadConstraints=[maxSkew=1 ") != std::string::npos);
    CHECK(json.texts[1].find("topologySpreadConstraints") == std::string::npos);

    RecordingSink yaml;
    load_text(kYaml, yaml, "pods.yaml");
    REQUIRE(yaml.pods.size() == 2);
    CHECK(spread_text(yaml.pods[0].bound_spec) == kTwoSpreadConstraints);
    CHECK(yaml.pods[1].bound_spec.topology_spread_constraint_count == 0);
    CHECK(yaml.texts[0] == json.texts[0]);
    CHECK(yaml.texts[1] == json.texts[1]);
}

TEST_CASE("a wrong type inside a bound list is one problem at its path", "[errors][bound-list]") {
    RecordingSink sink;
    std::string e = error_of([&] {
        load_text(
            R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"topologySpreadConstraints":[{"maxSkew":"one"}]}})",
            sink);
    });
    CHECK(e.find("spec.topologySpreadConstraints[0].maxSkew") != std::string::npos);
    CHECK(e.find("must be an integer") != std::string::npos);
    e = error_of([&] {
        load_text(
            R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"topologySpreadConstraints":[{"labelSelector":{"matchExpressions":[{"values":"x"}]}}]}})",
            sink);
    });
    CHECK(e.find("spec.topologySpreadConstraints[0].labelSelector.matchExpressions[0].values") != std::string::npos);
    CHECK(e.find("must be a list") != std::string::npos);
}

namespace {

// web-1's affinity and containers in tests/data/protobuf/objects.yaml, as the server returns them.
const char* const kAffinityPod =
    R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1","namespace":"ns"},"spec":{
 "affinity":{
  "nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[
    {"weight":80,"preference":{"matchExpressions":[{"key":"disk","operator":"In","values":["ssd"]}]}},
    {"weight":5,"preference":{"matchFields":[{"key":"metadata.name","operator":"In","values":["kd-node-2"]}]}}]},
  "podAffinity":{
   "requiredDuringSchedulingIgnoredDuringExecution":[
    {"labelSelector":{"matchLabels":{"app":"cache"}},"topologyKey":"topology.kubernetes.io/zone"}],
   "preferredDuringSchedulingIgnoredDuringExecution":[
    {"weight":30,"podAffinityTerm":{"labelSelector":{"matchExpressions":[{"key":"app","operator":"In","values":["db","queue"]}]},
     "namespaces":["kd-fixtures","other"],"topologyKey":"kubernetes.io/hostname"}}]},
  "podAntiAffinity":{
   "requiredDuringSchedulingIgnoredDuringExecution":[
    {"labelSelector":{"matchLabels":{"app":"web"}},"topologyKey":"kubernetes.io/hostname","namespaceSelector":{"matchLabels":{"team":"a"}}},
    {"labelSelector":{},"topologyKey":"topology.kubernetes.io/zone","namespaceSelector":{}}],
   "preferredDuringSchedulingIgnoredDuringExecution":[
    {"weight":100,"podAffinityTerm":{"labelSelector":{"matchLabels":{"app":"web"},
     "matchExpressions":[{"key":"tier","operator":"In","values":["front"]}]},
     "topologyKey":"topology.kubernetes.io/zone","matchLabelKeys":["tier"],"mismatchLabelKeys":["track"]}}]}},
 "initContainers":[{"name":"setup","image":"busybox"}],
 "containers":[{"name":"app","image":"nginx"},{"name":"log","image":"fluentbit"}]}}
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"plain","namespace":"ns"},"spec":{"initContainers":[{"name":"i","image":"busybox"}],"containers":[{"name":"c"}]}})";

}  // namespace

TEST_CASE("preferred node affinity, pod (anti-)affinity terms and container images are read as bound lists",
          "[kinds][bound-list]") {
    RecordingSink json;
    load_text(kAffinityPod, json);
    REQUIRE(json.pods.size() == 2);
    CHECK(affinity_text(json.pods[0].bound_spec) == kWebAffinity);
    // A weighted term's element carries its weight and the term inlined; a required one has none.
    CHECK(json.pods[0].bound_spec.preferred_pod_anti_affinity_terms[0].has_term == 1);
    CHECK(json.pods[0].bound_spec.pod_anti_affinity_terms[0].has_term == 0);
    CHECK(json.pods[0].bound_spec.preferred_node_terms[1].struct_size == sizeof(kd_preferred_node_term));
    // Init containers' images are not the pod's (RemoveDuplicates compares the containers');
    // nothing is left over from the pod before.
    CHECK(affinity_text(json.pods[1].bound_spec) == std::vector<std::string>{"images="});
    CHECK(json.pods[1].bound_spec.pod_anti_affinity_term_count == 0);

    // The same pod in YAML.
    RecordingSink yaml;
    load_text(R"(apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: ns}
spec:
  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - {weight: 80, preference: {matchExpressions: [{key: disk, operator: In, values: [ssd]}]}}
      - {weight: 5, preference: {matchFields: [{key: metadata.name, operator: In, values: [kd-node-2]}]}}
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {labelSelector: {matchLabels: {app: cache}}, topologyKey: topology.kubernetes.io/zone}
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 30
        podAffinityTerm:
          labelSelector: {matchExpressions: [{key: app, operator: In, values: [db, queue]}]}
          namespaces: [kd-fixtures, other]
          topologyKey: kubernetes.io/hostname
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: web}}
        topologyKey: kubernetes.io/hostname
        namespaceSelector: {matchLabels: {team: a}}
      - {labelSelector: {}, topologyKey: topology.kubernetes.io/zone, namespaceSelector: {}}
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        podAffinityTerm:
          labelSelector:
            matchLabels: {app: web}
            matchExpressions: [{key: tier, operator: In, values: [front]}]
          topologyKey: topology.kubernetes.io/zone
          matchLabelKeys: [tier]
          mismatchLabelKeys: [track]
  initContainers: [{name: setup, image: busybox}]
  containers: [{name: app, image: nginx}, {name: log, image: fluentbit}]
)",
              yaml, "pods.yaml");
    REQUIRE(yaml.pods.size() == 1);
    CHECK(affinity_text(yaml.pods[0].bound_spec) == kWebAffinity);
    CHECK(yaml.texts[0] == json.texts[0]);
}

TEST_CASE("spec.resourceClaims and the volumes' claimNames (API 1.8) are read from JSON and YAML",
          "[kinds][bound-list]") {
    RecordingSink json;
    load_text(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"ns"},"spec":{
 "resourceClaims":[{"name":"gpu","resourceClaimName":"gpu-claim"},{"name":"nic","resourceClaimTemplateName":"nic-tpl"},{"name":"bare"}],
 "volumes":[{"name":"data","persistentVolumeClaim":{"claimName":"data-a","readOnly":true}},{"name":"scratch","emptyDir":{}},
  {"name":"logs","persistentVolumeClaim":{"claimName":"logs-a"}}],
 "containers":[{"name":"c"}]}}
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"b","namespace":"ns"},"spec":{"resourceClaims":[],"containers":[{"name":"c"}]}})",
              json);
    REQUIRE(json.pods.size() == 2);
    const kd_pod_spec& a = json.pods[0].bound_spec;
    REQUIRE(a.resource_claim_count == 3);
    CHECK(a.resource_claims[0].struct_size == sizeof(kd_pod_resource_claim));
    CHECK(kd::sv(a.resource_claims[0].name) == "gpu");
    CHECK(kd::sv(a.resource_claims[0].resource_claim_name) == "gpu-claim");
    CHECK(kd::sv(a.resource_claims[1].resource_claim_template_name) == "nic-tpl");
    CHECK(kd::sv(a.resource_claims[2].name) == "bare");  // an entry with a name only still counts
    REQUIRE(a.pvc_claim_names.count == 2);
    CHECK(kd::sv(a.pvc_claim_names.items[0]) == "data-a");
    CHECK(kd::sv(a.pvc_claim_names.items[1]) == "logs-a");
    CHECK(json.pods[0].pvc);  // the PVC flag as before
    // Nothing left over from the pod before.
    CHECK(json.pods[1].bound_spec.resource_claim_count == 0);
    CHECK(json.pods[1].bound_spec.pvc_claim_names.count == 0);

    RecordingSink yaml;
    load_text(R"(apiVersion: v1
kind: Pod
metadata: {name: a, namespace: ns}
spec:
  resourceClaims:
  - {name: gpu, resourceClaimName: gpu-claim}
  - {name: nic, resourceClaimTemplateName: nic-tpl}
  - {name: bare}
  volumes:
  - {name: data, persistentVolumeClaim: {claimName: data-a, readOnly: true}}
  - {name: scratch, emptyDir: {}}
  - {name: logs, persistentVolumeClaim: {claimName: logs-a}}
  containers: [{name: c}]
)",
              yaml, "pods.yaml");
    REQUIRE(yaml.pods.size() == 1);
    CHECK(yaml.texts[0] == json.texts[0]);
    CHECK(json.texts[0] != json.texts[1]);
}
