// Every drafted kind, every field the decoder reads, from JSON and from the equivalent YAML.
#include "recording_sink.hpp"

#include <kdesched/view.hpp>

#include <catch2/catch.hpp>

using namespace kd::test;
using Catch::Matchers::Equals;

namespace {

// A pod as kubectl prints it, with fields the decoder must skip (managedFields, env, status
// containerStatuses, …) between the ones it reads.
const char* const kPodJson = R"({
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {
        "annotations": {
            "kubectl.kubernetes.io/last-applied-configuration": "{\"apiVersion\":\"v1\"}",
            "scheduling.koordinator.sh/eviction-cost": "10",
            "descheduler.alpha.kubernetes.io/evict": ""
        },
        "creationTimestamp": "2024-05-01T12:00:00Z",
        "deletionTimestamp": "2024-05-01T13:00:00Z",
        "generateName": "web-5d8f7c-",
        "labels": {"app": "web", "koordinator.sh/priority-class": "koord-prod"},
        "managedFields": [{"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:labels": {}}}}],
        "name": "web-1",
        "namespace": "default",
        "ownerReferences": [
            {"apiVersion": "apps/v1", "blockOwnerDeletion": true, "controller": true, "kind": "ReplicaSet",
             "name": "web-5d8f7c", "uid": "rs-uid"},
            {"apiVersion": "v1", "kind": "ConfigMap", "name": "cm", "uid": "cm-uid"}
        ],
        "resourceVersion": "12345",
        "uid": "pod-uid-1"
    },
    "spec": {
        "affinity": {
            "nodeAffinity": {
                "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference": {"matchExpressions": [{"key": "x", "operator": "Exists"}]}}],
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [
                        {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a", "b"]},
                                              {"key": "gpu", "operator": "DoesNotExist"}]},
                        {"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["node-9"]}]}
                    ]
                }
            },
            "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"topologyKey": "kubernetes.io/hostname"}]}
        },
        "containers": [
            {"name": "app", "image": "nginx:1.25", "env": [{"name": "A", "value": "1"}],
             "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"cpu": "1", "memory": "256Mi"}},
             "volumeMounts": [{"mountPath": "/data", "name": "data"}]},
            {"name": "sidecar", "image": "busybox", "resources": {"requests": {"cpu": 0.25}}}
        ],
        "initContainers": [
            {"name": "init", "image": "busybox", "resources": {"requests": {"cpu": "2", "ephemeral-storage": "1Gi"}}},
            {"name": "proxy", "image": "envoy", "restartPolicy": "Always", "resources": {"requests": {"cpu": "50m"}}}
        ],
        "nodeName": "node-1",
        "nodeSelector": {"disktype": "ssd", "kubernetes.io/os": "linux"},
        "overhead": {"cpu": "10m"},
        "priority": 9000,
        "priorityClassName": "koord-prod",
        "schedulerName": "koord-scheduler",
        "tolerations": [
            {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists", "tolerationSeconds": 300},
            {"effect": "NoSchedule", "key": "dedicated", "operator": "Equal", "value": "web"}
        ],
        "volumes": [
            {"name": "data", "persistentVolumeClaim": {"claimName": "data-web-1"}},
            {"name": "cache", "emptyDir": {}},
            {"name": "token", "projected": {"sources": [{"serviceAccountToken": {"path": "token"}}]}}
        ]
    },
    "status": {
        "conditions": [
            {"lastProbeTime": null, "lastTransitionTime": "2024-05-01T12:00:01Z", "status": "True", "type": "PodScheduled"},
            {"lastProbeTime": null, "lastTransitionTime": "2024-05-01T12:00:05Z", "message": "containers with unready status: [app]", "reason": "ContainersNotReady", "status": "False", "type": "Ready"}
        ],
        "containerStatuses": [{"name": "app", "ready": false, "restartCount": 3, "state": {"running": {"startedAt": "2024-05-01T12:00:04Z"}}}],
        "hostIP": "10.0.0.1",
        "phase": "Running",
        "podIP": "10.1.0.7",
        "qosClass": "Burstable",
        "startTime": "2024-05-01T12:00:01Z"
    }
})";

