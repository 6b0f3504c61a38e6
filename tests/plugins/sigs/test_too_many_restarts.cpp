// RemovePodsHavingTooManyRestarts. The first part: the cases of upstream's table test
// (pkg/framework/plugins/removepodshavingtoomanyrestarts/toomanyrestarts_test.go@v0.35.1, named by
// their descriptions) as facts; upstream counts the evictions, we name them too. Then our own.
#include "sigs_test.hpp"

using namespace sigs_test;
using kd::plugins::sigs::RemovePodsHavingTooManyRestarts;

namespace {

struct Variant {
    bool app_crash_loop = false;   // the first app container waits in CrashLoopBackOff
    bool init_crash_loop = false;  // the init status replaced by one waiting in CrashLoopBackOff
    kd_pod_phase phase = KD_POD_RUNNING;
};

// Upstream's initPods: pod-0 … pod-9 on node1, pod-i with 5i init restarts and 2 × 10i app
// restarts; pod-6 a DaemonSet's, pod-7 with local storage, pod-8 a mirror pod (the evictor keeps
// those three). Plus a 150m CPU consumer on node4 and on node5.
void init_pods(SnapshotBuilder& b, Variant v = {}) {
    for (int i = 0; i <= 9; ++i) {
        auto& pod = b.pod("default", "pod-" + std::to_string(i)).on("node1").in_phase(v.phase).request("cpu", "100m");
        if (i == 6)
            pod.owner("DaemonSet", "daemonset-1", false);
        else
            pod.owner("Pod", "pod-owner", false);
        if (i == 7) pod.set_flag(KD_POD_LOCAL_STORAGE);
        if (i == 8) pod.annotation("kubernetes.io/config.mirror", "mirror");
        if (v.init_crash_loop)
            pod.container_status("init", 0, KD_CONTAINER_STATE_WAITING, "CrashLoopBackOff", 0, KD_CONTAINER_INIT);
        else
            pod.container_status("init", 5 * i, KD_CONTAINER_STATE_UNKNOWN, "", 0, KD_CONTAINER_INIT);
        if (v.app_crash_loop)
            pod.container_status("a", 10 * i, KD_CONTAINER_STATE_WAITING, "CrashLoopBackOff");
        else
            pod.container_status("a", 10 * i, KD_CONTAINER_STATE_UNKNOWN);
        pod.container_status("b", 10 * i, KD_CONTAINER_STATE_UNKNOWN);
    }
    b.pod("default", "CPU-consumer-1")
        .on("node4")
        .owner("Pod", "pod-owner", false)
        .request("cpu", "150m")
        .request("memory", "100");
    b.pod("default", "CPU-consumer-2")
        .on("node5")
        .owner("Pod", "pod-owner", false)
        .request("cpu", "150m")
        .request("memory", "100");
}

// test.BuildTestNode(name, 2000, 3000, 10)
SnapshotBuilder::NodeSpec& upstream_node(SnapshotBuilder& b, const std::string& name,
                                         const std::string& cpu = "2000m") {
    return b.node(name).allocatable("cpu", cpu).allocatable("memory", "3000").allocatable("pods", "10");
}

std::string args(int threshold, bool init) {
    return R"({"podRestartThreshold": )" + std::to_string(threshold) + R"(, "includingInitContainers": )" +
           (init ? "true" : "false") + "}";
}

Pods pods(std::initializer_list<int> ids) {
    Pods out;
    for (int i : ids) out.push_back("default/pod-" + std::to_string(i));
    return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Upstream's cases

TEST_CASE("RemovePodsHavingTooManyRestarts: one node", "[toomanyrestarts][upstream]") {
    SnapshotBuilder b;
    upstream_node(b, "node1");
    init_pods(b);
    Profile p;
    SECTION("All pods have total restarts under threshold, no pod evictions") {
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(10000, true)).empty());
    }
    SECTION("Some pods have total restarts bigger than threshold") {
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(1, true)) == pods({9, 5, 4, 3, 2, 1}));
    }
    SECTION("Nine pods have total restarts equals threshold(includingInitContainers=true), 6 pod evictions") {
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(25, true)) == pods({9, 5, 4, 3, 2, 1}));
    }
    SECTION("Nine pods have total restarts equals threshold(includingInitContainers=false), 5 pod evictions") {
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(25, false)) == pods({9, 5, 4, 3, 2}));
    }
    SECTION("All pods have total restarts equals threshold(includingInitContainers=true), 6 pod evictions") {
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(20, true)) == pods({9, 5, 4, 3, 2, 1}));
    }
    SECTION("Nine pods have total restarts equals threshold(includingInitContainers=false), 6 pod evictions") {
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(20, false)) == pods({9, 5, 4, 3, 2, 1}));
    }
    SECTION(
        "Five pods have total restarts bigger than threshold(includingInitContainers=true), but only 1 pod "
        "eviction") {
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(5 * 25 + 1, true)) == pods({9}));
    }
    SECTION(
        "Five pods have total restarts bigger than threshold(includingInitContainers=false), but only 1 pod "
        "eviction") {
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(5 * 20 + 1, false)) == pods({9}));
    }
    SECTION("All pods have total restarts equals threshold(maxPodsToEvictPerNode=3), 3 pod evictions") {
        p.host.limits.per_node = 3;
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(1, true)) == pods({9, 5, 4}));
    }
    SECTION("All pods have total restarts equals threshold(maxNoOfPodsToEvictPerNamespace=3), 3 pod evictions") {
        p.host.limits.per_namespace = 3;
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(1, true)) == pods({9, 5, 4}));
    }
}

