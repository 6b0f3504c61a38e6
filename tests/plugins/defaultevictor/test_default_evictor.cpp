// DefaultEvictor driven through its C descriptor on kd::testing::FakeHost: every Filter rule,
// PreEvictionFilter (nodeFit) and Evict.
#include "create_error.hpp"
#include "default_evictor.hpp"

#include <kdesched/testing.hpp>

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

using kd::plugins::defaultevictor::DefaultEvictor;
using kd::testing::FakeHost;
using kd::testing::SnapshotBuilder;
using PodSpec = SnapshotBuilder::PodSpec;
namespace reason = kd::plugins::defaultevictor::reason;

namespace {

constexpr int64_t kMinute = 60'000;

// A pod owned by a ReplicaSet on n1: passes every default rule.
PodSpec& workload(SnapshotBuilder& b, const std::string& name) {
    return b.pod("default", name).on("n1").owner("ReplicaSet", "web-rs").request("cpu", "100m");
}

// Builds the snapshot and runs Filter on default/<name>.
kd::Verdict run_filter(SnapshotBuilder& b, const std::string& args, const std::string& name = "p") {
    FakeHost host;
    auto plugin = host.instantiate<DefaultEvictor>(args);
    const kd_snapshot* s = b.build();
    auto pod = kd::Snapshot(s).find_pod("default", name);
    REQUIRE(pod);
    return plugin.filter(s, *pod);
}

// Builds the snapshot and runs PreEvictionFilter on default/<name>.
kd::Verdict run_pre(SnapshotBuilder& b, const std::string& args, const std::string& name = "p") {
    FakeHost host;
    auto plugin = host.instantiate<DefaultEvictor>(args);
    const kd_snapshot* s = b.build();
    auto pod = kd::Snapshot(s).find_pod("default", name);
    REQUIRE(pod);
    return plugin.pre_eviction_filter(s, *pod);
}

struct FilterCase {
    const char* name;
    std::string args;
    std::function<void(PodSpec&)> setup;
    bool allowed;
    std::string reason;
};

void check_cases(const std::vector<FilterCase>& cases) {
    for (const auto& c : cases) {
        SECTION(c.name) {
            SnapshotBuilder b;
            b.node("n1").allocatable("cpu", "4");
            b.node("n2").allocatable("cpu", "4");
            auto& p = b.pod("default", "p").on("n1").request("cpu", "100m");
            c.setup(p);
            kd::Verdict v = run_filter(b, c.args);
            CHECK(v.allowed == c.allowed);
            CHECK(v.reason == c.reason);
        }
    }
}

auto owned = [](PodSpec& p) { p.owner("ReplicaSet", "web-rs"); };

}  // namespace

TEST_CASE("descriptor declares filter, pre-eviction filter and evict only", "[descriptor]") {
    const kd_plugin_descriptor* d = kd::descriptor<DefaultEvictor>();
    CHECK(std::string(d->name) == "DefaultEvictor");
    CHECK(d->filter != nullptr);
    CHECK(d->pre_eviction_filter != nullptr);
    CHECK(d->evict != nullptr);
    CHECK(d->deschedule == nullptr);
    CHECK(d->balance == nullptr);
}

TEST_CASE("filter: mirror, static and terminating pods", "[filter]") {
    check_cases({
        {"owned running pod passes", "{}", owned, true, ""},
        {"mirror pod", "{}",
         [](PodSpec& p) {
             owned(p);
             p.annotation("kubernetes.io/config.mirror", "abc");
         },
         false, reason::kMirrorPod},
        {"static pod (source file)", "{}",
         [](PodSpec& p) {
             owned(p);
             p.annotation("kubernetes.io/config.source", "file");
         },
         false, reason::kStaticPod},
        {"config.source api is not static", "{}",
         [](PodSpec& p) {
             owned(p);
             p.annotation("kubernetes.io/config.source", "api");
         },
         true, ""},
        {"terminating pod", "{}",
         [](PodSpec& p) {
             owned(p);
             p.set_flag(KD_POD_TERMINATING);
         },
         false, reason::kTerminating},
        {"mirror is reported before terminating", "{}",
         [](PodSpec& p) {
             owned(p);
             p.annotation("kubernetes.io/config.mirror", "");
             p.set_flag(KD_POD_TERMINATING);
         },
         false, reason::kMirrorPod},
    });
}