// The same pod as `kubectl get -o yaml` prints it (keys sorted, block style).
const char* const kPodYaml = R"(apiVersion: v1
kind: Pod
metadata:
  annotations:
    descheduler.alpha.kubernetes.io/evict: ""
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"v1"}
    scheduling.koordinator.sh/eviction-cost: "10"
  creationTimestamp: "2024-05-01T12:00:00Z"
  deletionTimestamp: "2024-05-01T13:00:00Z"
  generateName: web-5d8f7c-
  labels:
    app: web
    koordinator.sh/priority-class: koord-prod
  managedFields:
  - apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata:
        f:labels: {}
  name: web-1
  namespace: default
  ownerReferences:
  - apiVersion: apps/v1
    blockOwnerDeletion: true
    controller: true
    kind: ReplicaSet
    name: web-5d8f7c
    uid: rs-uid
  - apiVersion: v1
    kind: ConfigMap
    name: cm
    uid: cm-uid
  resourceVersion: "12345"
  uid: pod-uid-1
spec:
  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - preference:
          matchExpressions:
          - key: x
            operator: Exists
        weight: 1
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - key: zone
            operator: In
            values:
            - a
            - b
          - key: gpu
            operator: DoesNotExist
        - matchFields:
          - key: metadata.name
            operator: NotIn
            values:
            - node-9
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: kubernetes.io/hostname
  containers:
  - env:
    - name: A
      value: "1"
    image: nginx:1.25
    name: app
    resources:
      limits:
        cpu: "1"
        memory: 256Mi
      requests:
        cpu: 100m
        memory: 128Mi
    volumeMounts:
    - mountPath: /data
      name: data
  - image: busybox
    name: sidecar
    resources:
      requests:
        cpu: 0.25
  initContainers:
  - image: busybox
    name: init
    resources:
      requests:
        cpu: "2"
        ephemeral-storage: 1Gi
  - image: envoy
    name: proxy
    resources:
      requests:
        cpu: 50m
    restartPolicy: Always
  nodeName: node-1
  nodeSelector:
    disktype: ssd
    kubernetes.io/os: linux
  overhead:
    cpu: 10m
  priority: 9000
  priorityClassName: koord-prod
  schedulerName: koord-scheduler
  tolerations:
  - effect: NoExecute
    key: node.kubernetes.io/not-ready
    operator: Exists
    tolerationSeconds: 300
  - effect: NoSchedule
    key: dedicated
    operator: Equal
    value: web
  volumes:
  - name: data
    persistentVolumeClaim:
      claimName: data-web-1
  - emptyDir: {}
    name: cache
  - name: token
    projected:
      sources:
      - serviceAccountToken:
          path: token
status:
  conditions:
  - lastProbeTime: null
    lastTransitionTime: "2024-05-01T12:00:01Z"
    status: "True"
    type: PodScheduled
  - lastProbeTime: null
    lastTransitionTime: "2024-05-01T12:00:05Z"
    message: 'containers with unready status: [app]'
    reason: ContainersNotReady
    status: "False"
    type: Ready
  containerStatuses:
  - name: app
    ready: false
    restartCount: 3
    state:
      running:
        startedAt: "2024-05-01T12:00:04Z"
  hostIP: 10.0.0.1
  phase: Running
  podIP: 10.1.0.7
  qosClass: Burstable
  startTime: "2024-05-01T12:00:01Z"
)";

using Res = std::vector<std::pair<std::string_view, int64_t>>;