TEST_CASE("RemovePodsHavingTooManyRestarts: nodeFit", "[toomanyrestarts][upstream]") {
    SnapshotBuilder b;
    upstream_node(b, "node1");
    init_pods(b);
    Profile p(R"({"nodeFit": true})");
    p.host.limits.per_node = 3;
    SECTION(
        "All pods have total restarts equals threshold(maxPodsToEvictPerNode=3) but the only other node is "
        "tainted, 0 pod evictions") {
        upstream_node(b, "node2").taint("hardware", "gpu", "NoSchedule");
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(1, true)).empty());
    }
    SECTION(
        "All pods have total restarts equals threshold(maxPodsToEvictPerNode=3) but the only other node is not "
        "schedulable, 0 pod evictions") {
        upstream_node(b, "node3").cordon();
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(1, true)).empty());
    }
    SECTION(
        "All pods have total restarts equals threshold(maxPodsToEvictPerNode=3) but the only other node does not "
        "have enough CPU, 0 pod evictions") {
        upstream_node(b, "node4", "200m");
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(1, true)).empty());
    }
    SECTION(
        "All pods have total restarts equals threshold(maxPodsToEvictPerNode=3) but the only other node has "
        "enough CPU, 3 pod evictions") {
        upstream_node(b, "node5");
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(1, true)) == pods({9, 5, 4}));
    }
}

TEST_CASE("RemovePodsHavingTooManyRestarts: states", "[toomanyrestarts][upstream]") {
    SnapshotBuilder b;
    upstream_node(b, "node1");
    Profile p;
    p.host.limits.per_node = 3;
    SECTION("pods are in CrashLoopBackOff with states=CrashLoopBackOff, 3 pod evictions") {
        upstream_node(b, "node5");
        init_pods(b, {.app_crash_loop = true});
        Profile fit(R"({"nodeFit": true})");
        fit.host.limits.per_node = 3;
        CHECK(fit.run<RemovePodsHavingTooManyRestarts>(
                  b, R"({"podRestartThreshold": 1, "states": ["CrashLoopBackOff"]})") == pods({9, 5, 4}));
    }
    SECTION("pods without CrashLoopBackOff with states=CrashLoopBackOff, 0 pod evictions") {
        upstream_node(b, "node5");
        init_pods(b);
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, R"({"podRestartThreshold": 1, "states": ["CrashLoopBackOff"]})")
                  .empty());
    }
    SECTION("pods running with state=Running, 3 pod evictions") {
        init_pods(b, {.phase = KD_POD_RUNNING});
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, R"({"podRestartThreshold": 1, "states": ["Running"]})") ==
              pods({9, 5, 4}));
    }
    SECTION("pods pending with state=Running, 0 pod evictions") {
        init_pods(b, {.phase = KD_POD_PENDING});
        CHECK(
            p.run<RemovePodsHavingTooManyRestarts>(b, R"({"podRestartThreshold": 1, "states": ["Running"]})").empty());
    }
    SECTION(
        "pods pending with initContainer with states=CrashLoopBackOff threshold(includingInitContainers=true), 3 "
        "pod evictions") {
        init_pods(b, {.init_crash_loop = true, .phase = KD_POD_PENDING});
        CHECK(
            p.run<RemovePodsHavingTooManyRestarts>(
                b, R"({"podRestartThreshold": 1, "states": ["CrashLoopBackOff"], "includingInitContainers": true})") ==
            pods({9, 5, 4}));
    }
    SECTION(
        "pods pending with initContainer with states=CrashLoopBackOff threshold(includingInitContainers=false), 0 "
        "pod evictions") {
        init_pods(b, {.init_crash_loop = true, .phase = KD_POD_PENDING});
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(
                   b, R"({"podRestartThreshold": 1, "states": ["CrashLoopBackOff"], "includingInitContainers": false})")
                  .empty());
    }
}