TEST_CASE("filter: the evict annotation bypasses every rule", "[filter]") {
    check_cases({
        {"mirror, terminating, bare DaemonSet-less pod with local storage", "{}",
         [](PodSpec& p) {
             p.annotation("descheduler.alpha.kubernetes.io/evict", "")
                 .annotation("kubernetes.io/config.mirror", "x")
                 .set_flag(KD_POD_TERMINATING | KD_POD_LOCAL_STORAGE | KD_POD_PVC)
                 .with_priority(2'000'001'000);
         },
         true, ""},
        {"DaemonSet pod failing labelSelector and minPodAge",
         R"({"labelSelector":{"matchLabels":{"a":"b"}},"minPodAge":"48h"})",
         [](PodSpec& p) { p.owner("DaemonSet", "ds").annotation("descheduler.alpha.kubernetes.io/evict", "true"); },
         true, ""},
    });
}

TEST_CASE("filter: DaemonSet, local storage and PVC protections", "[filter]") {
    auto ds = [](PodSpec& p) { p.owner("DaemonSet", "agent"); };
    auto local = [](PodSpec& p) {
        owned(p);
        p.set_flag(KD_POD_LOCAL_STORAGE);
    };
    auto pvc = [](PodSpec& p) {
        owned(p);
        p.set_flag(KD_POD_PVC);
    };
    check_cases({
        {"DaemonSet pod", "{}", ds, false, reason::kDaemonSetPod},
        {"DaemonSet as a non-controller owner still counts", "{}",
         [](PodSpec& p) { p.owner("ReplicaSet", "rs").owner("DaemonSet", "ds", false); }, false, reason::kDaemonSetPod},
        {"DaemonSet pod with evictDaemonSetPods", R"({"evictDaemonSetPods":true})", ds, true, ""},
        {"local storage", "{}", local, false, reason::kLocalStorage},
        {"local storage with evictLocalStoragePods", R"({"evictLocalStoragePods":true})", local, true, ""},
        {"local storage is reported before DaemonSet", "{}",
         [](PodSpec& p) { p.owner("DaemonSet", "ds").set_flag(KD_POD_LOCAL_STORAGE); }, false, reason::kLocalStorage},
        {"PVC pod by default", "{}", pvc, true, ""},
        {"PVC pod with ignorePvcPods", R"({"ignorePvcPods":true})", pvc, false, reason::kPVC},
        {"podProtections.defaultDisabled DaemonSetPods", R"({"podProtections":{"defaultDisabled":["DaemonSetPods"]}})",
         ds, true, ""},
        {"podProtections keeps the other defaults", R"({"podProtections":{"defaultDisabled":["DaemonSetPods"]}})",
         local, false, reason::kLocalStorage},
        {"podProtections.extraEnabled PodsWithPVC", R"({"podProtections":{"extraEnabled":["PodsWithPVC"]}})", pvc,
         false, reason::kPVC},
        {"podProtections.defaultDisabled PodsWithLocalStorage",
         R"({"podProtections":{"defaultDisabled":["PodsWithLocalStorage"]}})", local, true, ""},
    });
}

// Upstream's "Pod with ResourceClaims is not evicted because 'PodsWithResourceClaims' is in
// ExtraEnabled" (defaultevictor_test.go@v0.35.1), and the rule's place and switch.
TEST_CASE("filter: PodsWithResourceClaims", "[filter][upstream]") {
    const std::string on = R"({"podProtections":{"extraEnabled":["PodsWithResourceClaims"]}})";
    const std::string with_pvc = R"({"podProtections":{"extraEnabled":["PodsWithPVC","PodsWithResourceClaims"]}})";
    auto claimed = [](PodSpec& p) {
        p.owner("ReplicaSet", "web-rs").resource_claim("test-claim", "test-resource-claim");
    };
    check_cases({
        {"a pod with a resource claim", on, claimed, false, reason::kResourceClaims},
        {"a claim from a template counts", on,
         [](PodSpec& p) { p.owner("ReplicaSet", "web-rs").resource_claim("gpu", "", "gpu-template"); }, false,
         reason::kResourceClaims},
        {"a pod without resource claims", on, owned, true, ""},
        {"off by default", "{}", claimed, true, ""},
        {"with PodsWithPVC too", with_pvc, claimed, false, reason::kResourceClaims},
        {"PVC is reported before resource claims (upstream's order)", with_pvc,
         [](PodSpec& p) { p.owner("ReplicaSet", "web-rs").resource_claim("c", "claim").pvc_volume("data"); }, false,
         reason::kPVC},
        {"the evict annotation passes it", on,
         [](PodSpec& p) {
             p.owner("ReplicaSet", "web-rs")
                 .resource_claim("c", "claim")
                 .annotation("descheduler.alpha.kubernetes.io/evict", "true");
         },
         true, ""},
    });
}

TEST_CASE("filter: system-critical pods and priorityThreshold", "[filter]") {
    auto prio = [](int32_t v) {
        return [v](PodSpec& p) {
            owned(p);
            p.with_priority(v);
        };
    };
    check_cases({
        {"priority 2000000000 is system-critical", "{}", prio(2'000'000'000), false, reason::kSystemCritical},
        {"priority 2000001000 is system-critical", "{}", prio(2'000'001'000), false, reason::kSystemCritical},
        {"priority 1999999999 passes", "{}", prio(1'999'999'999), true, ""},
        {"system-critical with evictSystemCriticalPods", R"({"evictSystemCriticalPods":true})", prio(2'000'000'000),
         true, ""},
        {"priority equal to the threshold", R"({"priorityThreshold":{"value":1000}})", prio(1000), false,
         reason::kPriorityThreshold},
        {"priority above the threshold", R"({"priorityThreshold":{"value":1000}})", prio(5000), false,
         reason::kPriorityThreshold},
        {"priority below the threshold", R"({"priorityThreshold":{"value":1000}})", prio(999), true, ""},
        {"no spec.priority passes the threshold", R"({"priorityThreshold":{"value":-5}})", owned, true, ""},
        {"negative threshold", R"({"priorityThreshold":{"value":-5}})", prio(-5), false, reason::kPriorityThreshold},
        {"threshold unused with evictSystemCriticalPods",
         R"({"evictSystemCriticalPods":true,"priorityThreshold":{"value":10}})", prio(100), true, ""},
        {"system-critical is reported before the threshold", R"({"priorityThreshold":{"value":10}})",
         prio(2'000'000'000), false, reason::kSystemCritical},
    });
}

TEST_CASE("filter: bare and failed bare pods", "[filter]") {
    auto bare = [](kd_pod_phase phase) { return [phase](PodSpec& p) { p.in_phase(phase); }; };
    check_cases({
        {"bare running pod", "{}", bare(KD_POD_RUNNING), false, reason::kBarePod},
        {"bare failed pod without evictFailedBarePods", "{}", bare(KD_POD_FAILED), false, reason::kBarePod},
        {"bare failed pod with evictFailedBarePods", R"({"evictFailedBarePods":true})", bare(KD_POD_FAILED), true, ""},
        {"bare running pod with evictFailedBarePods", R"({"evictFailedBarePods":true})", bare(KD_POD_RUNNING), false,
         reason::kBarePodNotFailed},
        {"bare succeeded pod with evictFailedBarePods", R"({"evictFailedBarePods":true})", bare(KD_POD_SUCCEEDED),
         false, reason::kBarePodNotFailed},
        {"a non-controller owner is an owner", "{}", [](PodSpec& p) { p.owner("ConfigMap", "cm", false); }, true, ""},
        {"podProtections.defaultDisabled FailedBarePods",
         R"({"podProtections":{"defaultDisabled":["FailedBarePods"]}})", bare(KD_POD_FAILED), true, ""},
    });
}

TEST_CASE("filter: labelSelector", "[filter]") {
    auto labelled = [](const char* v) {
        return [v](PodSpec& p) {
            owned(p);
            p.label("app", v);
        };
    };
    check_cases({
        {"matchLabels match", R"({"labelSelector":{"matchLabels":{"app":"web"}}})", labelled("web"), true, ""},
        {"matchLabels mismatch", R"({"labelSelector":{"matchLabels":{"app":"web"}}})", labelled("db"), false,
         reason::kLabelSelector},
        {"label missing", R"({"labelSelector":{"matchLabels":{"app":"web"}}})", owned, false, reason::kLabelSelector},
        {"NotIn expression",
         R"({"labelSelector":{"matchExpressions":[{"key":"app","operator":"NotIn","values":["db"]}]}})", labelled("db"),
         false, reason::kLabelSelector},
        {"NotIn expression, label absent",
         R"({"labelSelector":{"matchExpressions":[{"key":"app","operator":"NotIn","values":["db"]}]}})", owned, true,
         ""},
        {"empty selector matches everything", R"({"labelSelector":{}})", owned, true, ""},
    });
}

TEST_CASE("filter: minReplicas counts the pods sharing the owner", "[filter]") {
    SnapshotBuilder b;
    b.node("n1");
    workload(b, "p");
    workload(b, "p2");
    // Same owner name, different UID: another owner.
    b.pod("default", "other").on("n1").owner("ReplicaSet", "web-rs", true, "another-uid");
    b.pod("default", "bare").on("n1").in_phase(KD_POD_FAILED);
    b.pod("default", "multi").on("n1").owner("ReplicaSet", "solo").owner("Foo", "bar", false);

    SECTION("2 pods < minReplicas 3") {
        auto v = run_filter(b, R"({"minReplicas":3})");
        CHECK_FALSE(v.allowed);
        CHECK(v.reason == reason::kMinReplicas);
    }
    SECTION("2 pods = minReplicas 2") {
        CHECK(run_filter(b, R"({"minReplicas":2})").allowed);
    }
    SECTION("finished pods of the owner count too") {
        workload(b, "p3").in_phase(KD_POD_SUCCEEDED);
        CHECK(run_filter(b, R"({"minReplicas":3})").allowed);
    }
    SECTION("minReplicas 1 checks nothing") {
        CHECK(run_filter(b, R"({"minReplicas":1})", "other").allowed);
    }
    SECTION("a single pod of its owner") {
        auto v = run_filter(b, R"({"minReplicas":2})", "other");
        CHECK_FALSE(v.allowed);
        CHECK(v.reason == reason::kMinReplicas);
    }
    SECTION("bare pods are not checked") {
        CHECK(run_filter(b, R"({"minReplicas":5,"evictFailedBarePods":true})", "bare").allowed);
    }
    SECTION("a pod listing the same owner twice counts once") {
        b.pod("default", "twice")
            .on("n1")
            .owner("ReplicaSet", "x", true, "uid-x")
            .owner("ReplicaSet", "x", false, "uid-x");
        b.pod("default", "single").on("n1").owner("ReplicaSet", "x", true, "uid-x");
        CHECK(run_filter(b, R"({"minReplicas":3})", "single").reason == reason::kMinReplicas);
        CHECK(run_filter(b, R"({"minReplicas":2})", "single").allowed);
    }
    SECTION("pods with several owners are not checked") {
        CHECK(run_filter(b, R"({"minReplicas":5})", "multi").allowed);
    }
}

// Upstream's TestDefaultEvictorFilter minPodAge cases (defaultevictor_test.go@v0.35.1): 50 minutes.
TEST_CASE("filter: minPodAge of 50 minutes, as upstream's cases", "[filter][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    workload(b, "started-10m-ago").started(b.now_ms() - 10 * kMinute);
    workload(b, "started-60m-ago").started(b.now_ms() - 60 * kMinute);
    CHECK(run_filter(b, R"({"minPodAge":"50m"})", "started-10m-ago").reason == reason::kMinPodAge);
    CHECK(run_filter(b, R"({"minPodAge":"50m"})", "started-60m-ago").allowed);
    CHECK(run_filter(b, "{}", "started-60m-ago").allowed);  // nil minPodAge
}

TEST_CASE("filter: minPodAge", "[filter]") {
    SnapshotBuilder b;
    b.node("n1");
    // The age counts from status.startTime, not creationTimestamp (every pod here was created long ago).
    const int64_t long_ago = b.now_ms() - 60 * kMinute;
    workload(b, "young").created(long_ago).started(b.now_ms() - 5 * kMinute);
    workload(b, "exact").created(long_ago).started(b.now_ms() - 10 * kMinute);
    workload(b, "almost").created(long_ago).started(b.now_ms() - 10 * kMinute + 1);
    workload(b, "old").created(long_ago).started(b.now_ms() - 11 * kMinute);
    workload(b, "never-started").created(long_ago);
    const std::string args = R"({"minPodAge":"10m"})";
    CHECK(run_filter(b, args, "never-started").reason == reason::kMinPodAge);
    CHECK(run_filter(b, "{}", "never-started").allowed);
    auto young = run_filter(b, args, "young");
    CHECK_FALSE(young.allowed);
    CHECK(young.reason == reason::kMinPodAge);
    CHECK(run_filter(b, args, "exact").allowed);
    CHECK(run_filter(b, args, "almost").reason == reason::kMinPodAge);
    CHECK(run_filter(b, args, "old").allowed);
    CHECK(run_filter(b, "{}", "young").allowed);
    // Sub-millisecond minimum: a pod 10m old is not yet 10m + 0.5ms old.
    CHECK(run_filter(b, R"({"minPodAge":"10m0.0005s"})", "exact").reason == reason::kMinPodAge);
}

// ---------------------------------------------------------------------------------------------
// PreEvictionFilter: nodeFit

namespace {

// n1 holds the candidate p (1 CPU); n2 is the only other node, with 4 CPU and 8Gi free.
SnapshotBuilder fit_cluster() {
    SnapshotBuilder b;
    b.node("n1").allocatable("cpu", "4").allocatable("memory", "8Gi").label("zone", "a");
    return b;
}

}  // namespace

TEST_CASE("pre-eviction filter: nodeFit", "[nodefit]") {
    SnapshotBuilder b = fit_cluster();
    auto& n2 = b.node("n2").allocatable("cpu", "4").allocatable("memory", "8Gi").label("zone", "b");
    auto& p = b.pod("default", "p").on("n1").owner("ReplicaSet", "web-rs").request("cpu", "1").request("memory", "1Gi");
    const std::string fit = R"({"nodeFit":true})";

    SECTION("without nodeFit everything passes") {
        n2.cordon();
        CHECK(run_pre(b, "{}").allowed);
    }
    SECTION("fits n2") {
        auto v = run_pre(b, fit);
        CHECK(v.allowed);
        CHECK(v.reason.empty());
    }
    SECTION("n2 cordoned") {
        n2.cordon();
        auto v = run_pre(b, fit);
        CHECK_FALSE(v.allowed);
        CHECK(v.reason == reason::kNodeFit);
    }
    SECTION("n2 tainted NoSchedule") {
        n2.taint("dedicated", "gpu", "NoSchedule");
        CHECK(run_pre(b, fit).reason == reason::kNodeFit);
        SECTION("tolerated with Equal") {
            p.tolerate("dedicated", "Equal", "gpu", "NoSchedule");
            CHECK(run_pre(b, fit).allowed);
        }
        SECTION("tolerated with Exists and any effect") {
            p.tolerate("dedicated", "Exists", "", "");
            CHECK(run_pre(b, fit).allowed);
        }
        SECTION("a toleration for another value does not help") {
            p.tolerate("dedicated", "Equal", "cpu", "NoSchedule");
            CHECK(run_pre(b, fit).reason == reason::kNodeFit);
        }
    }
    SECTION("n2 tainted NoExecute") {
        n2.taint("maintenance", "", "NoExecute");
        CHECK(run_pre(b, fit).reason == reason::kNodeFit);
    }
    SECTION("PreferNoSchedule taints do not matter") {
        n2.taint("spot", "true", "PreferNoSchedule");
        CHECK(run_pre(b, fit).allowed);
    }
    SECTION("nodeSelector does not match n2") {
        p.select_node("zone", "c");
        CHECK(run_pre(b, fit).reason == reason::kNodeFit);
    }
    SECTION("nodeSelector matches n2") {
        p.select_node("zone", "b");
        CHECK(run_pre(b, fit).allowed);
    }
    SECTION("required node affinity") {
        p.require_node("zone", "In", {"a"});
        CHECK(run_pre(b, fit).reason == reason::kNodeFit);  // only its own node matches
        p.require_node("zone", "In", {"b"});                // OR-ed second term
        CHECK(run_pre(b, fit).allowed);
    }
    SECTION("required node affinity on the node name") {
        p.affinity.push_back({{}, {{"metadata.name", "In", {"n2"}}}});
        p.flags |= KD_POD_HAS_NODE_AFFINITY;
        CHECK(run_pre(b, fit).allowed);
        p.affinity.back().fields = {{"metadata.name", "NotIn", {"n2"}}};
        CHECK(run_pre(b, fit).reason == reason::kNodeFit);
    }
    SECTION("a required anti-affinity term selecting a pod on n2 (upstream NodeFit)") {
        SnapshotBuilder::PodSpec::AffinityTerm term;
        term.topology_key = "kubernetes.io/hostname";
        term.has_label_selector = true;
        term.match_labels = {{"app", "cache"}};
        p.anti_affinity_to(term);
        n2.label("kubernetes.io/hostname", "n2");
        CHECK(run_pre(b, fit).allowed);  // nothing to avoid on n2 yet
        auto& cache = b.pod("default", "cache").on("n2").owner("ReplicaSet", "cache").label("app", "cache");
        CHECK(run_pre(b, fit).reason == reason::kNodeFit);
        cache.in_phase(KD_POD_SUCCEEDED);  // a finished pod is not avoided
        CHECK(run_pre(b, fit).allowed);
        cache.in_phase(KD_POD_RUNNING);
        n2.labels.clear();  // a node without the term's topology key is no domain of it
        CHECK(run_pre(b, fit).allowed);
    }
    SECTION("cpu exhausted on n2") {
        b.pod("default", "big").on("n2").owner("ReplicaSet", "big").request("cpu", "3500m");
        CHECK(run_pre(b, fit).reason == reason::kNodeFit);
    }
    SECTION("exactly the free amount fits") {
        b.pod("default", "big").on("n2").owner("ReplicaSet", "big").request("cpu", "3").request("memory", "7Gi");
        CHECK(run_pre(b, fit).allowed);
    }
    SECTION("finished pods hold no resources") {
        b.pod("default", "done")
            .on("n2")
            .owner("Job", "j")
            .request("cpu", "4")
            .request("memory", "8Gi")
            .in_phase(KD_POD_SUCCEEDED);
        b.pod("default", "failed").on("n2").owner("Job", "j").request("cpu", "4").in_phase(KD_POD_FAILED);
        CHECK(run_pre(b, fit).allowed);
        b.pod("default", "pending").on("n2").owner("Job", "j").request("cpu", "4").in_phase(KD_POD_PENDING);
        CHECK(run_pre(b, fit).reason == reason::kNodeFit);
    }
    SECTION("memory exhausted on n2") {
        b.pod("default", "big").on("n2").owner("ReplicaSet", "big").request("memory", "7.5Gi");
        CHECK(run_pre(b, fit).reason == reason::kNodeFit);
    }
    SECTION("an extended resource n2 does not have") {
        p.request("nvidia.com/gpu", "1");
        CHECK(run_pre(b, fit).reason == reason::kNodeFit);
        n2.allocatable("nvidia.com/gpu", "1");
        CHECK(run_pre(b, fit).allowed);
    }
    SECTION("the pod's own node is never a target") {
        n2.cordon();  // n1 has room and matches everything, but it is where the pod runs
        CHECK(run_pre(b, fit).reason == reason::kNodeFit);
    }
    SECTION("a not-ready node is never a target") {
        n2.not_ready();
        CHECK(run_pre(b, fit).reason == reason::kNodeFit);
    }
    SECTION("the evict annotation does not bypass nodeFit") {
        p.annotation("descheduler.alpha.kubernetes.io/evict", "");
        n2.cordon();
        CHECK(run_pre(b, fit).reason == reason::kNodeFit);
    }
}

TEST_CASE("pre-eviction filter: nodeSelector limits the target nodes", "[nodefit]") {
    SnapshotBuilder b = fit_cluster();
    b.node("n2").allocatable("cpu", "4").allocatable("memory", "8Gi").label("pool", "a");
    auto& n3 = b.node("n3").allocatable("cpu", "4").allocatable("memory", "8Gi").label("pool", "b");
    workload(b, "p");

    CHECK(run_pre(b, R"({"nodeFit":true,"nodeSelector":"pool=b"})").allowed);
    CHECK(run_pre(b, R"j({"nodeFit":true,"nodeSelector":"pool notin (a,b)"})j").reason == reason::kNodeFit);
    n3.cordon();
    CHECK(run_pre(b, R"({"nodeFit":true,"nodeSelector":"pool=b"})").reason == reason::kNodeFit);
    CHECK(run_pre(b, R"({"nodeFit":true,"nodeSelector":"pool"})").allowed);  // n2 has the key
    // nodeSelector alone (without nodeFit) changes nothing, as upstream.
    CHECK(run_pre(b, R"({"nodeSelector":"pool=zzz"})").allowed);
}

// ---------------------------------------------------------------------------------------------
// Evict

TEST_CASE("evict: through the host's Eviction API", "[evict]") {
    SnapshotBuilder b;
    b.node("n1");
    workload(b, "p");
    FakeHost host;
    auto plugin = host.instantiate<DefaultEvictor>("{}");
    const kd_snapshot* s = b.build();
    auto pod = kd::Snapshot(s).find_pod("default", "p");
    REQUIRE(pod);

    SECTION("success") {
        kd::EvictOutcome out = plugin.evict(s, *pod, "LowNodeLoad: node n1 is hot");
        CHECK(out.code == KD_EVICT_ACCEPTED);
        CHECK(out.evicted());
        CHECK(out.plugin == "DefaultEvictor");
        REQUIRE(host.cluster_evictions().size() == 1);
        CHECK(host.cluster_evictions()[0].pod == "default/p");
        CHECK(host.cluster_evictions()[0].node == "n1");
        CHECK(host.cluster_evictions()[0].reason == "LowNodeLoad: node n1 is hot");
    }
    SECTION("failure carries the API error") {
        host.on_evict_pod = [](const kd::Pod&) {
            return std::string("Cannot evict pod as it would violate the pod's disruption budget.");
        };
        kd::EvictOutcome out = plugin.evict(s, *pod, "why");
        CHECK(out.code == KD_EVICT_FAILED);
        CHECK_FALSE(out.evicted());
        CHECK(out.plugin == "DefaultEvictor");
        CHECK(out.reason == "Cannot evict pod as it would violate the pod's disruption budget.");
        CHECK(host.cluster_evictions().size() == 1);
    }
    // The evict hook does not filter: the host's evictor proxy ran the filters before calling it.
    SECTION("no filtering in evict") {
        b.pod("default", "mirror").on("n1").annotation("kubernetes.io/config.mirror", "x");
        const kd_snapshot* s2 = b.build();
        auto m = kd::Snapshot(s2).find_pod("default", "mirror");
        REQUIRE(m);
        CHECK(plugin.evict(s2, *m, "r").code == KD_EVICT_ACCEPTED);
    }
}

TEST_CASE("create: defaults accept an empty args object", "[args]") {
    CHECK(create_error("{}").empty());
    CHECK(create_error("").empty());
    CHECK(create_error(R"({"namespaceLabelSelector":{},"priorityThreshold":{"name":""},"ignorePodsWithoutPDB":false})")
              .empty());
}

// ---------------------------------------------------------------------------------------------
// PodsWithoutPDB and namespaceLabelSelector: the host's Namespaces and PodDisruptionBudgets
// (kd_snapshot.list_objects, plugin API 1.7).

namespace {

std::string pdb_json(const std::string& ns, const std::string& name, const std::string& selector) {
    return R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"namespace":")" + ns +
           R"(","name":")" + name + R"("},"spec":{)" + (selector.empty() ? "" : R"("selector":)" + selector) +
           R"(},"status":{"disruptionsAllowed":1}})";
}

std::string namespace_json(const std::string& name, const std::string& labels) {
    return R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + name + R"(","labels":)" + labels + "}}";
}

}  // namespace

// Upstream's "ignorePodsWithoutPDB, pod with no PDBs, no eviction", "…, pod with PDBs, evicts" and
// "Pod without PDB is not evicted because 'PodsWithoutPDB' is in ExtraEnabled" (defaultevictor_test.go@v0.35.1).
TEST_CASE("filter: PodsWithoutPDB, as upstream's cases", "[filter][upstream]") {
    for (std::string args :
         {R"({"ignorePodsWithoutPDB":true})", R"({"podProtections":{"extraEnabled":["PodsWithoutPDB"]}})"}) {
        INFO(args);
        SnapshotBuilder without;
        without.node("n1");
        workload(without, "p1").label("app", "foo");
        CHECK(run_filter(without, args, "p1").reason == reason::kWithoutPDB);
        SnapshotBuilder with;
        with.node("n1");
        workload(with, "p1").label("app", "foo");
        with.objects("PodDisruptionBudget",
                     "[" + pdb_json("default", "pdb1", R"({"matchLabels":{"app":"foo"}})") + "]");
        CHECK(run_filter(with, args, "p1").allowed);
    }
}

TEST_CASE("filter: PodsWithoutPDB reads each budget's selector as IsPodCoveredByPDB does", "[filter]") {
    SnapshotBuilder b;
    b.node("n1");
    workload(b, "web").label("app", "web");
    workload(b, "db").label("app", "db");
    b.pod("other", "web").on("n1").owner("ReplicaSet", "web-rs").label("app", "web");
    b.pod("everything", "x").on("n1").owner("ReplicaSet", "x-rs");
    b.objects("PodDisruptionBudget",
              "[" + pdb_json("default", "web", R"({"matchLabels":{"app":"web"}})") + "," +
                  pdb_json("default", "no-selector", "") + "," +  // selects no pod
                  pdb_json("default", "invalid", R"({"matchExpressions":[{"key":"app","operator":"In"}]})") + "," +
                  pdb_json("everything", "all", "{}") + "]");
    const std::string args = R"({"ignorePodsWithoutPDB":true})";
    FakeHost host;
    auto plugin = host.instantiate<DefaultEvictor>(args);
    const kd_snapshot* s = b.build();
    kd::Snapshot snap(s);
    auto verdict = [&](const char* ns, const char* name) { return plugin.filter(s, *snap.find_pod(ns, name)); };
    CHECK(verdict("default", "web").allowed);
    CHECK(verdict("default", "db").reason == reason::kWithoutPDB);  // the invalid selector matches nothing
    CHECK(verdict("other", "web").reason == reason::kWithoutPDB);   // a budget covers its own namespace only
    CHECK(verdict("everything", "x").allowed);                      // {} selects every pod
}

TEST_CASE("preEvictionFilter: namespaceLabelSelector", "[preevictionfilter]") {
    SnapshotBuilder b;
    b.node("n1");
    b.node("n2");
    workload(b, "p");
    b.objects("Namespace",
              "[" + namespace_json("default", R"({"team":"a","kubernetes.io/metadata.name":"default"})") + "]");
    CHECK(run_pre(b, R"({"namespaceLabelSelector":{"matchLabels":{"team":"a"}}})").allowed);
    CHECK(run_pre(b, R"({"namespaceLabelSelector":{"matchLabels":{"team":"b"}}})").reason ==
          reason::kNamespaceLabelSelector);
    // matchExpressions count too once matchLabels makes upstream read the selector…
    CHECK(run_pre(b, R"({"namespaceLabelSelector":{"matchLabels":{"team":"a"},)"
                     R"("matchExpressions":[{"key":"team","operator":"NotIn","values":["a"]}]}})")
              .reason == reason::kNamespaceLabelSelector);
    // …and without matchLabels it is not read at all.
    CHECK(
        run_pre(b, R"({"namespaceLabelSelector":{"matchExpressions":[{"key":"team","operator":"In","values":["b"]}]}})")
            .allowed);
    // A Namespace the host does not know (an older host lists none) is not selected.
    SnapshotBuilder unknown;
    unknown.node("n1");
    workload(unknown, "p");
    CHECK(run_pre(unknown, R"({"namespaceLabelSelector":{"matchLabels":{"team":"a"}}})").reason ==
          reason::kNamespaceLabelSelector);
}

// ---------------------------------------------------------------------------------------------
// priorityThreshold.name and protectedStorageClasses: the host's PriorityClasses and
// PersistentVolumeClaims (kd_snapshot.list_objects, plugin API 1.8).

namespace {

std::string priority_class_json(const std::string& name, int32_t value) {
    return R"({"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":")" + name +
           R"("},"value":)" + std::to_string(value) + "}";
}

// A claim; `storage_class` null leaves spec.storageClassName out.
std::string pvc_json(const std::string& ns, const std::string& name, const char* storage_class) {
    std::string spec = storage_class ? R"({"storageClassName":")" + std::string(storage_class) + R"("})" : "{}";
    return R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"namespace":")" + ns + R"(","name":")" +
           name + R"("},"spec":)" + spec + "}";
}

