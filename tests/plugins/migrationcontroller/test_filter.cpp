// The framework Filter LowNodeLoad consults (koord's MigrationController `Filter`), through the
// plugin's filter hook: existing jobs, scheduler names, the non-retryable filter (namespaces,
// eviction cost, the koord EvictorFilter, expected replicas), the retryable migrating limits, the
// evict annotation and skipEvictionGates; and PreEvictionFilter (nodeFit).
#include "filters.hpp"
#include "test_util.hpp"

#include <functional>
#include <string>
#include <vector>

using namespace mc_test;
namespace reason = kd::plugins::migrationcontroller::reason;

namespace {

using Setup = std::function<void(SnapshotBuilder&, PodSpec&)>;

struct FilterCase {
    const char* name;
    std::string args;
    Setup setup;
    std::vector<std::string> jobs;  // PodMigrationJob objects listed in the snapshot
    bool allowed;
    std::string reason;
};

const Setup none = [](SnapshotBuilder&, PodSpec&) {};

// Re-owns `p` by ReplicaSet `rs`, the only member of a workload with `replicas` (none when < 0).
Setup owned_by(const std::string& rs, int32_t replicas) {
    return [=](SnapshotBuilder& b, PodSpec& p) {
        p.owners.clear();
        p.owner("ReplicaSet", rs);
        if (replicas >= 0) b.workload("ReplicaSet", "default", rs, replicas);
    };
}

// Pods of another workload on `node` (owner other-rs).
PodSpec& other_pod(SnapshotBuilder& b, const std::string& name, const std::string& node) {
    return b.pod("default", name).on(node).owner("ReplicaSet", "other-rs").scheduled_by("koord-scheduler");
}

std::string running(const std::string& ns, const std::string& pod) {
    return JobJson(ns, pod).phase("Running").json();
}

void check_cases(const std::vector<FilterCase>& cases) {
    for (const auto& c : cases) {
        SECTION(c.name) {
            SnapshotBuilder b;
            base_cluster(b);
            PodSpec& p = web_pod(b, "p");
            c.setup(b, p);
            std::string jobs = "[";
            for (const auto& j : c.jobs) jobs += (jobs.size() > 1 ? "," : "") + j;
            b.objects("PodMigrationJob", jobs + "]");
            FakeHost host;
            auto plugin = host.instantiate<MigrationController>(c.args);
            const kd_snapshot* s = b.build();
            auto pod = kd::Snapshot(s).find_pod("default", "p");
            REQUIRE(pod);
            kd::Verdict v = plugin.filter(s, *pod);
            CHECK(v.allowed == c.allowed);
            CHECK(v.reason == c.reason);
            CHECK(host.writes().empty());  // filtering writes nothing
        }
    }
}

}  // namespace

TEST_CASE("filter: existing migration job and scheduler name", "[filter]") {
    check_cases({
        {"plain pod passes", "{}", none, {}, true, ""},
        {"Pending job by pod UID",
         "{}",
         none,
         {JobJson("default", "renamed").pod_uid("uid-pod-default-p").json()},
         false,
         reason::kExistingJob},
        {"Running job by namespace/name", "{}", none, {running("default", "p")}, false, reason::kExistingJob},
        {"job with an empty phase counts as Pending",
         "{}",
         none,
         {JobJson("default", "p").phase("").json()},
         false,
         reason::kExistingJob},
        {"job of another instance counts",
         "{}",
         none,
         {JobJson("default", "p").phase("Running").created_by("someone-else").json()},
         false,
         reason::kExistingJob},
        {"Succeeded job does not count", "{}", none, {JobJson("default", "p").phase("Succeeded").json()}, true, ""},
        {"Failed job does not count", "{}", none, {JobJson("default", "p").phase("Failed").json()}, true, ""},
        {"job of another pod does not count", "{}", none, {running("default", "q")}, true, ""},
        {"default-scheduler pod in ReservationFirst",
         "{}",
         [](SnapshotBuilder&, PodSpec& p) { p.scheduled_by("default-scheduler"); },
         {},
         false,
         reason::kSchedulerName},
        {"default-scheduler pod in EvictDirectly",
         R"({"defaultJobMode": "EvictDirectly"})",
         [](SnapshotBuilder&, PodSpec& p) { p.scheduled_by("default-scheduler"); },
         {},
         true,
         ""},
        {"schedulerNames lists default-scheduler",
         R"({"schedulerNames": ["default-scheduler"]})",
         [](SnapshotBuilder&, PodSpec& p) { p.scheduled_by("default-scheduler"); },
         {},
         true,
         ""},
        {"koord-scheduler not listed",
         R"({"schedulerNames": ["default-scheduler"]})",
         none,
         {},
         false,
         reason::kSchedulerName},
    });
}

