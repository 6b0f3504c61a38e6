#include "scenario.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <vector>

namespace kd::safety {
namespace {

constexpr const char* kCreated = "2026-03-01T08:00:00Z";
constexpr const char* kMetricTime = "2026-03-01T09:00:00Z";

// Draws from one seeded engine; every choice of the scenario goes through it, in a fixed order.
class Dice {
public:
    explicit Dice(uint64_t seed) : engine_(seed) {}
    int between(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(engine_); }
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(engine_) < p; }
    template <class T>
    const T& pick(const std::vector<T>& v) {
        return v[size_t(between(0, int(v.size()) - 1))];
    }

private:
    std::mt19937_64 engine_;
};

// The profile's choices that decide which pods are protected.
struct EvictorArgs {
    bool migration_controller = false;
    bool evict_local_storage = false, ignore_pvc = false;
    bool lnl_excludes_kube_system = false, evictor_excludes_kube_system = false;
};

// A pod's traits, shared by a workload's pods.
struct Traits {
    std::string ns, scheduler = "koord-scheduler";
    bool local_storage = false, pvc = false, critical = false, never_evict_cost = false;
};

std::string protection(const Traits& t, const EvictorArgs& a) {
    if (t.critical) return "system-critical";
    if (t.local_storage && !a.evict_local_storage) return "local-storage";
    if (t.pvc && a.ignore_pvc) return "pvc";
    if (t.never_evict_cost && a.migration_controller) return "eviction-cost";
    if (t.ns == "kube-system" && (a.lnl_excludes_kube_system || a.evictor_excludes_kube_system))
        return "excluded-namespace";
    return "";
}

std::string budget_text(const Budget& b) {
    return b.percent ? fmt::format("\"{}%\"", b.value) : std::to_string(b.value);
}

std::optional<Budget> random_budget(Dice& d) {
    switch (d.between(0, 4)) {
        case 0:
            return std::nullopt;
        case 1:
            return Budget{false, 1};
        case 2:
            return Budget{false, d.between(2, 3)};
        case 3:
            return Budget{true, d.pick(std::vector<int>{20, 25, 50})};
        default:
            return Budget{true, d.pick(std::vector<int>{0, 75})};
    }
}

struct Node {
    std::string name;
    int64_t cpu_milli, memory_mi, free_cpu, free_memory;
    double heat;  // usage over requests of its pods
    bool hot;
    std::vector<std::string> pod_metrics;  // podsMetric entries
};

class ClusterWriter {
public:
    explicit ClusterWriter(Dice& dice) : dice_(dice) {}

    void add_node(Node n, bool unschedulable, const std::string& pool) {
        items_.push_back(fmt::format(
            R"({{"apiVersion":"v1","kind":"Node","metadata":{{"name":"{0}","uid":"uid-node-{0}","creationTimestamp":"{1}",)"
            R"("labels":{{"kubernetes.io/hostname":"{0}","pool":"{2}"}}}},"spec":{{{3}}},)"
            R"("status":{{"allocatable":{{"cpu":"{4}m","memory":"{5}Mi","pods":"110"}},)"
            R"("capacity":{{"cpu":"{4}m","memory":"{5}Mi","pods":"110"}},)"
            R"("conditions":[{{"type":"Ready","status":"True"}}]}}}})",
            n.name, kCreated, pool, unschedulable ? R"("unschedulable":true)" : "", n.cpu_milli, n.memory_mi));
        nodes_.push_back(std::move(n));
    }

    void add_workload(const std::string& kind, const std::string& ns, const std::string& name, int replicas,
                      const std::string& owner_json = "") {
        items_.push_back(fmt::format(
            R"({{"apiVersion":"apps/v1","kind":"{0}","metadata":{{"name":"{1}","namespace":"{2}","uid":"uid-{0}-{2}-{1}",)"
            R"("creationTimestamp":"{3}","labels":{{"app":"{1}"}}{4}}},"spec":{{"replicas":{5},)"
            R"("selector":{{"matchLabels":{{"app":"{1}"}}}}}},"status":{{"replicas":{5},"readyReplicas":{5}}}}})",
            kind, name, ns, kCreated, owner_json.empty() ? "" : ",\"ownerReferences\":[" + owner_json + "]", replicas));
    }