const std::string kHighAndLow = "[" + priority_class_json("high", 900) + "," + priority_class_json("low", 800) + "]";

}  // namespace

// Upstream's threshold cases (defaultevictor_test.go@v0.35.1, "Pod not evicted because it has a
// priority higher than the configured priority threshold" and its evictSystemCriticalPods
// variants), with the threshold named instead of given: low = 800, the pod's priority 900.
TEST_CASE("filter: priorityThreshold.name is the named PriorityClass's value", "[filter][upstream]") {
    auto run = [](const std::string& args, int32_t priority, bool annotated = false) {
        SnapshotBuilder b;
        b.node("n1");
        auto& p = workload(b, "p").with_priority(priority);
        if (annotated) p.annotation("descheduler.alpha.kubernetes.io/evict", "true");
        b.objects("PriorityClass", kHighAndLow);
        return run_filter(b, args);
    };
    CHECK(run(R"({"priorityThreshold":{"name":"low"}})", 900).reason == reason::kPriorityThreshold);
    CHECK(run(R"({"priorityThreshold":{"name":"low"}})", 800).reason == reason::kPriorityThreshold);
    CHECK(run(R"({"priorityThreshold":{"name":"low"}})", 799).allowed);
    CHECK(run(R"({"priorityThreshold":{"name":"high"}})", 899).allowed);
    CHECK(run(R"({"priorityThreshold":{"name":"low"}})", 900, true).allowed);
    CHECK(run(R"({"priorityThreshold":{"name":"low"},"evictSystemCriticalPods":true})", 900).allowed);
    CHECK(
        run(R"({"priorityThreshold":{"name":"low"},"podProtections":{"defaultDisabled":["SystemCriticalPods"]}})", 900)
            .allowed);
}