TEST_CASE("filter: non-retryable — namespaces and eviction cost", "[filter]") {
    auto cost = [](std::string v) {
        return [v](SnapshotBuilder&, PodSpec& p) { p.annotation("scheduling.koordinator.sh/eviction-cost", v); };
    };
    check_cases({
        {"include lists another namespace",
         R"({"namespaces": {"include": ["other"]}})",
         none,
         {},
         false,
         reason::kNamespace},
        {"include lists the pod's namespace", R"({"namespaces": {"include": ["default"]}})", none, {}, true, ""},
        {"exclude lists the pod's namespace",
         R"({"namespaces": {"exclude": ["default"]}})",
         none,
         {},
         false,
         reason::kNamespace},
        {"exclude lists another namespace", R"({"namespaces": {"exclude": ["kube-system"]}})", none, {}, true, ""},
        {"gate Namespaces",
         R"({"namespaces": {"exclude": ["default"]}, "skipEvictionGates": ["Namespaces"]})",
         none,
         {},
         true,
         ""},
        {"eviction cost MaxInt32", "{}", cost("2147483647"), {}, false, reason::kEvictionCost},
        {"eviction cost MaxInt32 - 1", "{}", cost("2147483646"), {}, true, ""},
        {"eviction cost with a leading + is invalid (0)", "{}", cost("+2147483647"), {}, true, ""},
    });
}