void check_pod(const PodDraft& p) {
    CHECK(p.meta.uid == "pod-uid-1");
    CHECK(p.meta.ns == "default");
    CHECK(p.meta.name == "web-1");
    CHECK(p.meta.creation_ms == 1714564800000);
    CHECK(p.meta.deleting);
    using KV = std::vector<KeyValueDraft>;
    CHECK(p.meta.labels == KV{{"app", "web"}, {"koordinator.sh/priority-class", "koord-prod"}});
    // last-applied-configuration is dropped.
    CHECK(p.meta.annotations ==
          KV{{"scheduling.koordinator.sh/eviction-cost", "10"}, {"descheduler.alpha.kubernetes.io/evict", ""}});
    REQUIRE(p.meta.owners.size() == 2);
    CHECK(p.meta.owners[0].api_version == "apps/v1");
    CHECK(p.meta.owners[0].kind == "ReplicaSet");
    CHECK(p.meta.owners[0].name == "web-5d8f7c");
    CHECK(p.meta.owners[0].uid == "rs-uid");
    CHECK(p.meta.owners[0].controller);
    CHECK(p.meta.owners[1].kind == "ConfigMap");
    CHECK_FALSE(p.meta.owners[1].controller);

    CHECK(view(p.bound.node_name) == "node-1");
    CHECK(p.scheduler_name == "koord-scheduler");
    CHECK(p.priority == 9000);
    CHECK(view(p.bound_spec.priority_class_name) == "koord-prod");
    CHECK(p.phase == "Running");
    CHECK(p.qos_class == "Burstable");
    REQUIRE(p.containers.size() == 2);
    CHECK(p.containers[0].requests == Res{{"cpu", 100}, {"memory", 128 * kMi}});
    CHECK(p.containers[0].limits == Res{{"cpu", 1000}, {"memory", 256 * kMi}});
    CHECK_FALSE(p.containers[0].restart_always);
    CHECK(p.containers[1].requests == Res{{"cpu", 250}});  // a JSON number
    CHECK(p.containers[1].limits.empty());
    REQUIRE(p.init_containers.size() == 2);
    CHECK(p.init_containers[0].requests == Res{{"cpu", 2000}, {"ephemeral-storage", 1024 * kMi}});
    CHECK_FALSE(p.init_containers[0].restart_always);
    CHECK(p.init_containers[1].requests == Res{{"cpu", 50}});
    CHECK(p.init_containers[1].restart_always);
    CHECK(p.overhead == Res{{"cpu", 10}});
    CHECK(p.node_selector == KV{{"disktype", "ssd"}, {"kubernetes.io/os", "linux"}});
    CHECK(p.has_required_affinity);
    REQUIRE(p.affinity_terms.size() == 2);
    REQUIRE(p.affinity_terms[0].expressions.size() == 2);
    CHECK(p.affinity_terms[0].expressions[0].key == "zone");
    CHECK(p.affinity_terms[0].expressions[0].op == "In");
    CHECK(p.affinity_terms[0].expressions[0].values == std::vector<std::string_view>{"a", "b"});
    CHECK(p.affinity_terms[0].expressions[1].key == "gpu");
    CHECK(p.affinity_terms[0].expressions[1].op == "DoesNotExist");
    CHECK(p.affinity_terms[0].expressions[1].values.empty());
    CHECK(p.affinity_terms[0].fields.empty());
    CHECK(p.affinity_terms[1].expressions.empty());
    REQUIRE(p.affinity_terms[1].fields.size() == 1);
    CHECK(p.affinity_terms[1].fields[0].key == "metadata.name");
    CHECK(p.affinity_terms[1].fields[0].op == "NotIn");
    CHECK(p.affinity_terms[1].fields[0].values == std::vector<std::string_view>{"node-9"});
    // A bound list: the draft's kd_pod_spec holds the elements, read through the SDK's view.
    kd::StructRange<kd::Toleration, kd_toleration> tolerations(p.bound_spec.tolerations, p.bound_spec.toleration_count);
    REQUIRE(tolerations.size() == 2);
    CHECK(tolerations[0].key() == "node.kubernetes.io/not-ready");
    CHECK(tolerations[0].op() == "Exists");
    CHECK(tolerations[0].value() == "");
    CHECK(tolerations[0].effect() == "NoExecute");
    CHECK(tolerations[1].key() == "dedicated");
    CHECK(tolerations[1].op() == "Equal");
    CHECK(tolerations[1].value() == "web");
    CHECK(tolerations[1].effect() == "NoSchedule");
    CHECK(p.local_storage);  // emptyDir
    CHECK(p.pvc);
    CHECK_FALSE(p.ephemeral_volume);
    REQUIRE(p.conditions.size() == 2);
    CHECK(p.conditions[0].type == "PodScheduled");
    CHECK(p.conditions[0].status == "True");
    CHECK(p.conditions[0].reason == "");
    CHECK(p.conditions[1].type == "Ready");
    CHECK(p.conditions[1].status == "False");
    CHECK(p.conditions[1].reason == "ContainersNotReady");
    CHECK(p.conditions[1].message == "containers with unready status: [app]");
    CHECK(p.conditions[0].transition_ms == 1714564801000);  // lastTransitionTime (API 1.7)
    CHECK(p.conditions[1].transition_ms == 1714564805000);
}

const char* const kNodeJson = R"({
    "apiVersion": "v1", "kind": "Node",
    "metadata": {
        "annotations": {"node.koordinator.sh/raw-allocatable": "{\"cpu\":\"8\"}"},
        "creationTimestamp": "2024-01-01T00:00:00Z",
        "labels": {"kubernetes.io/hostname": "node-1", "topology.kubernetes.io/zone": "a"},
        "name": "node-1", "uid": "node-uid-1"
    },
    "spec": {
        "podCIDR": "10.1.0.0/24",
        "taints": [{"effect": "NoSchedule", "key": "dedicated", "value": "web"},
                   {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "timeAdded": "2024-01-01T00:00:00Z"}],
        "unschedulable": true
    },
    "status": {
        "allocatable": {"cpu": "7910m", "memory": "31Gi", "pods": "110", "ephemeral-storage": "95551679124"},
        "capacity": {"cpu": "8", "memory": "32Gi", "pods": "110"},
        "conditions": [
            {"lastHeartbeatTime": "2024-05-01T12:00:00Z", "message": "ok", "reason": "KubeletHasSufficientMemory", "status": "False", "type": "MemoryPressure"},
            {"lastHeartbeatTime": "2024-05-01T12:00:00Z", "message": "kubelet is posting ready status", "reason": "KubeletReady", "status": "True", "type": "Ready"}
        ],
        "images": [{"names": ["nginx:1.25"], "sizeBytes": 70000000}],
        "nodeInfo": {"kubeletVersion": "v1.30.0"}
    }
})";