TEST_CASE("filter: a priorityThreshold.name the host does not list fails every filter call, loudly", "[filter]") {
    SnapshotBuilder b;
    b.node("n1");
    workload(b, "p").with_priority(10);
    workload(b, "annotated").annotation("descheduler.alpha.kubernetes.io/evict", "true");
    b.objects("PriorityClass", kHighAndLow);
    FakeHost host;
    auto plugin = host.instantiate<DefaultEvictor>(R"({"priorityThreshold":{"name":"missing"}})");
    const kd_snapshot* s = b.build();
    kd::Snapshot snap(s);
    const std::string expected =
        "priorityThreshold.name: PriorityClass \"missing\" does not exist (the host lists 2 "
        "PriorityClasses); create it or give priorityThreshold.value instead";
    // Upstream would have no plugin at all: even the evict annotation does not pass.
    for (const char* name : {"p", "annotated", "p"}) {
        INFO(name);
        CHECK_THROWS_WITH(plugin.filter(s, *snap.find_pod("default", name)), Catch::Contains(expected));
    }
    // Said once per snapshot revision in the log, not once per pod.
    REQUIRE(host.logs().size() == 1);
    CHECK_THAT(host.logs()[0], Catch::Contains(expected) && Catch::Contains("DefaultEvictor lets no pod be evicted"));

    // The class appears: the threshold applies from the next snapshot (revision) on.
    b.objects("PriorityClass", "[" + priority_class_json("missing", 5) + "]");
    const kd_snapshot* s2 = b.build();
    CHECK(plugin.filter(s2, *kd::Snapshot(s2).find_pod("default", "p")).reason == reason::kPriorityThreshold);
    CHECK(host.logs().size() == 1);

    // Not read at all while system-critical pods are not protected (as upstream).
    SnapshotBuilder none;
    none.node("n1");
    workload(none, "p").with_priority(10);
    CHECK(run_filter(none, R"({"priorityThreshold":{"name":"missing"},"evictSystemCriticalPods":true})").allowed);
    // A host that may not list PriorityClasses lists none: the same failure.
    CHECK_THROWS_WITH(run_filter(none, R"({"priorityThreshold":{"name":"low"}})"),
                      Catch::Contains("PriorityClass \"low\" does not exist (the host lists 0 PriorityClasses)"));
}

