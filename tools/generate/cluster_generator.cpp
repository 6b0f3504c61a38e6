// The synthetic cluster: nodes with NodeMetrics (a tunable share of them hot), Deployments with
// ReplicaSets, StatefulSets and Jobs owning the pods, a DaemonSet pod per node, mixed priorities
// and QoS, pods shaped like real ones (~2 KB of JSON each; ~6 KB with the managedFields a server
// adds). Deterministic for a given seed.
#include "generate/cluster_generator.hpp"

#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace kd::tools {

namespace {

using Writer = rapidjson::Writer<rapidjson::OStreamWrapper>;
using Options = GeneratorOptions;

constexpr std::string_view kProjectedSources =
    R"([{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"name":"kube-root-ca.crt",)"
    R"("items":[{"key":"ca.crt","path":"ca.crt"}]}},{"downwardAPI":{"items":[{"path":"namespace","fieldRef":)"
    R"({"apiVersion":"v1","fieldPath":"metadata.namespace"}}]}}])";
constexpr std::string_view kContainerStatuses =
    R"([{"name":"main","state":{"running":{"startedAt":"2026-03-01T08:00:08Z"}},"lastState":{},"ready":true,)"
    R"("restartCount":0,"image":"registry.example.com/app:1.4.2","imageID":"registry.example.com/app@sha256:)"
    R"(4f5e8d2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a3928170","containerID":"containerd://)"
    R"(9b8a7f6e5d4c3b2a19080f1e2d3c4b5a69788f7e6d5c4b3a291807f6e5d4c3b2","started":true,"volumeMounts":)"
    R"([{"name":"kube-api-access","mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","readOnly":true,)"
    R"("recursiveReadOnly":"Disabled"}],"resources":{}}])";