const char* const kNodeYaml = R"(apiVersion: v1
kind: Node
metadata:
  annotations:
    node.koordinator.sh/raw-allocatable: '{"cpu":"8"}'
  creationTimestamp: "2024-01-01T00:00:00Z"
  labels:
    kubernetes.io/hostname: node-1
    topology.kubernetes.io/zone: a
  name: node-1
  uid: node-uid-1
spec:
  podCIDR: 10.1.0.0/24
  taints:
  - effect: NoSchedule
    key: dedicated
    value: web
  - effect: NoExecute
    key: node.kubernetes.io/unreachable
    timeAdded: "2024-01-01T00:00:00Z"
  unschedulable: true
status:
  allocatable:
    cpu: 7910m
    ephemeral-storage: "95551679124"
    memory: 31Gi
    pods: "110"
  capacity:
    cpu: "8"
    memory: 32Gi
    pods: "110"
  conditions:
  - lastHeartbeatTime: "2024-05-01T12:00:00Z"
    message: ok
    reason: KubeletHasSufficientMemory
    status: "False"
    type: MemoryPressure
  - lastHeartbeatTime: "2024-05-01T12:00:00Z"
    message: kubelet is posting ready status
    reason: KubeletReady
    status: "True"
    type: Ready
  images:
  - names:
    - nginx:1.25
    sizeBytes: 70000000
  nodeInfo:
    kubeletVersion: v1.30.0
)";

void check_node(const NodeDraft& n, bool yaml) {
    CHECK(n.meta.name == "node-1");
    CHECK(n.meta.uid == "node-uid-1");
    CHECK(n.meta.ns == "");
    CHECK(n.meta.creation_ms == 1704067200000);
    CHECK(n.meta.labels.size() == 2);
    REQUIRE(n.meta.annotations.size() == 1);
    CHECK(n.meta.annotations[0].second == R"({"cpu":"8"})");
    CHECK(n.unschedulable);
    REQUIRE(n.taints.size() == 2);
    CHECK(n.taints[0].key == "dedicated");
    CHECK(n.taints[0].value == "web");
    CHECK(n.taints[0].effect == "NoSchedule");
    CHECK(n.taints[1].key == "node.kubernetes.io/unreachable");
    CHECK(n.taints[1].value == "");
    CHECK(n.taints[1].effect == "NoExecute");
    // YAML sorts keys; the resource list keeps the file's order.
    Res alloc =
        yaml ? Res{{"cpu", 7910}, {"ephemeral-storage", 95551679124000}, {"memory", 31 * 1024 * kMi}, {"pods", 110000}}
             : Res{{"cpu", 7910}, {"memory", 31 * 1024 * kMi}, {"pods", 110000}, {"ephemeral-storage", 95551679124000}};
    CHECK(n.allocatable == alloc);
    REQUIRE(n.ready_status);
    CHECK(*n.ready_status == "True");
}

const char* const kNodeMetricJson = R"({
    "apiVersion": "slo.koordinator.sh/v1alpha1", "kind": "NodeMetric",
    "metadata": {"name": "node-1", "uid": "nm-uid", "creationTimestamp": "2024-05-01T00:00:00Z"},
    "spec": {"metricCollectPolicy": {"aggregateDurationSeconds": 300, "reportIntervalSeconds": 60}},
    "status": {
        "nodeMetric": {
            "aggregatedNodeUsages": [{"duration": "5m0s", "usage": {"p90": {"resources": {"cpu": "3"}}}}],
            "nodeUsage": {"resources": {"cpu": "3500m", "memory": "10Gi"}},
            "systemUsage": {"resources": {"cpu": "500m", "memory": "1Gi"}}
        },
        "podsMetric": [
            {"name": "web-1", "namespace": "default", "podUsage": {"resources": {"cpu": "1200m", "memory": "300Mi"}}, "priority": "koord-prod", "qos": "LS"},
            {"namespace": "kube-system", "name": "dns", "podUsage": {"resources": {"cpu": "50m"}}}
        ],
        "prodReclaimableMetric": {"resource": {"resources": {"cpu": "1"}}},
        "updateTime": "2024-05-01T12:00:30Z"
    }
})";