TEST_CASE("filter: a named PriorityClass above system-critical priority fails as upstream's", "[filter]") {
    SnapshotBuilder b;
    b.node("n1");
    workload(b, "p").with_priority(10);
    b.objects("PriorityClass", "[" + priority_class_json("too-high", 2'000'000'001) + "]");
    CHECK_THROWS_WITH(run_filter(b, R"({"priorityThreshold":{"name":"too-high"}})"),
                      Catch::Contains("PriorityClass \"too-high\" has value 2000000001, above 2000000000"));
}

// Upstream's four storage-class cases (defaultevictor_test.go@v0.35.1: "Pod using StorageClass is
// not evicted …", "Pod using unprotected StorageClass is evicted …", "Pod using unexisting PVC is
// not evicted …", "Pod using protected and unprotected StorageClasses is not evicted").
TEST_CASE("filter: protectedStorageClasses, as upstream's cases", "[filter][upstream]") {
    auto args = [](const std::string& classes) {
        return R"({"podProtections":{"extraEnabled":["PodsWithPVC"],"config":{"PodsWithPVC":{"protectedStorageClasses":[)" +
               classes + "]}}}}";
    };
    struct Case {
        const char* name;
        std::string args;
        std::vector<std::string> claims;
        std::string pvcs;
        bool allowed;
        std::string reason;
    };
    const std::vector<Case> cases = {
        {"a claim of a protected class",
         args(R"({"name":"standard"})"),
         {"foo"},
         pvc_json("default", "foo", "standard"),
         false,
         reason::kPVC},
        {"a claim of an unprotected class",
         args(R"({"name":"protected"})"),
         {"foo"},
         pvc_json("default", "foo", "unprotected"),
         true,
         ""},
        {"a claim the host does not list",
         args(R"({"name":"protected"})"),
         {"foo"},
         "",
         false,
         reason::kUnknownStorageClass},
        {"claims of a protected and an unprotected class",
         args(R"({"name":"protected"})"),
         {"protected", "unprotected"},
         pvc_json("default", "protected", "protected") + "," + pvc_json("default", "unprotected", "unprotected"),
         false,
         reason::kPVC},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            SnapshotBuilder b;
            b.node("n1");
            auto& p = workload(b, "p");
            for (const auto& claim : c.claims) p.pvc_volume(claim);
            b.objects("PersistentVolumeClaim", "[" + c.pvcs + "]");
            kd::Verdict v = run_filter(b, c.args);
            CHECK(v.allowed == c.allowed);
            CHECK(v.reason == c.reason);
        }
    }
}

TEST_CASE("filter: protectedStorageClasses reads each claim as podStorageClasses does", "[filter]") {
    const std::string on =
        R"({"podProtections":{"extraEnabled":["PodsWithPVC"],"config":{"PodsWithPVC":{"protectedStorageClasses":[{"name":"fast"},{"name":"gold"}]}}}})";
    SnapshotBuilder b;
    b.node("n1");
    workload(b, "gold").pvc_volume("gold-claim");
    workload(b, "slow").pvc_volume("slow-claim");
    workload(b, "classless").pvc_volume("no-class");
    workload(b, "empty-class").pvc_volume("empty-class");
    workload(b, "elsewhere").pvc_volume("other-ns-claim");
    workload(b, "unknown-then-slow").pvc_volume("missing").pvc_volume("slow-claim");
    workload(b, "no-claims");
    b.pod("other", "p").on("n1").owner("ReplicaSet", "rs").pvc_volume("other-ns-claim");
    b.objects("PersistentVolumeClaim",
              "[" + pvc_json("default", "gold-claim", "gold") + "," + pvc_json("default", "slow-claim", "slow") + "," +
                  pvc_json("default", "no-class", nullptr) + "," + pvc_json("default", "empty-class", "") + "," +
                  pvc_json("other", "other-ns-claim", "fast") + "]");
    FakeHost host;
    auto plugin = host.instantiate<DefaultEvictor>(on);
    const kd_snapshot* s = b.build();
    kd::Snapshot snap(s);
    auto verdict = [&](const char* ns, const char* name) { return plugin.filter(s, *snap.find_pod(ns, name)); };
    CHECK(verdict("default", "gold").reason == reason::kPVC);  // the second class listed counts too
    CHECK(verdict("default", "slow").allowed);
    CHECK(verdict("default", "classless").reason == reason::kUnknownStorageClass);    // no storageClassName
    CHECK(verdict("default", "empty-class").reason == reason::kUnknownStorageClass);  // "" is none
    CHECK(verdict("default", "elsewhere").reason == reason::kUnknownStorageClass);    // claims are per namespace
    CHECK(verdict("default", "unknown-then-slow").reason == reason::kUnknownStorageClass);
    CHECK(verdict("default", "no-claims").allowed);
    CHECK(verdict("other", "p").reason == reason::kPVC);

    // Without PodsWithPVC the classes are not read (upstream reads config only for it), and the
    // deprecated ignorePvcPods turns it on with them.
    SnapshotBuilder one;
    one.node("n1");
    workload(one, "p").pvc_volume("missing");
    CHECK(run_filter(one, R"({"podProtections":{"config":{"PodsWithPVC":{"protectedStorageClasses":[{"name":"x"}]}}}})")
              .allowed);
    CHECK(
        run_filter(
            one,
            R"({"ignorePvcPods":true,"podProtections":{"config":{"PodsWithPVC":{"protectedStorageClasses":[{"name":"x"}]}}}})")
            .reason == reason::kUnknownStorageClass);
    // An empty list is no limit: every pod with a claim is protected.
    CHECK(run_filter(one, R"({"ignorePvcPods":true,"podProtections":{"config":{"PodsWithPVC":{}}}})").reason ==
          reason::kPVC);
}