    // One pod on node `n` (which must fit it), with usage in its node's NodeMetric.
    void add_pod(size_t n, const std::string& name, const Traits& t, const std::string& app,
                 const std::string& owner_json, const std::string& protected_why, bool ready,
                 const std::string& extra_annotations = "") {
        Node& node = nodes_[n];
        int64_t cpu = dice_.pick(std::vector<int64_t>{250, 500, 1000, 2000});
        int64_t mem = dice_.pick(std::vector<int64_t>{512, 1024, 2048, 4096});
        node.free_cpu -= cpu;
        node.free_memory -= mem;
        std::string labels = fmt::format(R"("app":"{}")", app);
        if (!protected_why.empty()) labels += fmt::format(R"(,"{}":"{}")", kProtectedLabel, protected_why);
        std::string annotations = extra_annotations;
        if (t.never_evict_cost)
            annotations += std::string(annotations.empty() ? "" : ",") +
                           R"("scheduling.koordinator.sh/eviction-cost":"2147483647")";
        std::string volumes;
        if (t.local_storage) volumes = R"([{"name":"scratch","emptyDir":{}}])";
        if (t.pvc) volumes = R"([{"name":"data","persistentVolumeClaim":{"claimName":"data"}}])";
        std::string priority =
            t.critical ? R"("priority":2000001000,"priorityClassName":"system-node-critical",)" : R"("priority":0,)";
        items_.push_back(fmt::format(
            R"({{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"{0}","namespace":"{1}","uid":"uid-pod-{1}-{0}",)"
            R"("creationTimestamp":"{2}","labels":{{{3}}},"annotations":{{{4}}}{5}}},)"
            R"("spec":{{"nodeName":"{6}","schedulerName":"{7}",{8}"containers":[{{"name":"main",)"
            R"("resources":{{"requests":{{"cpu":"{9}m","memory":"{10}Mi"}}}}}}]{11}}},)"
            R"("status":{{"phase":"Running","conditions":[{{"type":"PodScheduled","status":"True"}},)"
            R"({{"type":"Ready","status":"{12}"}}],"qosClass":"Burstable"}}}})",
            name, t.ns, kCreated, labels, annotations,
            owner_json.empty() ? "" : ",\"ownerReferences\":[" + owner_json + "]", node.name, t.scheduler, priority,
            cpu, mem, volumes.empty() ? "" : ",\"volumes\":" + volumes, ready ? "True" : "False"));
        double use = node.heat * (0.5 + dice_.between(0, 100) / 100.0);
        int64_t ucpu = int64_t(double(cpu) * use), umem = int64_t(double(mem) * std::min(use, 1.6));
        node.pod_metrics.push_back(fmt::format(
            R"({{"namespace":"{}","name":"{}","podUsage":{{"resources":{{"cpu":"{}m","memory":"{}Mi"}}}}}})", t.ns,
            name, ucpu, umem));
    }

    // A node with room for a pod of the largest size, drawn with hot nodes weighted up; -1 if none.
    int place() {
        std::vector<size_t> fits;
        for (size_t i = 0; i < nodes_.size(); ++i)
            if (nodes_[i].free_cpu >= 2000 && nodes_[i].free_memory >= 4096)
                for (int w = 0; w < (nodes_[i].hot ? 4 : 1); ++w) fits.push_back(i);
        return fits.empty() ? -1 : int(dice_.pick(fits));
    }

    size_t nodes() const { return nodes_.size(); }
    const Node& node(size_t i) const { return nodes_[i]; }

    std::string finish() {
        for (const Node& n : nodes_) {
            std::string pods;
            for (const auto& m : n.pod_metrics) pods += (pods.empty() ? "" : ",") + m;
            items_.push_back(fmt::format(
                R"({{"apiVersion":"slo.koordinator.sh/v1alpha1","kind":"NodeMetric","metadata":{{"name":"{0}",)"
                R"("uid":"uid-metric-{0}","creationTimestamp":"{1}"}},"spec":{{}},"status":{{"updateTime":"{2}",)"
                R"("nodeMetric":{{"nodeUsage":{{"resources":{{}}}},"systemUsage":{{"resources":{{"cpu":"300m",)"
                R"("memory":"1Gi"}}}}}},"podsMetric":[{3}]}}}})",
                n.name, kCreated, kMetricTime, pods));
        }
        std::string out = R"({"apiVersion":"v1","kind":"List","items":[)";
        for (size_t i = 0; i < items_.size(); ++i) out += (i ? ",\n" : "\n") + items_[i];
        return out + "\n]}\n";
    }

private:
    Dice& dice_;
    std::vector<Node> nodes_;
    std::vector<std::string> items_;
};

std::string owner(const std::string& kind, const std::string& ns, const std::string& name) {
    return fmt::format(R"({{"apiVersion":"{3}","kind":"{0}","name":"{2}","uid":"uid-{0}-{1}-{2}","controller":true}})",
                       kind, ns, name, kind == "Node" ? "v1" : "apps/v1");
}

// Two lines of YAML at `indent`.
std::string thresholds(Dice& d, const std::string& indent) {
    int low_cpu = d.between(20, 50), low_mem = d.between(20, 55);
    int high_cpu = std::min(95, low_cpu + d.between(10, 40)), high_mem = std::min(95, low_mem + d.between(10, 35));
    return fmt::format("{0}lowThresholds: {{cpu: {1}, memory: {2}}}\n{0}highThresholds: {{cpu: {3}, memory: {4}}}\n",
                       indent, low_cpu, low_mem, high_cpu, high_mem);
}

}  // namespace

