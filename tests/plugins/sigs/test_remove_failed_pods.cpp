// RemoveFailedPods. The first part: the cases of upstream's table test
// (pkg/framework/plugins/removefailedpods/failedpods_test.go@v0.35.1, named by their
// descriptions) as facts. Upstream builds the plugin there without its defaults, so an unset
// minPodLifetimeSeconds means no age check: `"minPodLifetimeSeconds": 0` says the same here (the
// pods are created at `now`). Then our own, per arg.
#include "sigs_test.hpp"

using namespace sigs_test;
using kd::plugins::sigs::RemoveFailedPods;

namespace {

// createRemoveFailedPodsArgs with minAgeSeconds nil.
std::string no_min(const std::string& more = "") {
    return R"({"minPodLifetimeSeconds": 0)" + (more.empty() ? "" : ", " + more) + "}";
}

// upstream's buildTestPod(newPodStatus(…)): owned by a ReplicaSet, created now, 1m CPU and 1 byte.
SnapshotBuilder::PodSpec& failed(SnapshotBuilder& b, const std::string& name, const std::string& node = "n1") {
    return rs_pod(b, name, node)
        .created(b.now_ms())
        .in_phase(KD_POD_FAILED)
        .request("cpu", "1m")
        .request("memory", "1");
}

// test.BuildTestNode(name, milliCPU, memory, pods)
SnapshotBuilder::NodeSpec& node(SnapshotBuilder& b, const std::string& name, int cpu_milli = 2000, int memory = 3000) {
    return b.node(name)
        .allocatable("cpu", std::to_string(cpu_milli) + "m")
        .allocatable("memory", std::to_string(memory))
        .allocatable("pods", "10");
}

auto app_terminated(const std::string& reason, int32_t code = 0) {
    return [=](SnapshotBuilder::PodSpec& p) -> SnapshotBuilder::PodSpec& {
        return p.container_status("c", 0, KD_CONTAINER_STATE_TERMINATED, reason, code);
    };
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Upstream's cases

TEST_CASE("RemoveFailedPods: no failed pods", "[removefailedpods][upstream]") {
    SnapshotBuilder b;
    node(b, "n1");
    rs_pod(b, "running").created(b.now_ms());
    Profile p;
    SECTION("default empty args, 0 failures, 0 evictions") {
        CHECK(p.run<RemoveFailedPods>(b, "{}").empty());
    }
    SECTION("0 failures, 0 evictions") {
        CHECK(p.run<RemoveFailedPods>(b, no_min()).empty());
    }
}

TEST_CASE("RemoveFailedPods: one node", "[removefailedpods][upstream]") {
    SnapshotBuilder b;
    node(b, "n1");
    Profile p;
    SECTION("1 container terminated with reason NodeAffinity, 1 eviction") {
        app_terminated("NodeAffinity")(failed(b, "p1"));
        CHECK(p.run<RemoveFailedPods>(b, no_min()) == Pods{"default/p1"});
    }
    SECTION("1 container terminated with exitCode 1, 1 eviction") {
        app_terminated("", 1)(failed(b, "p1"));
        CHECK(p.run<RemoveFailedPods>(b, no_min(R"("exitCodes": [1])")) == Pods{"default/p1"});
    }
    SECTION("1 container terminated with exitCode 1, reason NodeAffinity, 1 eviction") {
        app_terminated("NodeAffinity", 1)(failed(b, "p1"));
        CHECK(p.run<RemoveFailedPods>(b, no_min(R"("exitCodes": [1])")) == Pods{"default/p1"});
    }
    SECTION("1 container terminated with exitCode 1, expected exitCode 2, 0 eviction") {
        app_terminated("", 1)(failed(b, "p1"));
        CHECK(p.run<RemoveFailedPods>(b, no_min(R"("exitCodes": [2])")).empty());
    }
    SECTION("2 containers terminated with exitCode 1 and 2 respectively, 2 evictions") {
        app_terminated("", 1)(failed(b, "p1"));
        app_terminated("", 2)(failed(b, "p2"));
        CHECK(p.run<RemoveFailedPods>(b, no_min(R"("exitCodes": [1, 2, 3])")) == Pods{"default/p1", "default/p2"});
    }
    SECTION("2 containers terminated with exitCode 1 and 2 respectively, expected exitCode 1, 1 eviction") {
        app_terminated("", 1)(failed(b, "p1"));
        app_terminated("", 2)(failed(b, "p2"));
        CHECK(p.run<RemoveFailedPods>(b, no_min(R"("exitCodes": [1])")) == Pods{"default/p1"});
    }
    SECTION("1 init container terminated with reason NodeAffinity, 1 eviction") {
        failed(b, "p1").container_status("i", 0, KD_CONTAINER_STATE_TERMINATED, "NodeAffinity", 0, KD_CONTAINER_INIT);
        CHECK(p.run<RemoveFailedPods>(b, no_min(R"("includingInitContainers": true)")) == Pods{"default/p1"});
    }
    // Upstream's two "init container … exitCode" cases put the status in containerStatuses.
    SECTION("1 init container terminated with exitCode 1, 1 eviction") {
        app_terminated("", 1)(failed(b, "p1"));
        CHECK(p.run<RemoveFailedPods>(b, no_min(R"("includingInitContainers": true, "exitCodes": [1])")) ==
              Pods{"default/p1"});
    }
    SECTION("1 init container terminated with exitCode 2, expected 1, 0 eviction") {
        app_terminated("", 2)(failed(b, "p1"));
        CHECK(p.run<RemoveFailedPods>(b, no_min(R"("includingInitContainers": true, "exitCodes": [1])")).empty());
    }
    SECTION("1 init container waiting with reason CreateContainerConfigError, 1 eviction") {
        failed(b, "p1").container_status("i", 0, KD_CONTAINER_STATE_WAITING, "CreateContainerConfigError", 0,
                                         KD_CONTAINER_INIT);
        CHECK(p.run<RemoveFailedPods>(b, no_min(R"("includingInitContainers": true)")) == Pods{"default/p1"});
    }
    SECTION(
        "include reason=CreateContainerConfigError, 1 container terminated with reason CreateContainerConfigError, "
        "1 eviction") {
        app_terminated("CreateContainerConfigError")(failed(b, "p1"));
        CHECK(p.run<RemoveFailedPods>(b, no_min(R"("reasons": ["CreateContainerConfigError"])")) == Pods{"default/p1"});
    }
    SECTION(
        "include reason=CreateContainerConfigError+NodeAffinity, 1 container terminated with reason "
        "CreateContainerConfigError, 1 eviction") {
        app_terminated("CreateContainerConfigError")(failed(b, "p1"));
        CHECK(p.run<RemoveFailedPods>(b, no_min(R"("reasons": ["CreateContainerConfigError", "NodeAffinity"])")) ==
              Pods{"default/p1"});
    }
    SECTION("include reason=CreateContainerConfigError, 1 container terminated with reason NodeAffinity, 0 eviction") {
        app_terminated("NodeAffinity")(failed(b, "p1"));
        CHECK(p.run<RemoveFailedPods>(b, no_min(R"("reasons": ["CreateContainerConfigError"])")).empty());
    }
    SECTION(
        "include init container=false, 1 init container waiting with reason CreateContainerConfigError, 0 "
        "eviction") {
        failed(b, "p1").container_status("i", 0, KD_CONTAINER_STATE_WAITING, "CreateContainerConfigError", 0,
                                         KD_CONTAINER_INIT);
        CHECK(p.run<RemoveFailedPods>(b, no_min(R"("reasons": ["CreateContainerConfigError"])")).empty());
    }
    SECTION("lifetime 1 hour, 1 container terminated with reason NodeAffinity, 0 eviction") {
        app_terminated("NodeAffinity")(failed(b, "p1"));
        CHECK(p.run<RemoveFailedPods>(b, R"({"minPodLifetimeSeconds": 3600})").empty());
    }
    SECTION("excluded owner kind=ReplicaSet, 1 init container terminated with owner kind=ReplicaSet, 0 eviction") {
        failed(b, "p1").container_status("i", 0, KD_CONTAINER_STATE_TERMINATED, "NodeAffinity", 0, KD_CONTAINER_INIT);
        CHECK(p.run<RemoveFailedPods>(b,
                                      no_min(R"("includingInitContainers": true, "excludeOwnerKinds": ["ReplicaSet"])"))
                  .empty());
    }
    SECTION("excluded owner kind=DaemonSet, 1 init container terminated with owner kind=ReplicaSet, 1 eviction") {
        failed(b, "p1").container_status("i", 0, KD_CONTAINER_STATE_TERMINATED, "NodeAffinity", 0, KD_CONTAINER_INIT);
        CHECK(p.run<RemoveFailedPods>(
                  b, no_min(R"("includingInitContainers": true, "excludeOwnerKinds": ["DaemonSet"])")) ==
              Pods{"default/p1"});
    }
    SECTION(
        "excluded owner kind=DaemonSet, 1 init container terminated with owner kind=ReplicaSet, 1 pod in "
        "termination; nothing should be moved") {
        failed(b, "p1")
            .container_status("i", 0, KD_CONTAINER_STATE_TERMINATED, "NodeAffinity", 0, KD_CONTAINER_INIT)
            .set_flag(KD_POD_TERMINATING);
        CHECK(
            p.run<RemoveFailedPods>(b, no_min(R"("includingInitContainers": true, "excludeOwnerKinds": ["DaemonSet"])"))
                .empty());
    }
    SECTION("include reason=Shutdown, 2 containers terminated with reason ShutDown, 2 evictions") {
        failed(b, "p1").with_status_reason("Shutdown");
        failed(b, "p2").with_status_reason("Shutdown");
        CHECK(p.run<RemoveFailedPods>(b, no_min(R"("reasons": ["Shutdown"])")) == Pods{"default/p1", "default/p2"});
    }
}

TEST_CASE("RemoveFailedPods: 2 init container waiting with reason CreateContainerConfigError, 2 nodes, 2 evictions",
          "[removefailedpods][upstream]") {
    SnapshotBuilder b;
    node(b, "node1");
    node(b, "node2");
    failed(b, "p1", "node1")
        .container_status("i", 0, KD_CONTAINER_STATE_TERMINATED, "CreateContainerConfigError", 0, KD_CONTAINER_INIT);
    failed(b, "p2", "node2")
        .container_status("i", 0, KD_CONTAINER_STATE_TERMINATED, "CreateContainerConfigError", 0, KD_CONTAINER_INIT);
    Profile p;
    CHECK(p.run<RemoveFailedPods>(b, no_min(R"("includingInitContainers": true)")) == Pods{"default/p1", "default/p2"});
}

TEST_CASE("RemoveFailedPods: nodeFit", "[removefailedpods][upstream]") {
    SnapshotBuilder b;
    Profile p(R"({"nodeFit": true})");
    SECTION("nodeFit=true, 1 unschedulable node, 1 container terminated with reason NodeAffinity, 0 eviction") {
        node(b, "node1");
        node(b, "node2", 2000, 2000).cordon();
        app_terminated("NodeAffinity")(failed(b, "p1", "node1"));
        CHECK(p.run<RemoveFailedPods>(b, no_min()).empty());
    }
    SECTION(
        "nodeFit=true, only available node does not have enough resources, 1 container terminated with reason "
        "CreateContainerConfigError, 0 eviction") {
        node(b, "node1", 1, 1);
        node(b, "node2", 0, 0);
        app_terminated("CreateContainerConfigError")(failed(b, "p1", "node1"));
        CHECK(p.run<RemoveFailedPods>(b, no_min(R"("reasons": ["CreateContainerConfigError"])")).empty());
    }
    SECTION("1 container terminated with reason ShutDown, 0 evictions") {
        node(b, "node1");
        failed(b, "p1", "node1").with_status_reason("Shutdown");
        CHECK(p.run<RemoveFailedPods>(b, no_min()).empty());
    }
    SECTION("(ours) the same pod with another node that fits: 1 eviction") {
        node(b, "node1");
        node(b, "node2");
        failed(b, "p1", "node1").with_status_reason("Shutdown");
        CHECK(p.run<RemoveFailedPods>(b, no_min()) == Pods{"default/p1"});
    }
}

// ---------------------------------------------------------------------------------------------
// Our own

TEST_CASE("RemoveFailedPods: minPodLifetimeSeconds defaults to an hour", "[removefailedpods][args]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "half-hour").in_phase(KD_POD_FAILED).created(b.now_ms() - 1'800'000);
    rs_pod(b, "hour").in_phase(KD_POD_FAILED).created(b.now_ms() - 3'600'000);
    rs_pod(b, "future").in_phase(KD_POD_FAILED).created(b.now_ms() + 1'000);
    Profile p;
    CHECK(p.run<RemoveFailedPods>(b, "{}") == Pods{"default/hour"});
    p.host.clear();
    CHECK(p.run<RemoveFailedPods>(b, R"({"minPodLifetimeSeconds": 1800})") ==
          Pods{"default/half-hour", "default/hour"});
}

TEST_CASE("RemoveFailedPods: only phase Failed", "[removefailedpods]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "running").created(kOlder);
    rs_pod(b, "succeeded").created(kOlder).in_phase(KD_POD_SUCCEEDED);
    rs_pod(b, "failed").created(kOlder).in_phase(KD_POD_FAILED);
    Profile p;
    CHECK(p.run<RemoveFailedPods>(b, "{}") == Pods{"default/failed"});
}

TEST_CASE("RemoveFailedPods: reasons read status.reason and container reasons, exit codes terminated ones only",
          "[removefailedpods]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "status").in_phase(KD_POD_FAILED).with_status_reason("Evicted");
    rs_pod(b, "waiting").in_phase(KD_POD_FAILED).container_status("c", 0, KD_CONTAINER_STATE_WAITING, "Evicted");
    rs_pod(b, "eph")
        .in_phase(KD_POD_FAILED)
        .container_status("e", 0, KD_CONTAINER_STATE_TERMINATED, "Evicted", 7, KD_CONTAINER_EPHEMERAL);
    rs_pod(b, "code").in_phase(KD_POD_FAILED).container_status("c", 0, KD_CONTAINER_STATE_TERMINATED, "", 7);
    Profile p;
    CHECK(p.run<RemoveFailedPods>(b, R"({"reasons": ["Evicted"]})") == Pods{"default/status", "default/waiting"});
    p.host.clear();
    CHECK(p.run<RemoveFailedPods>(b, R"({"exitCodes": [7]})") == Pods{"default/code"});
    p.host.clear();
    // Both given: a pod must match both.
    CHECK(p.run<RemoveFailedPods>(b, R"({"reasons": ["Evicted"], "exitCodes": [7]})").empty());
}

TEST_CASE("RemoveFailedPods: namespaces and labelSelector", "[removefailedpods]") {
    SnapshotBuilder b;
    b.node("n1");
    b.pod("a", "pa").on("n1").in_phase(KD_POD_FAILED).owner("ReplicaSet", "rs").label("app", "web");
    b.pod("b", "pb").on("n1").in_phase(KD_POD_FAILED).owner("ReplicaSet", "rs").label("app", "db");
    Profile p;
    CHECK(p.run<RemoveFailedPods>(b, R"({"namespaces": {"exclude": ["a"]}})") == Pods{"b/pb"});
    p.host.clear();
    CHECK(p.run<RemoveFailedPods>(b, R"({"labelSelector": {"matchLabels": {"app": "web"}}})") == Pods{"a/pa"});
}

TEST_CASE("RemoveFailedPods: validation (upstream's validation_test.go)", "[removefailedpods][upstream][args]") {
    SECTION("valid namespace args, no errors") {
        CHECK(create_error<RemoveFailedPods>(R"({"namespaces": {"include": ["default"]}, "excludeOwnerKinds": ["Job"],
                                              "reasons": ["ReasonDoesNotMatch"]})") == "");
    }
    SECTION("invalid namespaces args, expects error") {
        CHECK(
            create_error<RemoveFailedPods>(R"({"namespaces": {"include": ["default"], "exclude": ["kube-system"]}})") ==
            "namespaces: only one of Include/Exclude namespaces can be set");
    }
    SECTION("valid label selector args, no errors") {
        CHECK(create_error<RemoveFailedPods>(
                  R"({"labelSelector": {"matchLabels": {"role.kubernetes.io/node": ""}}})") == "");
    }
    SECTION("invalid label selector args, expects errors") {
        // Both problems, each at its path, in kdesched's words (docs/compatibility.md, 66).
        CHECK(create_error<RemoveFailedPods>(
                  R"({"labelSelector": {"matchExpressions": [{"key": "", "operator": "In"}]}})") ==
              "labelSelector.matchExpressions[0].key: invalid label key: name \"\" must be 1-63 characters of "
              "[A-Za-z0-9-_.], starting and ending with a letter or digit\n"
              "labelSelector.matchExpressions[0].values: must be non-empty when operator is In");
    }
}

TEST_CASE("RemoveFailedPods: validation", "[removefailedpods][args]") {
    CHECK(create_error<RemoveFailedPods>(R"({"namespaces": {"include": ["a"], "exclude": ["b"]}})") ==
          "namespaces: only one of Include/Exclude namespaces can be set");
    CHECK(create_error<RemoveFailedPods>(R"({"labelSelector": {"matchLabels": {"-bad": "x"}}})")
              .find("labelSelector.matchLabels.-bad: invalid label key") == 0);
    CHECK(create_error<RemoveFailedPods>(R"({"minPodLifetimeSeconds": -5})")
              .find("minPodLifetimeSeconds: out of range") == 0);
    CHECK(create_error<RemoveFailedPods>(R"({"exitCodes": [1, 2], "reasons": ["Error"], "excludeOwnerKinds": ["Job"],
                                          "includingInitContainers": true})") == "");
}

TEST_CASE("RemoveFailedPods: node by node: a node's limit ends that node, the total limit the cycle",
          "[removefailedpods][limits]") {
    SnapshotBuilder b;
    b.node("n1");
    b.node("n2");
    rs_pod(b, "a1", "n1").in_phase(KD_POD_FAILED);
    rs_pod(b, "a2", "n1").in_phase(KD_POD_FAILED);
    rs_pod(b, "a3", "n1").in_phase(KD_POD_FAILED);
    rs_pod(b, "b1", "n2").in_phase(KD_POD_FAILED);
    rs_pod(b, "b2", "n2").in_phase(KD_POD_FAILED);
    Profile p;
    SECTION("per node 1") {
        p.host.limits.per_node = 1;
        CHECK(p.run<RemoveFailedPods>(b, "{}") == Pods{"default/a1", "default/b1"});
        CHECK(p.requests() == 4);  // a1, a2 (refused: ends n1), b1, b2 (refused)
    }
    SECTION("total 2") {
        p.host.limits.total = 2;
        CHECK(p.run<RemoveFailedPods>(b, "{}") == Pods{"default/a1", "default/a2"});
        CHECK(p.requests() == 3);
    }
    SECTION("a refused pod does not end the node") {
        p.host.on_evict = [](const kd::Pod& pod) {
            return pod.name() == "a1" ? kd::EvictOutcome{KD_EVICT_FAILED, "DefaultEvictor", "PDB"}
                                      : kd::EvictOutcome::accepted();
        };
        CHECK(p.run<RemoveFailedPods>(b, "{}") == Pods{"default/a2", "default/a3", "default/b1", "default/b2"});
    }
}