void check_node_metric(const NodeMetricDraft& m) {
    CHECK(m.meta.name == "node-1");
    CHECK(m.meta.uid == "nm-uid");
    CHECK(m.update_ms == 1714564830000);
    CHECK(m.has_node_metric);
    CHECK(m.system_usage == Res{{"cpu", 500}, {"memory", 1024 * kMi}});
    REQUIRE(m.pods.size() == 2);
    CHECK(m.pods[0].ns == "default");
    CHECK(m.pods[0].name == "web-1");
    CHECK(m.pods[0].usage == Res{{"cpu", 1200}, {"memory", 300 * kMi}});
    CHECK(m.pods[1].ns == "kube-system");
    CHECK(m.pods[1].name == "dns");
    CHECK(m.pods[1].usage == Res{{"cpu", 50}});
}

}  // namespace

TEST_CASE("a Pod: metadata, spec and status fields", "[kinds]") {
    RecordingSink sink;
    auto report = load_text(kPodJson, sink);
    REQUIRE(sink.pods.size() == 1);
    check_pod(sink.pods[0]);
    CHECK(report.objects == std::map<std::string, size_t>{{"Pod", 1}});
    CHECK(report.notes.empty());
}

TEST_CASE("a Pod from YAML gives the same draft as from JSON", "[kinds][yaml]") {
    RecordingSink json, yaml;
    load_text(kPodJson, json, "pod.json");
    load_text(kPodYaml, yaml, "pod.yaml");
    REQUIRE(yaml.pods.size() == 1);
    // YAML sorts keys, so only the annotations come in another order.
    PodDraft p = yaml.pods[0];
    std::swap(p.meta.annotations[0], p.meta.annotations[1]);
    check_pod(p);
    std::string y = yaml.texts[0], j = json.texts[0];
    CHECK(j.substr(0, j.find(" annotations")) == y.substr(0, y.find(" annotations")));
    CHECK(j.substr(j.find(" owners")) == y.substr(y.find(" owners")));
}

TEST_CASE("a Pod with no optional fields gives an empty draft", "[kinds]") {
    RecordingSink sink;
    load_text(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"bare","namespace":"ns"}})", sink);
    REQUIRE(sink.pods.size() == 1);
    const PodDraft& p = sink.pods[0];
    CHECK(p.meta.name == "bare");
    CHECK(p.meta.creation_ms == 0);
    CHECK_FALSE(p.meta.deleting);
    CHECK_FALSE(p.priority);
    CHECK(p.containers.empty());
    CHECK_FALSE(p.has_required_affinity);
    CHECK_FALSE(p.local_storage);
    CHECK(p.phase == "");
}