TEST_CASE("filter: non-retryable — koord EvictorFilter", "[filter]") {
    auto bare = [](kd_pod_phase phase) {
        return [phase](SnapshotBuilder&, PodSpec& p) {
            p.owners.clear();
            p.in_phase(phase);
        };
    };
    auto flag = [](uint32_t f) { return [f](SnapshotBuilder&, PodSpec& p) { p.set_flag(f); }; };
    auto priority = [](int32_t v) { return [v](SnapshotBuilder&, PodSpec& p) { p.with_priority(v); }; };
    auto label = [](std::string k, std::string v) { return [k, v](SnapshotBuilder&, PodSpec& p) { p.label(k, v); }; };
    const std::string threshold = R"({"priorityThreshold": {"value": 1000})";
    check_cases({
        {"DaemonSet pod",
         "{}",
         [](SnapshotBuilder&, PodSpec& p) {
             p.owners.clear();
             p.owner("DaemonSet", "ds");
         },
         {},
         false,
         reason::kDaemonSet},
        {"mirror pod",
         "{}",
         [](SnapshotBuilder&, PodSpec& p) { p.annotation("kubernetes.io/config.mirror", "x"); },
         {},
         false,
         reason::kMirror},
        {"static pod",
         "{}",
         [](SnapshotBuilder&, PodSpec& p) { p.annotation("kubernetes.io/config.source", "file"); },
         {},
         false,
         reason::kStatic},
        {"config source api is not static",
         "{}",
         [](SnapshotBuilder&, PodSpec& p) { p.annotation("kubernetes.io/config.source", "api"); },
         {},
         true,
         ""},
        {"terminating pod", "{}", flag(KD_POD_TERMINATING), {}, false, reason::kTerminating},
        {"bare pod", "{}", bare(KD_POD_RUNNING), {}, false, reason::kBarePod},
        {"failed bare pod without evictFailedBarePods", "{}", bare(KD_POD_FAILED), {}, false, reason::kBarePod},
        {"failed bare pod with evictFailedBarePods",
         R"({"evictFailedBarePods": true})",
         bare(KD_POD_FAILED),
         {},
         true,
         ""},
        {"running bare pod with evictFailedBarePods",
         R"({"evictFailedBarePods": true})",
         bare(KD_POD_RUNNING),
         {},
         false,
         reason::kBarePod},
        {"running bare pod with evictAllBarePods", R"({"evictAllBarePods": true})", bare(KD_POD_RUNNING), {}, true, ""},
        {"gate BarePods", R"({"skipEvictionGates": ["BarePods"]})", bare(KD_POD_RUNNING), {}, true, ""},
        {"system-critical priority", "{}", priority(2'000'000'000), {}, false, reason::kSystemCritical},
        {"just below system-critical", "{}", priority(1'999'999'999), {}, true, ""},
        {"system-critical with evictSystemCriticalPods",
         R"({"evictSystemCriticalPods": true})",
         priority(2'000'000'000),
         {},
         true,
         ""},
        {"gate SystemCritical", R"({"skipEvictionGates": ["SystemCritical"]})", priority(2'000'000'000), {}, true, ""},
        {"priority equal to priorityThreshold.value",
         threshold + "}",
         priority(1000),
         {},
         false,
         reason::kPriorityThreshold},
        {"priority below priorityThreshold.value", threshold + "}", priority(999), {}, true, ""},
        {"no priority passes priorityThreshold", threshold + "}", none, {}, true, ""},
        {"priorityThreshold.name alone is not read",
         R"({"priorityThreshold": {"name": "high"}})",
         priority(5000),
         {},
         true,
         ""},
        {"gate PriorityThreshold",
         threshold + R"(, "skipEvictionGates": ["PriorityThreshold"]})",
         priority(1000),
         {},
         true,
         ""},
        {"evictSystemCriticalPods also lifts priorityThreshold",
         threshold + R"(, "evictSystemCriticalPods": true})",
         priority(1000),
         {},
         true,
         ""},
        {"local storage", "{}", flag(KD_POD_LOCAL_STORAGE), {}, false, reason::kLocalStorage},
        {"local storage with evictLocalStoragePods",
         R"({"evictLocalStoragePods": true})",
         flag(KD_POD_LOCAL_STORAGE),
         {},
         true,
         ""},
        {"gate LocalStorage", R"({"skipEvictionGates": ["LocalStorage"]})", flag(KD_POD_LOCAL_STORAGE), {}, true, ""},
        {"PVC with ignorePvcPods", R"({"ignorePvcPods": true})", flag(KD_POD_PVC), {}, false, reason::kPVC},
        {"PVC without ignorePvcPods", "{}", flag(KD_POD_PVC), {}, true, ""},
        {"gate PVC", R"({"ignorePvcPods": true, "skipEvictionGates": ["PVC"]})", flag(KD_POD_PVC), {}, true, ""},
        {"labelSelector not matching",
         R"({"labelSelector": {"matchLabels": {"app": "db"}}})",
         none,
         {},
         false,
         reason::kLabelSelector},
        {"labelSelector matching", R"({"labelSelector": {"matchLabels": {"app": "web"}}})", none, {}, true, ""},
        {"labelSelector with expressions",
         R"({"labelSelector": {"matchExpressions":
            [{"key": "tier", "operator": "In", "values": ["front"]}]}})",
         label("tier", "back"),
         {},
         false,
         reason::kLabelSelector},
        {"gate LabelSelector",
         R"({"labelSelector": {"matchLabels": {"app": "db"}}, "skipEvictionGates": ["LabelSelector"]})",
         none,
         {},
         true,
         ""},
    });
}

TEST_CASE("filter: non-retryable — expected replicas", "[filter]") {
    check_cases({
        {"6 replicas pass", "{}", none, {}, true, ""},
        {"replicas 1", "{}", owned_by("solo-rs", 1), {}, false, reason::kExpectedReplicas},
        {"replicas 1 with skipCheckExpectedReplicas",
         R"({"skipCheckExpectedReplicas": true})",
         owned_by("solo-rs", 1),
         {},
         true,
         ""},
        {"replicas 1 with gate ExpectedReplicas",
         R"({"skipEvictionGates": ["ExpectedReplicas"]})",
         owned_by("solo-rs", 1),
         {},
         true,
         ""},
        {"replicas == maxMigratingPerWorkload",
         R"({"maxMigratingPerWorkload": 3})",
         owned_by("three-rs", 3),
         {},
         false,
         reason::kExpectedReplicas},
        {"replicas == maxUnavailablePerWorkload",
         R"({"maxUnavailablePerWorkload": "100%"})",
         owned_by("two-rs", 2),
         {},
         false,
         reason::kExpectedReplicas},
        {"replicas 2 with the defaults", "{}", owned_by("two-rs", 2), {}, true, ""},
        {"unknown workload", "{}", owned_by("ghost-rs", -1), {}, false, reason::kWorkloadUnknown},
        {"unknown workload with skipCheckExpectedReplicas fails the workload limits",
         R"({"skipCheckExpectedReplicas": true})",
         owned_by("ghost-rs", -1),
         {},
         false,
         reason::kWorkloadUnknown},
        {"unknown workload with every workload gate skipped",
         R"({"skipEvictionGates": ["ExpectedReplicas", "MaxMigratingPerWorkload", "MaxUnavailablePerWorkload"]})",
         owned_by("ghost-rs", -1),
         {},
         true,
         ""},
    });
}

TEST_CASE("filter: retryable — global, node and namespace limits", "[filter]") {
    auto on_n1 = [](int n) {
        return [n](SnapshotBuilder& b, PodSpec&) {
            for (int i = 0; i < n; ++i) other_pod(b, "o" + std::to_string(i), "n1");
        };
    };
    auto on_n2 = [](SnapshotBuilder& b, PodSpec&) {
        other_pod(b, "o0", "n2");
        other_pod(b, "o1", "n2");
    };
    const std::vector<std::string> two = {running("default", "o0"), JobJson("default", "o1").waiting().json()};
    check_cases({
        {"maxMigratingGlobally reached by a Running job",
         R"({"maxMigratingGlobally": 1})",
         none,
         {running("other", "x")},
         false,
         reason::kMaxGlobally},
        {"maxMigratingGlobally counts Pending jobs outside arbitration",
         R"({"maxMigratingGlobally": 1})",
         none,
         {JobJson("other", "x").waiting().json()},
         false,
         reason::kMaxGlobally},
        {"maxMigratingGlobally ignores finished jobs",
         R"({"maxMigratingGlobally": 1})",
         none,
         {JobJson("other", "x").phase("Succeeded").json()},
         true,
         ""},
        {"maxMigratingGlobally not reached", R"({"maxMigratingGlobally": 2})", none, {running("other", "x")}, true, ""},
        {"gate MaxMigratingGlobally",
         R"({"maxMigratingGlobally": 1, "skipEvictionGates": ["MaxMigratingGlobally"]})",
         none,
         {running("other", "x")},
         true,
         ""},
        {"maxMigratingPerNode default 2 reached", "{}", on_n1(2), two, false, reason::kMaxPerNode},
        {"maxMigratingPerNode default 2, one migrating", "{}", on_n1(2), {running("default", "o0")}, true, ""},
        {"maxMigratingPerNode 1 reached",
         R"({"maxMigratingPerNode": 1})",
         on_n1(1),
         {running("default", "o0")},
         false,
         reason::kMaxPerNode},
        {"maxMigratingPerNode counts only pods on the same node", "{}", on_n2, two, true, ""},
        {"maxMigratingPerNode 0 is unlimited", R"({"maxMigratingPerNode": 0})", on_n1(2), two, true, ""},
        {"gate MaxMigratingPerNode", R"({"skipEvictionGates": ["MaxMigratingPerNode"]})", on_n1(2), two, true, ""},
        {"maxMigratingPerNamespace reached",
         R"({"maxMigratingPerNamespace": 1})",
         none,
         {running("default", "q")},
         false,
         reason::kMaxPerNamespace},
        {"maxMigratingPerNamespace counts only the pod's namespace",
         R"({"maxMigratingPerNamespace": 1})",
         none,
         {running("other", "q")},
         true,
         ""},
        {"gate MaxMigratingPerNamespace",
         R"({"maxMigratingPerNamespace": 1, "skipEvictionGates": ["MaxMigratingPerNamespace"]})",
         none,
         {running("default", "q")},
         true,
         ""},
    });
}

TEST_CASE("filter: retryable — per-workload migrating and unavailable", "[filter]") {
    // Other pods of the web workload live on n2 so the node limit stays out of the way.
    auto peers = [](std::function<void(PodSpec&, PodSpec&)> tweak) {
        return [tweak](SnapshotBuilder& b, PodSpec&) {
            PodSpec& w1 = web_pod(b, "w1", "n2");
            PodSpec& w2 = web_pod(b, "w2", "n2");
            tweak(w1, w2);
        };
    };
    auto healthy = peers([](PodSpec&, PodSpec&) {});
    auto unready = [](PodSpec& p) { p.set_flag(KD_POD_READY, false); };
    const std::string unav1 = R"({"maxUnavailablePerWorkload": 1})";
    check_cases({
        {"one migrating of max 2", "{}", healthy, {running("default", "w1")}, true, ""},
        {"two migrating of max 2",
         "{}",
         healthy,
         {running("default", "w1"), running("default", "w2")},
         false,
         reason::kMaxPerWorkload},
        {"maxMigratingPerWorkload 1 reached",
         R"({"maxMigratingPerWorkload": 1})",
         healthy,
         {running("default", "w1")},
         false,
         reason::kMaxPerWorkload},
        {"maxMigratingPerWorkload as a percentage",
         R"({"maxMigratingPerWorkload": "20%"})",
         healthy,
         {running("default", "w1")},
         false,
         reason::kMaxPerWorkload},
        {"gate MaxMigratingPerWorkload",
         R"({"maxMigratingPerWorkload": 1, "skipEvictionGates": ["MaxMigratingPerWorkload"]})",
         healthy,
         {running("default", "w1")},
         true,
         ""},
        {"one unready of max 2", "{}", peers([&](PodSpec& a, PodSpec&) { unready(a); }), {}, true, ""},
        {"two unready of max 2",
         "{}",
         peers([&](PodSpec& a, PodSpec& b) {
             unready(a);
             unready(b);
         }),
         {},
         false,
         reason::kMaxUnavailable},
        {"maxUnavailablePerWorkload 1 with one unready",
         unav1,
         peers([&](PodSpec& a, PodSpec&) { unready(a); }),
         {},
         false,
         reason::kMaxUnavailable},
        {"a failed pod is unavailable",
         unav1,
         peers([](PodSpec& a, PodSpec&) { a.in_phase(KD_POD_FAILED); }),
         {},
         false,
         reason::kMaxUnavailable},
        {"a terminating pod is unavailable",
         unav1,
         peers([](PodSpec& a, PodSpec&) { a.set_flag(KD_POD_TERMINATING); }),
         {},
         false,
         reason::kMaxUnavailable},
        {"a migrating pod is unavailable", unav1, healthy, {running("default", "w1")}, false, reason::kMaxUnavailable},
        {"one migrating plus one unready",
         "{}",
         peers([&](PodSpec&, PodSpec& b) { unready(b); }),
         {running("default", "w1")},
         false,
         reason::kMaxUnavailable},
        {"gate MaxUnavailablePerWorkload",
         R"({"skipEvictionGates": ["MaxUnavailablePerWorkload"]})",
         peers([&](PodSpec& a, PodSpec& b) {
             unready(a);
             unready(b);
         }),
         {},
         true,
         ""},
        // The anchor counts only pods of the same controller UID as migrating; a pod of the workload
        // with another controller is unavailable only when not ready.
        {"a workload pod of another controller is not counted as migrating",
         R"({"maxMigratingPerWorkload": 1})",
         [](SnapshotBuilder& b, PodSpec&) {
             b.pod("default", "direct").on("n2").owner("Deployment", "web").scheduled_by("koord-scheduler");
         },
         {running("default", "direct")},
         true,
         ""},
        {"... nor as unavailable while it is ready",
         unav1,
         [](SnapshotBuilder& b, PodSpec&) {
             b.pod("default", "direct").on("n2").owner("Deployment", "web").scheduled_by("koord-scheduler");
         },
         {running("default", "direct")},
         true,
         ""},
        // Workload filter: unavailable = the workload pods not active and Ready, the pod included.
        {"the pod itself unready",
         unav1,
         [](SnapshotBuilder& b, PodSpec& p) {
             web_pod(b, "w1", "n2");
             p.set_flag(KD_POD_READY, false);
         },
         {},
         false,
         reason::kMaxUnavailable},
    });
}

TEST_CASE("filter: the evict annotation bypasses both filters but not the job and scheduler checks", "[filter]") {
    auto evict = [](Setup more) {
        return [more](SnapshotBuilder& b, PodSpec& p) {
            p.annotation("descheduler.alpha.kubernetes.io/evict", "true");
            more(b, p);
        };
    };
    auto daemonset = [](SnapshotBuilder&, PodSpec& p) {
        p.owners.clear();
        p.owner("DaemonSet", "ds");
    };
    auto unready_peers = [](SnapshotBuilder& b, PodSpec&) {
        web_pod(b, "w1", "n2").set_flag(KD_POD_READY, false);
        web_pod(b, "w2", "n2").set_flag(KD_POD_READY, false);
    };
    check_cases({
        {"DaemonSet pod with the annotation", "{}", evict(daemonset), {}, true, ""},
        {"terminating pod with the annotation",
         "{}",
         evict([](SnapshotBuilder&, PodSpec& p) { p.set_flag(KD_POD_TERMINATING); }),
         {},
         true,
         ""},
        {"excluded namespace with the annotation",
         R"({"namespaces": {"exclude": ["default"]}})",
         evict(none),
         {},
         true,
         ""},
        {"eviction cost MaxInt32 with the annotation",
         "{}",
         evict([](SnapshotBuilder&, PodSpec& p) {
             p.annotation("scheduling.koordinator.sh/eviction-cost", "2147483647");
         }),
         {},
         true,
         ""},
        {"replicas 1 with the annotation", "{}", evict(owned_by("solo-rs", 1)), {}, true, ""},
        {"maxMigratingGlobally reached with the annotation",
         R"({"maxMigratingGlobally": 1})",
         evict(none),
         {running("other", "x")},
         true,
         ""},
        {"unavailable budget used up with the annotation", "{}", evict(unready_peers), {}, true, ""},
        {"existing job with the annotation", "{}", evict(none), {running("default", "p")}, false, reason::kExistingJob},
        {"default-scheduler with the annotation",
         "{}",
         evict([](SnapshotBuilder&, PodSpec& p) { p.scheduled_by("default-scheduler"); }),
         {},
         false,
         reason::kSchedulerName},
    });
}

TEST_CASE("pre-eviction filter: nodeFit only, with nodeSelector and its gate", "[filter]") {
    struct Case {
        const char* name;
        std::string args;
        std::string cpu;   // the pod's request
        bool n2_labelled;  // n2 carries pool=a
        bool allowed;
        std::string reason;
    };
    std::vector<Case> cases = {
        {"nodeFit off", "{}", "9", false, true, ""},
        {"fits n2", R"({"nodeFit": true})", "500m", false, true, ""},
        {"fits no other node", R"({"nodeFit": true})", "9", false, false, reason::kNodeFit},
        {"gate NodeFit", R"({"nodeFit": true, "skipEvictionGates": ["NodeFit"]})", "9", false, true, ""},
        {"nodeSelector leaves no node", R"({"nodeFit": true, "nodeSelector": "pool=a"})", "500m", false, false,
         reason::kNodeFit},
        {"nodeSelector matches n2", R"({"nodeFit": true, "nodeSelector": "pool=a"})", "500m", true, true, ""},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            SnapshotBuilder b;
            b.node("n1").allocatable("cpu", "8");
            auto& n2 = b.node("n2").allocatable("cpu", "8");
            if (c.n2_labelled) n2.label("pool", "a");
            b.workload("Deployment", "default", "web", 6).member("uid-ReplicaSet-web-rs");
            b.pod("default", "p")
                .on("n1")
                .owner("ReplicaSet", "web-rs")
                .scheduled_by("koord-scheduler")
                .request("cpu", c.cpu);
            FakeHost host;
            auto plugin = host.instantiate<MigrationController>(c.args);
            const kd_snapshot* s = b.build();
            kd::Verdict v = plugin.pre_eviction_filter(s, *kd::Snapshot(s).find_pod("default", "p"));
            CHECK(v.allowed == c.allowed);
            CHECK(v.reason == c.reason);
        }
    }
}