TEST_CASE("RemovePodsHavingTooManyRestarts: validation (upstream's validation_test.go)",
          "[toomanyrestarts][upstream][args]") {
    CHECK(create_error<RemovePodsHavingTooManyRestarts>(R"({"podRestartThreshold": 1})") == "");
    CHECK(create_error<RemovePodsHavingTooManyRestarts>(
              R"({"podRestartThreshold": 1, "states": ["Running", "CrashLoopBackOff"]})") == "");
    CHECK(create_error<RemovePodsHavingTooManyRestarts>("{}") ==
          "podRestartThreshold: invalid PodsHavingTooManyRestarts threshold");
    CHECK(create_error<RemovePodsHavingTooManyRestarts>(R"({"podRestartThreshold": -1})") ==
          "podRestartThreshold: invalid PodsHavingTooManyRestarts threshold");
    CHECK(create_error<RemovePodsHavingTooManyRestarts>(R"({"podRestartThreshold": 1, "states": ["Pending"]})") ==
          "states: states must be one of [CrashLoopBackOff Running]");
    CHECK(create_error<RemovePodsHavingTooManyRestarts>(
              R"({"podRestartThreshold": 1, "namespaces": {"include": ["a"], "exclude": ["b"]}})") ==
          "namespaces: only one of Include/Exclude namespaces can be set");
    // valid arg, no errors; invalid States arg; allows CrashLoopBackOff state; both invalid.
    CHECK(create_error<RemovePodsHavingTooManyRestarts>(R"({"podRestartThreshold": 1, "states": ["Running"]})") == "");
    CHECK(create_error<RemovePodsHavingTooManyRestarts>(R"({"podRestartThreshold": 1, "states": ["Failed"]})") ==
          "states: states must be one of [CrashLoopBackOff Running]");
    CHECK(create_error<RemovePodsHavingTooManyRestarts>(
              R"({"podRestartThreshold": 1, "states": ["CrashLoopBackOff"]})") == "");
    CHECK(create_error<RemovePodsHavingTooManyRestarts>(R"({"podRestartThreshold": 0, "states": ["Failed"]})") ==
          "podRestartThreshold: invalid PodsHavingTooManyRestarts threshold\n"
          "states: states must be one of [CrashLoopBackOff Running]");
}

// ---------------------------------------------------------------------------------------------
// Our own

TEST_CASE("RemovePodsHavingTooManyRestarts: states reads waiting reasons, not terminated ones", "[toomanyrestarts]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "waiting")
        .in_phase(KD_POD_PENDING)
        .container_status("c", 5, KD_CONTAINER_STATE_WAITING, "CrashLoopBackOff");
    rs_pod(b, "terminated")
        .in_phase(KD_POD_PENDING)
        .container_status("c", 5, KD_CONTAINER_STATE_TERMINATED, "CrashLoopBackOff");
    Profile p;
    CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, R"({"podRestartThreshold": 5, "states": ["CrashLoopBackOff"]})") ==
          Pods{"default/waiting"});
}

TEST_CASE("RemovePodsHavingTooManyRestarts: ephemeral containers' restarts never count", "[toomanyrestarts]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "p").container_status("e", 9, KD_CONTAINER_STATE_RUNNING, "", 0, KD_CONTAINER_EPHEMERAL);
    Profile p;
    CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(1, true)).empty());
}

TEST_CASE("RemovePodsHavingTooManyRestarts: most restarts first, ties in the node's order, node by node",
          "[toomanyrestarts][limits]") {
    SnapshotBuilder b;
    b.node("n1");
    b.node("n2");
    rs_pod(b, "a3", "n1").container_status("c", 3);
    rs_pod(b, "a7", "n1").container_status("c", 7);
    rs_pod(b, "a3b", "n1").container_status("c", 3);
    rs_pod(b, "b9", "n2").container_status("c", 9);
    Profile p;
    SECTION("no limits: n1's pods, then n2's") {
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(3, false)) ==
              Pods{"default/a7", "default/a3", "default/a3b", "default/b9"});
    }
    SECTION("a node's limit ends that node only") {
        p.host.limits.per_node = 1;
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(3, false)) == Pods{"default/a7", "default/b9"});
        CHECK(p.requests() == 3);
    }
    SECTION("the total limit ends the cycle") {
        p.host.limits.total = 1;
        CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(3, false)) == Pods{"default/a7"});
        CHECK(p.requests() == 2);
    }
}

TEST_CASE("RemovePodsHavingTooManyRestarts: namespaces, labelSelector and the evictor's filter",
          "[toomanyrestarts][filter]") {
    SnapshotBuilder b;
    b.node("n1");
    b.pod("a", "pa").on("n1").owner("ReplicaSet", "rs").label("app", "web").container_status("c", 4);
    b.pod("b", "pb").on("n1").owner("ReplicaSet", "rs").label("app", "db").container_status("c", 4);
    Profile p;
    CHECK(p.run<RemovePodsHavingTooManyRestarts>(
              b, R"({"podRestartThreshold": 4, "namespaces": {"include": ["b"]}})") == Pods{"b/pb"});
    p.host.clear();
    CHECK(p.run<RemovePodsHavingTooManyRestarts>(
              b, R"({"podRestartThreshold": 4, "labelSelector": {"matchLabels": {"app": "web"}}})") == Pods{"a/pa"});
    p.host.clear();
    p.host.on_filter = [](const kd::Pod& pod) {
        return pod.name() == "pa" ? kd::Verdict::reject("Kept") : kd::Verdict::allow();
    };
    CHECK(p.run<RemovePodsHavingTooManyRestarts>(b, args(4, false)) == Pods{"b/pb"});
    CHECK(p.requests() == 1);
}