TEST_CASE("a Pod's status.reason and container statuses, in kd_pod's order whatever order the lists come in",
          "[kinds]") {
    const char* json = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"},"status":{
  "phase":"Failed","reason":"Evicted","message":"The node was low on resource: memory.",
  "ephemeralContainerStatuses":[{"name":"debug","restartCount":0,"state":{"running":{"startedAt":"2026-11-20T10:00:00Z"}}}],
  "initContainerStatuses":[{"name":"setup","restartCount":0,"state":{"terminated":{"exitCode":0,"reason":"Completed"}}}],
  "containerStatuses":[
    {"name":"app","restartCount":7,"ready":false,"state":{"waiting":{"reason":"CrashLoopBackOff","message":"back-off"}},
     "lastState":{"terminated":{"exitCode":137,"reason":"OOMKilled"}}},
    {"name":"log","state":{"terminated":{"reason":"Error","exitCode":-1,"signal":9}},"restartCount":2},
    {"name":"new"}]}})";
    RecordingSink sink;
    load_text(json, sink);
    REQUIRE(sink.pods.size() == 1);
    const PodDraft& p = sink.pods[0];
    CHECK(view(p.bound.status_reason) == "Evicted");
    REQUIRE(p.container_statuses.size() == 5);
    struct Want {
        kd_container_kind kind;
        std::string name;
        int32_t restarts;
        kd_container_state state;
        std::string reason;
        int32_t exit_code;
    };
    const std::vector<Want> want = {
        {KD_CONTAINER_APP, "app", 7, KD_CONTAINER_STATE_WAITING, "CrashLoopBackOff", 0},  // lastState is not read
        {KD_CONTAINER_APP, "log", 2, KD_CONTAINER_STATE_TERMINATED, "Error", -1},
        {KD_CONTAINER_APP, "new", 0, KD_CONTAINER_STATE_UNKNOWN, "", 0},
        {KD_CONTAINER_INIT, "setup", 0, KD_CONTAINER_STATE_TERMINATED, "Completed", 0},
        {KD_CONTAINER_EPHEMERAL, "debug", 0, KD_CONTAINER_STATE_RUNNING, "", 0},
    };
    for (size_t i = 0; i < want.size(); ++i) {
        INFO(i);
        const auto& c = p.container_statuses[i];
        CHECK(c.kind == want[i].kind);
        CHECK(c.name == want[i].name);
        CHECK(c.restart_count == want[i].restarts);
        CHECK(c.state == want[i].state);
        CHECK(c.reason == want[i].reason);
        CHECK(c.exit_code == want[i].exit_code);
    }
    RecordingSink yaml;
    load_text(R"(apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
status:
  reason: Evicted
  initContainerStatuses:
  - {name: setup, restartCount: 0, state: {terminated: {exitCode: 0, reason: Completed}}}
  containerStatuses:
  - {name: app, restartCount: 7.0, state: {waiting: {reason: CrashLoopBackOff}}}
)",
              yaml, "pod.yaml");
    REQUIRE(yaml.pods.size() == 1);
    CHECK(yaml.texts[0].substr(yaml.texts[0].find(" reason=")) ==
          " reason=Evicted statuses=[0,app,7,1,CrashLoopBackOff,0;1,setup,0,3,Completed,0;]");
}

TEST_CASE("a Pod's status.startTime, a bound row, is read from JSON and YAML, absent is 0", "[kinds]") {
    RecordingSink sink;
    load_text(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"status":{"startTime":"2026-11-20T10:00:05Z"}}
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"b"},"status":{"startTime":null,"phase":"Pending"}})",
              sink);
    REQUIRE(sink.pods.size() == 2);
    CHECK(sink.pods[0].bound.start_time_ms == 1795168805000);
    CHECK(sink.pods[1].bound.start_time_ms == 0);
    CHECK(sink.texts[0].find(" startTime=1795168805000") != std::string::npos);

    RecordingSink yaml;
    load_text(R"(apiVersion: v1
kind: Pod
metadata: {name: a}
status: {startTime: "2026-11-20T10:00:05Z", reason: Evicted}
)",
              yaml, "pod.yaml");
    REQUIRE(yaml.texts.size() == 1);
    CHECK(yaml.texts[0] ==
          sink.texts[0].substr(0, sink.texts[0].find(" startTime=")) + " reason=Evicted startTime=1795168805000");
}

TEST_CASE("pod volumes: hostPath and emptyDir are local storage, PVC and ephemeral are flagged", "[kinds]") {
    RecordingSink sink;
    load_text(
        R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"},"spec":{"volumes":[{"name":"h","hostPath":{"path":"/"}}]}}
{"kind":"Pod","apiVersion":"v1","metadata":{"name":"b"},"spec":{"volumes":[{"name":"e","ephemeral":{"volumeClaimTemplate":{}}}]}}
{"kind":"Pod","apiVersion":"v1","metadata":{"name":"c"},"spec":{"volumes":[{"name":"n","hostPath":null,"configMap":{"name":"x"}}]}})",
        sink);
    REQUIRE(sink.pods.size() == 3);
    CHECK(sink.pods[0].local_storage);
    CHECK_FALSE(sink.pods[0].ephemeral_volume);
    CHECK(sink.pods[1].ephemeral_volume);
    CHECK_FALSE(sink.pods[1].local_storage);
    CHECK_FALSE(sink.pods[2].local_storage);  // null is absent
}

TEST_CASE("numbers are read exactly, a zero with any exponent as zero", "[kinds]") {
    // RapidJSON 1.1's full-precision mode read 0e300 as 1.45e281 (found by fuzzing).
    RecordingSink sink;
    load_text(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[
                   {"name":"a","resources":{"requests":{"cpu":0e300,"memory":0.0e-40}}},
                   {"name":"b","resources":{"requests":{"cpu":2.5e-1,"memory":1.5e9}}}]}})",
              sink);
    REQUIRE(sink.pods.size() == 1);
    REQUIRE(sink.pods[0].containers.size() == 2);
    CHECK(sink.pods[0].containers[0].requests == Res{{"cpu", 0}, {"memory", 0}});
    CHECK(sink.pods[0].containers[1].requests == Res{{"cpu", 250}, {"memory", 1'500'000'000'000}});
}