Scenario make_scenario(uint64_t seed) {
    Dice d(seed);
    Scenario s;
    s.seed = seed;
    EvictorArgs a;
    a.migration_controller = d.chance(0.8);
    a.evict_local_storage = d.chance(0.4);
    a.ignore_pvc = d.chance(0.5);
    a.lnl_excludes_kube_system = d.chance(0.5);
    a.evictor_excludes_kube_system = a.migration_controller && d.chance(0.5);
    s.rules.migration_controller = a.migration_controller;

    // The profile.
    std::string lnl = fmt::format(
        "      anomalyCondition: {{consecutiveAbnormalities: {}}}\n      nodeFit: {}\n      numberOfNodes: {}\n",
        d.between(1, 3), d.chance(0.7) ? "true" : "false", d.between(0, 1));
    if (d.chance(0.2)) lnl += "      useDeviationThresholds: true\n";
    lnl += thresholds(d, "      ");
    if (a.lnl_excludes_kube_system) lnl += "      evictableNamespaces: {exclude: [kube-system]}\n";
    if (d.chance(0.25))
        lnl += "      nodePools:\n      - name: pool-b\n        nodeSelector: {matchLabels: {pool: b}}\n" +
               thresholds(d, "        ");
    std::string evictor, evictor_args;
    if (a.migration_controller) {
        evictor = "MigrationController";
        s.rules.reservation_first = d.chance(0.6);
        evictor_args +=
            fmt::format("      defaultJobMode: {}\n", s.rules.reservation_first ? "ReservationFirst" : "EvictDirectly");
        evictor_args += fmt::format("      evictLocalStoragePods: {}\n      ignorePvcPods: {}\n",
                                    a.evict_local_storage ? "true" : "false", a.ignore_pvc ? "true" : "false");
        evictor_args += fmt::format("      maxMigratingPerNode: {}\n", d.between(0, 3));
        if (d.chance(0.5)) evictor_args += fmt::format("      maxMigratingPerNamespace: {}\n", d.between(0, 5));
        if (d.chance(0.5)) evictor_args += fmt::format("      maxMigratingGlobally: {}\n", d.between(0, 8));
        s.rules.max_migrating_per_workload = random_budget(d);
        s.rules.max_unavailable_per_workload = random_budget(d);
        if (s.rules.max_migrating_per_workload)
            evictor_args += "      maxMigratingPerWorkload: " + budget_text(*s.rules.max_migrating_per_workload) + "\n";
        if (s.rules.max_unavailable_per_workload)
            evictor_args +=
                "      maxUnavailablePerWorkload: " + budget_text(*s.rules.max_unavailable_per_workload) + "\n";
        if (d.chance(0.3)) evictor_args += "      skipCheckExpectedReplicas: true\n";
        evictor_args += fmt::format("      arbitrationArgs: {{enabled: {}}}\n", d.chance(0.5) ? "true" : "false");
        evictor_args += fmt::format("      evictionPolicy: {}\n", d.chance(0.7) ? "Eviction" : "Delete");
        evictor_args +=
            fmt::format("      evictQPS: \"{}\"\n      evictBurst: {}\n", d.between(1, 20), d.between(1, 3));
        if (d.chance(0.3))
            evictor_args += fmt::format("      objectLimiters: {{workload: {{duration: {}m, maxMigrating: {}}}}}\n",
                                        d.between(1, 5), d.between(1, 3));
        if (d.chance(0.3)) evictor_args += fmt::format("      defaultJobTTL: {}m\n", d.between(1, 5));
        if (a.evictor_excludes_kube_system) evictor_args += "      namespaces: {exclude: [kube-system]}\n";
    } else {
        evictor = "DefaultEvictor";
        evictor_args = fmt::format("      evictLocalStoragePods: {}\n      ignorePvcPods: {}\n      nodeFit: {}\n",
                                   a.evict_local_storage ? "true" : "false", a.ignore_pvc ? "true" : "false",
                                   d.chance(0.5) ? "true" : "false");
    }
    s.profile_yaml = fmt::format(R"(apiVersion: descheduler/v1alpha2
kind: DeschedulerConfiguration
deschedulingInterval: 10s
profiles:
- name: safety-{0}
  plugins:
    deschedule:
      disabled: [{{name: "*"}}]
    balance:
      enabled: [{{name: LowNodeLoad}}]
    evict:
      disabled: [{{name: "*"}}]
      enabled: [{{name: {1}}}]
    filter:
      disabled: [{{name: "*"}}]
      enabled: [{{name: {1}}}]
  pluginConfig:
  - name: LowNodeLoad
    args:
{2}  - name: {1}
    args:
{3})",
                                 seed, evictor, lnl, evictor_args);

    // The cluster: nodes, some of them hot.
    ClusterWriter w(d);
    int node_count = d.between(4, 14);
    for (int i = 0; i < node_count; ++i) {
        int64_t cpu = d.pick(std::vector<int64_t>{8000, 16000, 32000});
        int64_t mem = d.pick(std::vector<int64_t>{32768, 65536, 131072});
        bool hot = d.chance(0.3);
        w.add_node({fmt::format("node-{}", i), cpu, mem, cpu, mem, hot ? 1.6 : 0.7, hot, {}}, d.chance(0.08),
                   d.chance(0.5) ? "a" : "b");
    }
    auto add = [&](size_t node, const std::string& name, const Traits& t, const std::string& app,
                   const std::string& owner_json, std::string why, bool ready, const std::string& annotations = "") {
        if (!why.empty()) ++s.protected_pods;
        w.add_pod(node, name, t, app, owner_json, why, ready, annotations);
    };
    // Protected whatever the args: a DaemonSet's pod and often a static (mirror) pod on every node.
    w.add_workload("DaemonSet", "kube-system", "node-agent", node_count);
    for (size_t n = 0; n < w.nodes(); ++n) {
        Traits sys{"kube-system", "default-scheduler", true, false, false, false};
        add(n, "node-agent-" + std::to_string(n), sys, "node-agent", owner("DaemonSet", "kube-system", "node-agent"),
            "daemonset", true);
        if (d.chance(0.4))
            add(n, "static-" + w.node(n).name, {"kube-system", "default-scheduler", false, false, false, false},
                "static", "", "mirror", true,
                R"("kubernetes.io/config.mirror":"abc","kubernetes.io/config.source":"file")");
    }
    // Bare pods: no owner, protected by every evictor's defaults.
    for (int i = d.between(0, 3); i > 0; --i)
        if (int n = w.place(); n >= 0)
            add(size_t(n), fmt::format("debug-{}", i), {"shop", "koord-scheduler", false, false, false, false}, "debug",
                "", "bare", true);
    // Workloads: Deployments (through a ReplicaSet) and StatefulSets with traits of their own.
    int workloads = d.between(3, 10);
    for (int i = 0; i < workloads; ++i) {
        Traits t;
        t.ns = d.chance(0.1) ? "kube-system" : (d.chance(0.5) ? "shop" : "batch");
        if (d.chance(0.1)) t.scheduler = "default-scheduler";
        t.local_storage = d.chance(0.15);
        t.pvc = !t.local_storage && d.chance(0.12);
        t.critical = d.chance(0.04);
        t.never_evict_cost = d.chance(0.06);
        int replicas = d.between(1, 12);
        bool stateful = d.chance(0.2);
        std::string name = fmt::format("{}-{}", stateful ? "db" : "app", i), pod_owner;
        if (stateful) {
            w.add_workload("StatefulSet", t.ns, name, replicas);
            pod_owner = owner("StatefulSet", t.ns, name);
        } else {
            w.add_workload("Deployment", t.ns, name, replicas);
            w.add_workload("ReplicaSet", t.ns, name + "-rs", replicas, owner("Deployment", t.ns, name));
            pod_owner = owner("ReplicaSet", t.ns, name + "-rs");
        }
        std::string why = protection(t, a);
        for (int r = 0; r < replicas; ++r)
            if (int n = w.place(); n >= 0)
                add(size_t(n), fmt::format("{}-{}", name, r), t, name, pod_owner, why, !d.chance(0.06));
    }
    s.cluster_json = w.finish();
    return s;
}

}  // namespace kd::safety