// A pod's managedFields as kube-apiserver v1.32 keeps them: the ReplicaSet controller's create and
// the kubelet's status updates (field sets of a one-container pod like the generator's).
constexpr std::string_view kPodManagedFields = R"([
{"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1","time":"2026-03-01T08:00:00Z",
"fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{".":{},"f:kubernetes.io/psp":{},
"f:prometheus.io/scrape":{}},"f:generateName":{},"f:labels":{".":{},"f:app":{},"f:pod-template-hash":{},
"f:koordinator.sh/priority-class":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"0b6f2a52-3c1d-4e6f-9a7b-8c9d0e1f2a3b\"}":{}}},
"f:spec":{"f:containers":{"k:{\"name\":\"main\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},
"f:ports":{".":{},"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},
"f:resources":{".":{},"f:limits":{".":{},"f:cpu":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}},
"f:terminationMessagePath":{},"f:terminationMessagePolicy":{},"f:volumeMounts":{".":{},
"k:{\"mountPath\":\"/var/run/secrets/kubernetes.io/serviceaccount\"}":{".":{},"f:mountPath":{},"f:name":{},
"f:readOnly":{}}}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:priority":{},"f:priorityClassName":{},
"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:serviceAccount":{},"f:serviceAccountName":{},
"f:terminationGracePeriodSeconds":{},"f:tolerations":{},"f:topologySpreadConstraints":{".":{},
"k:{\"topologyKey\":\"topology.kubernetes.io/zone\",\"whenUnsatisfiable\":\"ScheduleAnyway\"}":{".":{},
"f:labelSelector":{},"f:maxSkew":{},"f:topologyKey":{},"f:whenUnsatisfiable":{}}},"f:volumes":{".":{},
"k:{\"name\":\"kube-api-access\"}":{".":{},"f:name":{},"f:projected":{".":{},"f:defaultMode":{},"f:sources":{}}}}}}},
{"manager":"kube-scheduler","operation":"Update","apiVersion":"v1","time":"2026-03-01T08:00:01Z",
"fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{".":{},"k:{\"type\":\"PodScheduled\"}":{".":{},
"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}}}},"subresource":"status"},
{"manager":"kubelet","operation":"Update","apiVersion":"v1","time":"2026-03-01T08:00:09Z","fieldsType":"FieldsV1",
"fieldsV1":{"f:status":{"f:conditions":{"k:{\"type\":\"ContainersReady\"}":{".":{},"f:lastProbeTime":{},
"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Initialized\"}":{".":{},"f:lastProbeTime":{},
"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"PodReadyToStartContainers\"}":{".":{},
"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Ready\"}":{".":{},
"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:containerStatuses":{},
"f:hostIP":{},"f:hostIPs":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"10.0.12.34\"}":{".":{},
"f:ip":{}}},"f:startTime":{}}},"subresource":"status"}])";

struct Owner {
    std::string kind, api, name, uid, ns, app;
    int replicas = 0;
    std::string priority_class;  // koordinator priority class label
    int priority = 0;
    std::string qos;  // Guaranteed | Burstable | BestEffort
    int cpu_milli = 0, mem_mi = 0;
    int deployment = -1;  // a ReplicaSet's Deployment: its index in deployments_
};

class Gen {
public:
    Gen(Writer& w, const Options& o) : w_(w), o_(o), rng_(o.seed) {}

    void run() {
        w_.StartObject();
        kv("apiVersion", "v1");
        kv("kind", "List");
        w_.Key("items");
        w_.StartArray();
        std::vector<std::string> nodes;
        for (uint64_t i = 0; i < o_.nodes; ++i) nodes.push_back("node-" + std::to_string(i));
        for (auto& n : nodes) node(n);
        auto owners = make_owners();
        for (auto& ow : owners) workload(ow);
        // Pods: round-robin over owners, nodes chosen at random; hot nodes get heavier usage.
        usage_.assign(nodes.size(), {});
        uint64_t ds_pods = o_.nodes;  // one DaemonSet pod per node
        uint64_t count = o_.pods > ds_pods ? o_.pods - ds_pods : 0;
        std::vector<int> seq(owners.size(), 0);
        for (uint64_t i = 0; i < count; ++i) {
            size_t oi = i % owners.size();
            size_t ni = rng_() % nodes.size();
            pod(owners[oi], seq[oi]++, nodes[ni], ni);
        }
        Owner ds{"DaemonSet", "apps/v1", "node-agent", uid("ds"),   "kube-system", "node-agent",
                 0,           "",        2000001000,   "Burstable", 100,           128};
        workload(ds);
        for (size_t ni = 0; ni < nodes.size(); ++ni) pod(ds, static_cast<int>(ni), nodes[ni], ni);
        for (size_t ni = 0; ni < nodes.size(); ++ni) node_metric(nodes[ni], ni);
        w_.EndArray();
        w_.EndObject();
    }

private:
    struct PodUsage {
        std::string ns, name;
        int cpu_milli;
        int64_t mem_mi;
    };

    void kv(const char* k, const std::string& v) {
        w_.Key(k);
        w_.String(v.c_str(), static_cast<rapidjson::SizeType>(v.size()));
    }
    std::string uid(const std::string& seed) {
        uint64_t a = std::hash<std::string>()(seed + std::to_string(o_.seed)), b = a * 0x9E3779B97F4A7C15ULL;
        char buf[40];
        std::snprintf(buf, sizeof buf, "%08x-%04x-%04x-%04x-%012llx", uint32_t(a >> 32), uint32_t(a >> 16) & 0xffff,
                      uint32_t(a) & 0xffff, uint32_t(b >> 48), (unsigned long long)(b & 0xffffffffffffULL));
        return buf;
    }
    bool hot(size_t node_index) const {
        return static_cast<double>(node_index % 1000) < o_.hot_share * 1000.0 && o_.hot_share > 0;
    }

    void metadata(const std::string& name, const std::string& ns, const std::string& id) {
        w_.Key("metadata");
        w_.StartObject();
        kv("name", name);
        if (!ns.empty()) kv("namespace", ns);
        kv("uid", id);
        kv("resourceVersion", std::to_string(1000 + rng_() % 100000));
        kv("creationTimestamp", "2026-03-01T08:00:00Z");
    }

    void node(const std::string& n) {
        w_.StartObject();
        kv("apiVersion", "v1");
        kv("kind", "Node");
        metadata(n, "", uid(n));
        w_.Key("labels");
        w_.StartObject();
        kv("kubernetes.io/hostname", n);
        kv("kubernetes.io/os", "linux");
        kv("node.kubernetes.io/instance-type", "m6.4xlarge");
        kv("topology.kubernetes.io/zone", "zone-" + std::to_string(rng_() % 3));
        w_.EndObject();
        w_.EndObject();
        w_.Key("spec");
        w_.StartObject();
        kv("podCIDR", "10.0.0.0/24");
        w_.EndObject();
        w_.Key("status");
        w_.StartObject();
        for (const char* k : {"allocatable", "capacity"}) {
            w_.Key(k);
            w_.StartObject();
            kv("cpu", "32");
            kv("memory", "128Gi");
            kv("pods", "110");
            kv("ephemeral-storage", "200Gi");
            w_.EndObject();
        }
        w_.Key("conditions");
        w_.StartArray();
        for (const char* t : {"MemoryPressure", "DiskPressure", "PIDPressure", "Ready"}) {
            w_.StartObject();
            kv("type", t);
            kv("status", std::string(t) == "Ready" ? "True" : "False");
            kv("lastHeartbeatTime", "2026-03-01T09:00:00Z");
            kv("reason", std::string(t) == "Ready" ? "KubeletReady" : "KubeletHasSufficient");
            w_.EndObject();
        }
        w_.EndArray();
        w_.EndObject();
        w_.EndObject();
    }

    std::vector<Owner> make_owners() {
        std::vector<Owner> owners;
        size_t n = std::max<uint64_t>(1, o_.pods / 8);
        static const char* classes[] = {"koord-prod", "koord-mid", "koord-batch", "koord-free", ""};
        static const int priorities[] = {9500, 7500, 5500, 3500, 0};
        static const char* qos[] = {"Guaranteed", "Burstable", "BestEffort"};
        for (size_t i = 0; i < n; ++i) {
            Owner ow;
            int kind = rng_() % 10;
            ow.ns = "team-" + std::to_string(i % 40);
            ow.app = "app-" + std::to_string(i);
            int c = rng_() % 5;
            ow.priority_class = classes[c];
            ow.priority = priorities[c];
            ow.qos = qos[c == 2 || c == 3 ? 2 : rng_() % 2];
            ow.cpu_milli = 100 * (1 + rng_() % 20);
            ow.mem_mi = 256 * (1 + rng_() % 16);
            if (kind < 7) {
                Owner dep = ow;
                dep.kind = "Deployment";
                dep.api = "apps/v1";
                dep.name = ow.app;
                dep.uid = uid("dep" + ow.app);
                deployments_.push_back(dep);
                ow.deployment = static_cast<int>(deployments_.size()) - 1;
                ow.kind = "ReplicaSet";
                ow.api = "apps/v1";
                ow.name = ow.app + "-5d8f7c9b6";
                ow.uid = uid("rs" + ow.app);
            } else if (kind < 9) {
                ow.kind = "StatefulSet";
                ow.api = "apps/v1";
                ow.name = ow.app;
                ow.uid = uid("sts" + ow.app);
            } else {
                ow.kind = "Job";
                ow.api = "batch/v1";
                ow.name = ow.app;
                ow.uid = uid("job" + ow.app);
            }
            ow.replicas = 8;
            owners.push_back(ow);
        }
        return owners;
    }

    // A ReplicaSet comes after its Deployment.
    void workload(const Owner& ow) {
        const Owner* parent = ow.deployment >= 0 ? &deployments_[static_cast<size_t>(ow.deployment)] : nullptr;
        if (parent) write_workload(*parent, nullptr);
        write_workload(ow, parent);
    }
    void write_workload(const Owner& ow, const Owner* parent) {
        w_.StartObject();
        kv("apiVersion", ow.api);
        kv("kind", ow.kind);
        metadata(ow.name, ow.ns, ow.uid);
        w_.Key("labels");
        w_.StartObject();
        kv("app", ow.app);
        w_.EndObject();
        if (parent) owner_refs(*parent);
        w_.EndObject();
        w_.Key("spec");
        w_.StartObject();
        w_.Key(ow.kind == "Job" ? "parallelism" : "replicas");
        w_.Int(ow.replicas);
        w_.Key("selector");
        w_.StartObject();
        w_.Key("matchLabels");
        w_.StartObject();
        kv("app", ow.app);
        w_.EndObject();
        w_.EndObject();
        w_.EndObject();
        w_.Key("status");
        w_.StartObject();
        w_.Key(ow.kind == "Job" ? "ready" : "readyReplicas");
        w_.Int(ow.replicas);
        w_.EndObject();
        w_.EndObject();
    }
    void owner_refs(const Owner& ow) {
        w_.Key("ownerReferences");
        w_.StartArray();
        w_.StartObject();
        kv("apiVersion", ow.api);
        kv("kind", ow.kind);
        kv("name", ow.name);
        kv("uid", ow.uid);
        w_.Key("controller");
        w_.Bool(true);
        w_.Key("blockOwnerDeletion");
        w_.Bool(true);
        w_.EndObject();
        w_.EndArray();
    }

    void pod(const Owner& ow, int index, const std::string& node, size_t node_index) {
        std::string name = ow.kind == "StatefulSet" || ow.kind == "DaemonSet"
                               ? ow.name + "-" + std::to_string(index)
                               : ow.name + "-" + uid(ow.name + std::to_string(index)).substr(0, 5);
        w_.StartObject();
        kv("apiVersion", "v1");
        kv("kind", "Pod");
        metadata(name, ow.ns, uid(ow.ns + "/" + name));
        w_.Key("labels");
        w_.StartObject();
        kv("app", ow.app);
        kv("pod-template-hash", "5d8f7c9b6");
        if (!ow.priority_class.empty()) kv("koordinator.sh/priority-class", ow.priority_class);
        w_.EndObject();
        w_.Key("annotations");
        w_.StartObject();
        kv("kubernetes.io/psp", "restricted");
        kv("prometheus.io/scrape", "true");
        w_.EndObject();
        owner_refs(ow);
        if (o_.managed_fields) {
            w_.Key("managedFields");
            w_.RawValue(kPodManagedFields.data(), kPodManagedFields.size(), rapidjson::kArrayType);
        }
        w_.EndObject();
        w_.Key("spec");
        w_.StartObject();
        kv("nodeName", node);
        kv("schedulerName", ow.priority_class.empty() ? "default-scheduler" : "koord-scheduler");
        if (ow.priority) {
            w_.Key("priority");
            w_.Int(ow.priority);
        }
        kv("restartPolicy", "Always");
        kv("serviceAccountName", "default");
        w_.Key("containers");
        w_.StartArray();
        w_.StartObject();
        kv("name", "main");
        kv("image", "registry.example.com/" + ow.app + ":1.4.2");
        w_.Key("ports");
        w_.StartArray();
        w_.StartObject();
        w_.Key("containerPort");
        w_.Int(8080);
        kv("protocol", "TCP");
        w_.EndObject();
        w_.EndArray();
        w_.Key("resources");
        w_.StartObject();
        if (ow.qos != "BestEffort") {
            std::string cpu = std::to_string(ow.cpu_milli) + "m", mem = std::to_string(ow.mem_mi) + "Mi";
            w_.Key("requests");
            w_.StartObject();
            kv("cpu", cpu);
            kv("memory", mem);
            w_.EndObject();
            w_.Key("limits");
            w_.StartObject();
            kv("cpu", ow.qos == "Guaranteed" ? cpu : std::to_string(ow.cpu_milli * 2) + "m");
            kv("memory", mem);
            w_.EndObject();
        }
        w_.EndObject();
        w_.Key("volumeMounts");
        w_.StartArray();
        w_.StartObject();
        kv("name", "kube-api-access");
        kv("mountPath", "/var/run/secrets/kubernetes.io/serviceaccount");
        w_.Key("readOnly");
        w_.Bool(true);
        w_.EndObject();
        w_.EndArray();
        w_.EndObject();
        w_.EndArray();
        w_.Key("tolerations");
        w_.StartArray();
        for (const char* k : {"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"}) {
            w_.StartObject();
            kv("key", k);
            kv("operator", "Exists");
            kv("effect", "NoExecute");
            w_.Key("tolerationSeconds");
            w_.Int(300);
            w_.EndObject();
        }
        w_.EndArray();
        if (o_.descheduler_fields) descheduler_spec(ow);
        w_.Key("volumes");
        w_.StartArray();
        w_.StartObject();
        kv("name", "kube-api-access");
        w_.Key("projected");
        w_.StartObject();
        w_.Key("defaultMode");
        w_.Int(420);
        if (o_.managed_fields) {  // what the ServiceAccount admission adds, as a server returns it
            w_.Key("sources");
            w_.RawValue(kProjectedSources.data(), kProjectedSources.size(), rapidjson::kArrayType);
        }
        w_.EndObject();
        w_.EndObject();
        w_.EndArray();
        w_.EndObject();
        w_.Key("status");
        w_.StartObject();
        if (o_.managed_fields) {  // the kubelet's report, as a server returns it
            w_.Key("containerStatuses");
            w_.RawValue(kContainerStatuses.data(), kContainerStatuses.size(), rapidjson::kArrayType);
        }
        const bool failed = o_.descheduler_fields && rng_() % 200 == 0;
        if (o_.descheduler_fields && !o_.managed_fields) container_status(failed);
        kv("phase", failed ? "Failed" : "Running");
        if (failed) kv("reason", "Evicted");
        kv("qosClass", ow.qos);
        kv("podIP", "10.0." + std::to_string(node_index % 250) + "." + std::to_string(index % 250));
        kv("startTime", "2026-03-01T08:00:05Z");
        w_.Key("conditions");
        w_.StartArray();
        for (const char* t : {"Initialized", "Ready", "ContainersReady", "PodScheduled"}) {
            w_.StartObject();
            kv("type", t);
            kv("status", "True");
            kv("lastTransitionTime", "2026-03-01T08:00:05Z");
            w_.EndObject();
        }
        w_.EndArray();
        w_.EndObject();
        w_.EndObject();
        // Hot nodes' pods use more than they request; the rest idle along.
        int cpu = ow.qos == "BestEffort" ? 200 : ow.cpu_milli;
        int use = hot(node_index) ? cpu * (12 + int(rng_() % 6)) / 10 : cpu * (2 + int(rng_() % 4)) / 10;
        usage_[node_index].push_back({ow.ns, name, use, int64_t(ow.mem_mi) * (4 + int64_t(rng_() % 5)) / 10});
    }

    // Which of the sigs plugins' fields a workload's pods carry: by its app name, so every pod of
    // one workload has the same spec.
    int workload_shape(const Owner& ow) const {
        uint64_t h = 1469598103934665603ULL;
        for (char c : ow.app) h = (h ^ uint8_t(c)) * 1099511628211ULL;
        return int(h % 4);
    }
    void app_selector(const Owner& ow) {
        w_.Key("labelSelector");
        w_.StartObject();
        w_.Key("matchLabels");
        w_.StartObject();
        kv("app", ow.app);
        w_.EndObject();
        w_.EndObject();
    }
    void descheduler_spec(const Owner& ow) {
        const int shape = workload_shape(ow);
        if (shape == 0) {
            w_.Key("topologySpreadConstraints");
            w_.StartArray();
            w_.StartObject();
            w_.Key("maxSkew");
            w_.Int(1);
            kv("topologyKey", "topology.kubernetes.io/zone");
            kv("whenUnsatisfiable", "ScheduleAnyway");
            app_selector(ow);
            w_.EndObject();
            w_.EndArray();
        } else if (shape == 1) {
            w_.Key("affinity");
            w_.StartObject();
            w_.Key("podAntiAffinity");
            w_.StartObject();
            w_.Key("requiredDuringSchedulingIgnoredDuringExecution");
            w_.StartArray();
            w_.StartObject();
            app_selector(ow);
            kv("topologyKey", "kubernetes.io/hostname");
            w_.EndObject();
            w_.EndArray();
            w_.EndObject();
            w_.EndObject();
        }
    }
    void container_status(bool failed) {
        w_.Key("containerStatuses");
        w_.StartArray();
        w_.StartObject();
        kv("name", "main");
        w_.Key("restartCount");
        w_.Int(rng_() % 10 == 0 ? 1 + int(rng_() % 19) : 0);
        w_.Key("state");
        w_.StartObject();
        w_.Key(failed ? "terminated" : "running");
        w_.StartObject();
        if (failed) {
            w_.Key("exitCode");
            w_.Int(137);
            kv("reason", "OOMKilled");
        } else {
            kv("startedAt", "2026-03-01T08:00:05Z");
        }
        w_.EndObject();
        w_.EndObject();
        w_.EndObject();
        w_.EndArray();
    }

    void node_metric(const std::string& n, size_t ni) {
        w_.StartObject();
        kv("apiVersion", "slo.koordinator.sh/v1alpha1");
        kv("kind", "NodeMetric");
        metadata(n, "", uid("nm" + n));
        w_.EndObject();
        w_.Key("status");
        w_.StartObject();
        kv("updateTime", o_.metric_time.empty() ? std::string("2026-03-01T09:00:00Z") : o_.metric_time);
        w_.Key("nodeMetric");
        w_.StartObject();
        w_.Key("systemUsage");
        w_.StartObject();
        w_.Key("resources");
        w_.StartObject();
        kv("cpu", "800m");
        kv("memory", "3Gi");
        w_.EndObject();
        w_.EndObject();
        w_.EndObject();
        w_.Key("podsMetric");
        w_.StartArray();
        for (const auto& u : usage_[ni]) {
            w_.StartObject();
            kv("namespace", u.ns);
            kv("name", u.name);
            w_.Key("podUsage");
            w_.StartObject();
            w_.Key("resources");
            w_.StartObject();
            kv("cpu", std::to_string(u.cpu_milli) + "m");
            kv("memory", std::to_string(u.mem_mi) + "Mi");
            w_.EndObject();
            w_.EndObject();
            w_.EndObject();
        }
        w_.EndArray();
        w_.EndObject();
        w_.EndObject();
    }

    Writer& w_;
    const Options& o_;
    std::mt19937_64 rng_;
    std::vector<Owner> deployments_;
    std::vector<std::vector<PodUsage>> usage_;
};

}  // namespace

void generate_cluster(std::ostream& out, const GeneratorOptions& options) {
    rapidjson::OStreamWrapper os(out);
    Writer w(os);
    Gen(w, options).run();
    out << "\n";
}

}  // namespace kd::tools