TEST_CASE("annotations longer than 4096 bytes are dropped", "[kinds]") {
    RecordingSink sink;
    std::string big(4097, 'x'), fits(4096, 'y');
    load_text(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","annotations":{"big":")" + big +
                  R"(","fits":")" + fits + R"("}}})",
              sink);
    REQUIRE(sink.pods.size() == 1);
    REQUIRE(sink.pods[0].meta.annotations.size() == 1);
    CHECK(sink.pods[0].meta.annotations[0].first == "fits");
}

TEST_CASE("a Node: taints, allocatable, Ready condition", "[kinds]") {
    RecordingSink json, yaml;
    load_text(kNodeJson, json, "node.json");
    load_text(kNodeYaml, yaml, "node.yaml");
    REQUIRE(json.nodes.size() == 1);
    REQUIRE(yaml.nodes.size() == 1);
    check_node(json.nodes[0], false);
    check_node(yaml.nodes[0], true);
}

TEST_CASE("a Node condition's status may come before its type, no Ready condition leaves it unset", "[kinds]") {
    RecordingSink sink;
    load_text(
        R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"a"},"status":{"conditions":[{"status":"Unknown","type":"Ready"}]}}
{"apiVersion":"v1","kind":"Node","metadata":{"name":"b"},"status":{"conditions":[{"type":"DiskPressure","status":"False"}]}})",
        sink);
    REQUIRE(sink.nodes.size() == 2);
    CHECK(sink.nodes[0].ready_status == std::optional<std::string_view>("Unknown"));
    CHECK_FALSE(sink.nodes[1].ready_status);
    CHECK_FALSE(sink.nodes[1].unschedulable);
}

TEST_CASE("a NodeMetric: update time, system usage, pod usages", "[kinds]") {
    RecordingSink sink;
    load_text(kNodeMetricJson, sink);
    REQUIRE(sink.metrics.size() == 1);
    check_node_metric(sink.metrics[0]);
}

TEST_CASE("a NodeMetric without status.nodeMetric, or of another group, is told apart", "[kinds]") {
    RecordingSink sink;
    auto report = load_text(
        R"({"apiVersion":"slo.koordinator.sh/v1alpha1","kind":"NodeMetric","metadata":{"name":"n"},"status":{"nodeMetric":null}}
{"apiVersion":"metrics.example.com/v1","kind":"NodeMetric","metadata":{"name":"m"},"status":{"nodeMetric":{}}}
{"apiVersion":"metrics.example.com/v1","kind":"NodeMetric","metadata":{"name":"o"}})",
        sink);
    REQUIRE(sink.metrics.size() == 1);
    CHECK_FALSE(sink.metrics[0].has_node_metric);
    CHECK(sink.metrics[0].update_ms == 0);
    CHECK(report.notes ==
          std::vector<std::string>{"cluster.json: skipped 2 objects of kind NodeMetric with apiVersion "
                                   "metrics.example.com/v1 (kdesched reads slo.koordinator.sh/v1alpha1)"});
}

TEST_CASE("workloads: replicas, selector and ready count per kind", "[kinds]") {
    RecordingSink sink;
    load_text(R"({"apiVersion":"v1","kind":"List","items":[
 {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default","uid":"d1"},
  "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"In","values":["a","b"]}]},"template":{"metadata":{"labels":{"app":"web"}}}},
  "status":{"readyReplicas":2,"replicas":3}},
 {"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"web-5d","namespace":"default","ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"web","uid":"d1","controller":true}]},
  "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web","pod-template-hash":"5d"}}},"status":{"readyReplicas":3}},
 {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db","namespace":"default"},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"db"}}},"status":{}},
 {"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"old","namespace":"default"},"spec":{"replicas":2,"selector":{"app":"old"}},"status":{"readyReplicas":1}},
 {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"batch","namespace":"default"},"spec":{"parallelism":4,"completions":8,"selector":{"matchLabels":{"batch.kubernetes.io/controller-uid":"j1"}}},"status":{"active":4,"ready":3}},
 {"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"agent","namespace":"kube-system"},"spec":{"selector":{"matchLabels":{"app":"agent"}}},"status":{"desiredNumberScheduled":5,"numberReady":4}}
]})",
              sink);
    REQUIRE(sink.workloads.size() == 6);
    CHECK(sink.texts[0] ==
          "Deployment default/web uid=d1 created=0 deleting=0 labels={} annotations={} owners=[] replicas=3 ready=2 "
          "selector={app=web,tier In (a,b,),}");
    CHECK(sink.workloads[1].kind == "ReplicaSet");
    CHECK(sink.workloads[1].replicas == 3);
    CHECK(sink.workloads[1].ready_replicas == 3);
    CHECK(sink.workloads[1].meta.owners.size() == 1);
    CHECK(sink.workloads[1].selector->matchLabels.size() == 2);
    CHECK(sink.workloads[2].kind == "StatefulSet");
    CHECK(sink.workloads[2].replicas == 1);
    CHECK(sink.workloads[2].ready_replicas == 0);
    CHECK(sink.workloads[3].kind == "ReplicationController");
    CHECK(sink.workloads[3].selector->matchLabels == std::map<std::string, std::string>{{"app", "old"}});
    CHECK(sink.workloads[3].ready_replicas == 1);
    CHECK(sink.workloads[4].kind == "Job");
    CHECK(sink.workloads[4].replicas == 4);  // parallelism
    CHECK(sink.workloads[4].ready_replicas == 3);
    CHECK(sink.workloads[5].kind == "DaemonSet");
    CHECK(sink.workloads[5].replicas == 5);  // status.desiredNumberScheduled
    CHECK(sink.workloads[5].ready_replicas == 4);
}

TEST_CASE("a workload without a selector has none, an empty selector is present", "[kinds]") {
    RecordingSink sink;
    load_text(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"},"spec":{}}
{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"b"},"spec":{"selector":{}}})",
              sink);
    REQUIRE(sink.workloads.size() == 2);
    CHECK_FALSE(sink.workloads[0].selector);
    CHECK_FALSE(sink.workloads[0].replicas);
    REQUIRE(sink.workloads[1].selector);
    CHECK(sink.workloads[1].selector->empty());
}

TEST_CASE("a PodDisruptionBudget: selector, minAvailable/maxUnavailable as int or string", "[kinds]") {
    RecordingSink sink;
    load_text(R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"web","namespace":"default"},
 "spec":{"minAvailable":2,"selector":{"matchLabels":{"app":"web"}}},"status":{"currentHealthy":3,"disruptionsAllowed":1}}
{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"db","namespace":"default"},
 "spec":{"maxUnavailable":"25%","selector":{"matchExpressions":[{"key":"app","operator":"Exists"}]}},"status":{"disruptionsAllowed":0}})",
              sink);
    REQUIRE(sink.pdbs.size() == 2);
    const auto& a = sink.pdbs[0];
    CHECK(a.meta.name == "web");
    REQUIRE(a.min_available);
    CHECK_FALSE(a.min_available->is_string);
    CHECK(a.min_available->int_value == 2);
    CHECK_FALSE(a.max_unavailable);
    CHECK(a.disruptions_allowed == 1);
    CHECK(a.selector->matchLabels.at("app") == "web");
    const auto& b = sink.pdbs[1];
    REQUIRE(b.max_unavailable);
    CHECK(b.max_unavailable->is_string);
    CHECK(b.max_unavailable->str_value == "25%");
    REQUIRE(b.selector->matchExpressions.size() == 1);
    CHECK(b.selector->matchExpressions[0].operator_ == "Exists");
    CHECK(b.disruptions_allowed == 0);
}

TEST_CASE("Namespace and Secret", "[kinds]") {
    RecordingSink sink;
    load_text(
        R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"prod","uid":"ns1","labels":{"team":"a"}},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}
{"apiVersion":"v1","data":{"token":"c2VjcmV0","ca.crt":"Y2E="},"kind":"Secret","metadata":{"name":"s","namespace":"prod"},"type":"Opaque"})",
        sink);
    REQUIRE(sink.namespaces.size() == 1);
    CHECK(sink.texts[0] == "Namespace prod uid=ns1 created=0 deleting=0 labels={team=a} annotations={} owners=[]");
    REQUIRE(sink.secrets.size() == 1);  // data before kind: recorded and replayed
    CHECK(sink.texts[1] ==
          "Secret prod/s uid= created=0 deleting=0 labels={} annotations={} owners=[] "
          "data={token=c2VjcmV0,ca.crt=Y2E=}");
}

TEST_CASE("every kind from YAML gives the same objects as from JSON", "[kinds][yaml]") {
    RecordingSink json, yaml;
    load_cluster_files({KD_DECODE_DATA_DIR "/cluster.json"}, json);
    load_cluster_files({KD_DECODE_DATA_DIR "/cluster.yaml"}, yaml);
    REQUIRE(json.texts.size() >= 10);
    CHECK(yaml.texts == json.texts);
}
