// PodLifeTime. The first part: the cases of upstream's table tests
// (pkg/framework/plugins/podlifetime/pod_lifetime_test.go@v0.35.1, named by their descriptions) as
// facts: same pods, same args, same pods evicted. Then our own, per arg.
#include "sigs_test.hpp"

using namespace sigs_test;
using kd::plugins::sigs::PodLifeTime;

namespace {

const std::string k600 = R"("maxPodLifeTimeSeconds": 600)";

std::string with600(const std::string& more = "") {
    return "{" + k600 + (more.empty() ? "" : ", " + more) + "}";
}

// buildTestPodWithRSOwnerRefWithPendingPhaseForNode1
SnapshotBuilder::PodSpec& pending_old(SnapshotBuilder& b, const std::string& name) {
    return rs_pod(b, name).created(kOlder).in_phase(KD_POD_PENDING);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Upstream's cases

TEST_CASE("PodLifeTime: No pod should be evicted since pod terminating", "[podlifetime][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "p14").created(kOlder).set_flag(KD_POD_TERMINATING);
    rs_pod(b, "p15").created(kOlder).set_flag(KD_POD_TERMINATING);
    Profile p;
    CHECK(p.run<PodLifeTime>(b, with600(R"("labelSelector": {"matchLabels": {"foo": "bar"}})")).empty());
}

TEST_CASE("PodLifeTime: Does not evict pvc pods with ignorePvcPods set to true", "[podlifetime][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "p11").created(kOlder).set_flag(KD_POD_PVC);
    Profile p(R"({"ignorePvcPods": true})");
    CHECK(p.run<PodLifeTime>(b, with600()).empty());
}

TEST_CASE("PodLifeTime: Evicts pvc pods with ignorePvcPods set to false (or unset)", "[podlifetime][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "p11").created(kOlder).set_flag(KD_POD_PVC);
    Profile p;
    CHECK(p.run<PodLifeTime>(b, with600()) == Pods{"default/p11"});
}

TEST_CASE("PodLifeTime: 1 pod matching label selector should be evicted", "[podlifetime][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "p12").created(kOlder).label("foo", "bar");
    rs_pod(b, "p13").created(kOlder).label("foo", "bar1");
    Profile p;
    CHECK(p.run<PodLifeTime>(b, with600(R"("labelSelector": {"matchLabels": {"foo": "bar"}})")) == Pods{"default/p12"});
}

TEST_CASE("PodLifeTime: eviction limits", "[podlifetime][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "p1").created(b.now_ms());
    rs_pod(b, "p2").created(kOlder);
    Profile p;
    SECTION("2 Oldest pods should be evicted when maxPodsToEvictPerNode and maxPodsToEvictPerNamespace are not set") {
        pending_old(b, "p9");
        CHECK(p.run<PodLifeTime>(b, with600()) == Pods{"default/p2", "default/p9"});
    }
    SECTION("1 Oldest pod should be evicted when maxPodsToEvictPerNamespace is set to 1") {
        p.host.limits.per_namespace = 1;
        CHECK(p.run<PodLifeTime>(b, with600()) == Pods{"default/p2"});
    }
    SECTION("1 Oldest pod should be evicted when maxPodsToEvictTotal is set to 1") {
        p.host.limits.per_namespace = 2;
        p.host.limits.total = 1;
        CHECK(p.run<PodLifeTime>(b, with600()) == Pods{"default/p2"});
    }
    SECTION("1 Oldest pod should be evicted when maxPodsToEvictPerNode is set to 1") {
        p.host.limits.per_node = 1;
        CHECK(p.run<PodLifeTime>(b, with600()) == Pods{"default/p2"});
    }
}

TEST_CASE("PodLifeTime: container waiting reasons", "[podlifetime][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    Profile p;
    auto stuck = [&](const std::string& reason, kd_container_kind kind = KD_CONTAINER_APP) {
        pending_old(b, "p9").container_status("c", 0, KD_CONTAINER_STATE_WAITING, reason, 0, kind);
    };
    SECTION("Two pods, one with ContainerCreating state. 1 should be evicted.") {
        pending_old(b, "p9");
        rs_pod(b, "container-creating-stuck")
            .created(kOlder)
            .container_status("c", 0, KD_CONTAINER_STATE_WAITING, "ContainerCreating");
        CHECK(p.run<PodLifeTime>(b, with600(R"("states": ["ContainerCreating"])")) ==
              Pods{"default/container-creating-stuck"});
    }
    SECTION("Two pods, one with PodInitializing state. 1 should be evicted.") {
        pending_old(b, "p9");
        rs_pod(b, "pod-initializing-stuck")
            .created(kOlder)
            .container_status("c", 0, KD_CONTAINER_STATE_WAITING, "PodInitializing");
        CHECK(p.run<PodLifeTime>(b, with600(R"("states": ["PodInitializing"])")) ==
              Pods{"default/pod-initializing-stuck"});
    }
    for (std::string reason : {"ImagePullBackOff", "CrashLoopBackOff", "CreateContainerConfigError", "ErrImagePull",
                               "CreateContainerError", "InvalidImageName"}) {
        DYNAMIC_SECTION("1 pod with container status " << reason << " should be evicted") {
            stuck(reason);
            CHECK(p.run<PodLifeTime>(b, with600(R"("states": [")" + reason + R"("])")) == Pods{"default/p9"});
        }
    }
    SECTION(
        "1 pod with init container status CreateContainerError should not be evicted without "
        "includingInitContainers") {
        stuck("CreateContainerError", KD_CONTAINER_INIT);
        CHECK(p.run<PodLifeTime>(b, with600(R"("states": ["CreateContainerError"])")).empty());
    }
    SECTION("1 pod with init container status CreateContainerError should be evicted with includingInitContainers") {
        stuck("CreateContainerError", KD_CONTAINER_INIT);
        CHECK(
            p.run<PodLifeTime>(b, with600(R"("states": ["CreateContainerError"], "includingInitContainers": true)")) ==
            Pods{"default/p9"});
    }
    SECTION(
        "1 pod with ephemeral container status CreateContainerError should not be evicted without "
        "includingEphemeralContainers") {
        stuck("CreateContainerError", KD_CONTAINER_EPHEMERAL);
        CHECK(p.run<PodLifeTime>(b, with600(R"("states": ["CreateContainerError"])")).empty());
    }
    SECTION(
        "1 pod with ephemeral container status CreateContainerError should be evicted with "
        "includingEphemeralContainers") {
        stuck("CreateContainerError", KD_CONTAINER_EPHEMERAL);
        CHECK(p.run<PodLifeTime>(
                  b, with600(R"("states": ["CreateContainerError"], "includingEphemeralContainers": true)")) ==
              Pods{"default/p9"});
    }
    SECTION("1 pod with ImagePullBackOff status should be ignored when States filter is ContainerCreating") {
        stuck("ImagePullBackOff");
        CHECK(p.run<PodLifeTime>(b, with600(R"("states": ["ContainerCreating"])")).empty());
    }
}

TEST_CASE("PodLifeTime: pod status reasons", "[podlifetime][upstream]") {
    for (std::string reason : {"NodeLost", "NodeAffinity", "Shutdown", "UnexpectedAdmissionError"}) {
        DYNAMIC_SECTION("1 pod with pod status reason " << reason << " should be evicted") {
            SnapshotBuilder b;
            b.node("n1");
            pending_old(b, "p9").with_status_reason(reason);
            Profile p;
            CHECK(p.run<PodLifeTime>(b, with600(R"("states": [")" + reason + R"("])")) == Pods{"default/p9"});
        }
    }
}

TEST_CASE("PodLifeTime: age threshold", "[podlifetime][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    Profile p;
    SECTION("Two pods in the default namespace, 1 is new and 1 very is old. 1 should be evicted.") {
        rs_pod(b, "p1").created(b.now_ms());
        rs_pod(b, "p2").created(kOlder);
        CHECK(p.run<PodLifeTime>(b, with600()) == Pods{"default/p2"});
    }
    SECTION("Two pods in the default namespace, 2 are new and 0 are old. 0 should be evicted.") {
        rs_pod(b, "p3").created(b.now_ms());
        rs_pod(b, "p4").created(b.now_ms());
        CHECK(p.run<PodLifeTime>(b, with600()).empty());
    }
    SECTION("Two pods in the default namespace, 1 created 605 seconds ago. 1 should be evicted.") {
        rs_pod(b, "p5").created(b.now_ms());
        rs_pod(b, "p6").created(b.now_ms() - 605'000);
        CHECK(p.run<PodLifeTime>(b, with600()) == Pods{"default/p6"});
    }
    SECTION("Two pods in the default namespace, 1 created 595 seconds ago. 0 should be evicted.") {
        b.pod("default", "p7").on("n1").created(b.now_ms());
        b.pod("default", "p8").on("n1").created(b.now_ms() - 595'000);
        CHECK(p.run<PodLifeTime>(b, with600()).empty());
    }
}

TEST_CASE("PodLifeTime: pod phase states", "[podlifetime][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    Profile p;
    SECTION("Two old pods with different states. 1 should be evicted.") {
        pending_old(b, "p9");
        rs_pod(b, "p10").created(kOlder).in_phase(KD_POD_RUNNING);
        CHECK(p.run<PodLifeTime>(b, with600(R"("states": ["Pending"])")) == Pods{"default/p9"});
    }
    std::pair<const char*, kd_pod_phase> phases[] = {
        {"Succeeded", KD_POD_SUCCEEDED}, {"Failed", KD_POD_FAILED}, {"Unknown", KD_POD_UNKNOWN}};
    for (auto [name, phase] : phases) {
        DYNAMIC_SECTION("1 pod with pod status phase v1.Pod" << name << " should be evicted") {
            rs_pod(b, "p16").created(kOlder).in_phase(phase);
            CHECK(p.run<PodLifeTime>(b, with600(R"("states": [")" + std::string(name) + R"("])")) ==
                  Pods{"default/p16"});
        }
    }
}

TEST_CASE("PodLifeTime: states with terminated reasons", "[podlifetime][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    Profile p;
    SECTION("evict pod with matching terminated reason via states") {
        rs_pod(b, "p1").in_phase(KD_POD_FAILED).container_status("c", 0, KD_CONTAINER_STATE_TERMINATED, "NodeAffinity");
        CHECK(p.run<PodLifeTime>(b, R"({"states": ["NodeAffinity"]})") == Pods{"default/p1"});
    }
    SECTION("evict pod with matching pod status reason via states") {
        rs_pod(b, "p1").in_phase(KD_POD_FAILED).with_status_reason("Shutdown");
        CHECK(p.run<PodLifeTime>(b, R"({"states": ["Shutdown"]})") == Pods{"default/p1"});
    }
    SECTION("states matches terminated reason on init container") {
        rs_pod(b, "p1").container_status("i", 0, KD_CONTAINER_STATE_TERMINATED, "CreateContainerConfigError", 0,
                                         KD_CONTAINER_INIT);
        CHECK(p.run<PodLifeTime>(b, R"({"states": ["CreateContainerConfigError"], "includingInitContainers": true})") ==
              Pods{"default/p1"});
    }
    SECTION("states does not match terminated reason on init container without flag") {
        rs_pod(b, "p1").container_status("i", 0, KD_CONTAINER_STATE_TERMINATED, "CreateContainerConfigError", 0,
                                         KD_CONTAINER_INIT);
        CHECK(p.run<PodLifeTime>(b, R"({"states": ["CreateContainerConfigError"]})").empty());
    }
}

TEST_CASE("PodLifeTime: condition filtering", "[podlifetime][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    Profile p;
    SECTION("evict pod with matching condition reason") {
        rs_pod(b, "p1").condition("Initialized", "True", "PodCompleted");
        rs_pod(b, "p2").condition("Initialized", "True", "OtherReason");
        CHECK(p.run<PodLifeTime>(b, R"({"conditions": [{"reason": "PodCompleted", "status": "True"}]})") ==
              Pods{"default/p1"});
    }
    SECTION("evict pod matching condition type only") {
        rs_pod(b, "p1").condition("Ready", "False");
        CHECK(p.run<PodLifeTime>(b, R"({"conditions": [{"type": "Ready"}]})") == Pods{"default/p1"});
    }
    SECTION("no matching conditions, 0 evictions") {
        rs_pod(b, "p1").condition("Ready", "True", "SomethingElse");
        CHECK(p.run<PodLifeTime>(b, R"({"conditions": [{"reason": "PodCompleted"}]})").empty());
    }
}

namespace {

// Upstream's oldTransitionTime (two hours ago) and newTransitionTime (one minute ago).
std::pair<int64_t, int64_t> plt_transitions(const SnapshotBuilder& b) {
    return {b.now_ms() - 2 * 3'600'000, b.now_ms() - 60'000};
}

// A Succeeded pod whose Initialized (True) and Ready (False) conditions, both PodCompleted,
// changed at `since` (upstream's "stale completed" pod).
void plt_completed(SnapshotBuilder& b, const std::string& name, int64_t since) {
    rs_pod(b, name)
        .in_phase(KD_POD_SUCCEEDED)
        .condition("Initialized", "True", "PodCompleted")
        .transitioned_at(since)
        .condition("Ready", "False", "PodCompleted")
        .transitioned_at(since);
}

}  // namespace

// Upstream's TestTransitionTimeFiltering (pod_lifetime_test.go@v0.35.1).
TEST_CASE("PodLifeTime: transition time filtering", "[podlifetime][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    const auto [old_transition, new_transition] = plt_transitions(b);
    Profile p;
    SECTION("evict pod with old transition time") {
        plt_completed(b, "p1", old_transition);
        CHECK(p.run<PodLifeTime>(b, R"({"states": ["Succeeded"], "conditions": [{"reason": "PodCompleted",
                 "status": "True", "minTimeSinceLastTransitionSeconds": 300}]})") == Pods{"default/p1"});
    }
    SECTION("do not evict pod with recent transition time") {
        rs_pod(b, "p1").in_phase(KD_POD_SUCCEEDED).condition("Ready", "False").transitioned_at(new_transition);
        CHECK(p.run<PodLifeTime>(b, R"({"states": ["Succeeded"], "conditions": [{"minTimeSinceLastTransitionSeconds":
                 14400}]})")
                  .empty());
    }
    SECTION("transition time scoped to matching conditions only") {
        rs_pod(b, "p1")
            .condition("Initialized", "", "PodCompleted")
            .transitioned_at(old_transition)
            .condition("Ready", "", "OtherReason")
            .transitioned_at(new_transition);
        CHECK(p.run<PodLifeTime>(
                  b, R"({"conditions": [{"reason": "PodCompleted", "minTimeSinceLastTransitionSeconds": 300}]})") ==
              Pods{"default/p1"});
    }
    SECTION("no conditions on pod, transition time filter returns false") {
        rs_pod(b, "p1").in_phase(KD_POD_RUNNING);
        CHECK(p.run<PodLifeTime>(b, R"({"states": ["Running"], "conditions": [{"minTimeSinceLastTransitionSeconds":
                 300}]})")
                  .empty());
    }
}

// Upstream's TestCombinedFilters, "user scenario: Succeeded + PodCompleted condition + transition
// time threshold".
TEST_CASE("PodLifeTime: Succeeded + PodCompleted condition + transition time threshold", "[podlifetime][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    const auto [old_transition, new_transition] = plt_transitions(b);
    plt_completed(b, "stale-completed", old_transition);
    rs_pod(b, "recent-completed")
        .in_phase(KD_POD_SUCCEEDED)
        .condition("Initialized", "True", "PodCompleted")
        .transitioned_at(new_transition);
    rs_pod(b, "running-pod").in_phase(KD_POD_RUNNING);
    Profile p;
    CHECK(p.run<PodLifeTime>(b, R"({"states": ["Succeeded"], "conditions": [{"reason": "PodCompleted",
             "status": "True", "minTimeSinceLastTransitionSeconds": 300}]})") == Pods{"default/stale-completed"});
}

TEST_CASE("PodLifeTime: owner kinds filtering", "[podlifetime][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    Profile p;
    auto job_pod = [&] { b.pod("default", "p1").on("n1").in_phase(KD_POD_FAILED).owner("Job", "job1", false); };
    SECTION("exclude Job owner kind: Job-owned pod not evicted") {
        job_pod();
        CHECK(p.run<PodLifeTime>(b, R"({"states": ["Failed"], "ownerKinds": {"exclude": ["Job"]}})").empty());
    }
    SECTION("exclude Job owner kind: non-Job pod still evicted") {
        job_pod();
        rs_pod(b, "p2").in_phase(KD_POD_FAILED);
        CHECK(p.run<PodLifeTime>(b, R"({"states": ["Failed"], "ownerKinds": {"exclude": ["Job"]}})") ==
              Pods{"default/p2"});
    }
    SECTION("include only Job owner kind") {
        job_pod();
        rs_pod(b, "p2").in_phase(KD_POD_FAILED);
        CHECK(p.run<PodLifeTime>(b, R"({"states": ["Failed"], "ownerKinds": {"include": ["Job"]}})") ==
              Pods{"default/p1"});
    }
}

TEST_CASE("PodLifeTime: states with ephemeral containers", "[podlifetime][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "p1").container_status("e", 0, KD_CONTAINER_STATE_TERMINATED, "OOMKilled", 0, KD_CONTAINER_EPHEMERAL);
    Profile p;
    SECTION("states matches terminated reason on ephemeral container") {
        CHECK(p.run<PodLifeTime>(b, R"({"states": ["OOMKilled"], "includingEphemeralContainers": true})") ==
              Pods{"default/p1"});
    }
    SECTION("states does not match ephemeral container without flag") {
        CHECK(p.run<PodLifeTime>(b, R"({"states": ["OOMKilled"]})").empty());
    }
}

TEST_CASE("PodLifeTime: exit codes filtering", "[podlifetime][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "p1").in_phase(KD_POD_FAILED).container_status("c", 0, KD_CONTAINER_STATE_TERMINATED, "", 1);
    Profile p;
    SECTION("evict pod with matching exit code") {
        CHECK(p.run<PodLifeTime>(b, R"({"states": ["Failed"], "exitCodes": [1]})") == Pods{"default/p1"});
    }
    SECTION("exit code not matched, 0 evictions") {
        CHECK(p.run<PodLifeTime>(b, R"({"states": ["Failed"], "exitCodes": [2]})").empty());
    }
}

TEST_CASE("PodLifeTime: failed pod removal compat: Failed + min age + exclude Job", "[podlifetime][upstream]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "failed-rs").in_phase(KD_POD_FAILED).container_status("c", 0, KD_CONTAINER_STATE_TERMINATED, "Error");
    b.pod("default", "failed-job").on("n1").in_phase(KD_POD_FAILED).owner("Job", "job1", false);
    Profile p;
    CHECK(p.run<PodLifeTime>(
              b, R"({"states": ["Failed"], "maxPodLifeTimeSeconds": 0, "ownerKinds": {"exclude": ["Job"]}})") ==
          Pods{"default/failed-rs"});
}

TEST_CASE("PodLifeTime: validation (upstream's TestValidation)", "[podlifetime][upstream][args]") {
    for (std::string valid :
         {R"({"states": ["Running"]})", R"({"conditions": [{"reason": "PodCompleted"}]})",
          R"({"maxPodLifeTimeSeconds": 600})", R"({"states": ["Running"], "maxPodLifeTimeSeconds": 600})",
          R"({"states": ["Succeeded"], "conditions": [{"reason": "PodCompleted"}]})", R"({"exitCodes": [1]})"})
        CHECK(create_error<PodLifeTime>(valid) == "");
    CHECK(create_error<PodLifeTime>(
              R"({"conditions": [{"reason": "PodCompleted", "minTimeSinceLastTransitionSeconds": 300}]})") == "");
    CHECK(create_error<PodLifeTime>(R"({"conditions": [{"minTimeSinceLastTransitionSeconds": 300}]})") == "");
    CHECK(create_error<PodLifeTime>("{}") ==
          "at least one filtering criterion must be specified (maxPodLifeTimeSeconds, states, conditions, or "
          "exitCodes)");
    CHECK(create_error<PodLifeTime>(R"({"states": ["Running"], "namespaces": {"include": ["a"], "exclude": ["b"]}})") ==
          "namespaces: only one of Include/Exclude namespaces can be set");
    CHECK(create_error<PodLifeTime>(
              R"({"states": ["Running"], "ownerKinds": {"include": ["Job"], "exclude": ["ReplicaSet"]}})") ==
          "ownerKinds: only one of Include/Exclude ownerKinds can be set");
    CHECK(create_error<PodLifeTime>(R"({"states": ["NotAState"]})") ==
          "states: states must be one of [Completed ContainerCannotRun ContainerCreating CrashLoopBackOff "
          "CreateContainerConfigError CreateContainerError DeadlineExceeded ErrImagePull Error Evicted Failed "
          "ImagePullBackOff InvalidImageName NodeAffinity NodeLost OOMKilled Pending PodInitializing Running "
          "Shutdown StartError Succeeded UnexpectedAdmissionError Unknown]");
    CHECK(create_error<PodLifeTime>(R"({"conditions": [{}]})") ==
          "conditions[0]: at least one of type, status, reason, or minTimeSinceLastTransitionSeconds must be set");
}

// ---------------------------------------------------------------------------------------------
// Our own

TEST_CASE("PodLifeTime: args decode strictly", "[podlifetime][args]") {
    CHECK(create_error<PodLifeTime>(R"({"maxPodLifeTimeSeconds": -1})").find("maxPodLifeTimeSeconds: out of range") ==
          0);
    CHECK(create_error<PodLifeTime>(R"({"maxPodLifetimeSeconds": 1})").find("maxPodLifetimeSeconds: unknown field") ==
          0);
    CHECK(create_error<PodLifeTime>(
              R"({"states": ["Running"], "labelSelector": {"matchExpressions": [{"key": "a", "operator": "Is"}]}})") ==
          "labelSelector.matchExpressions[0].operator: unknown operator \"Is\" (use In, NotIn, Exists or "
          "DoesNotExist)");
}

TEST_CASE("PodLifeTime: oldest first across nodes, and a node's limit passes over to the next node",
          "[podlifetime][limits]") {
    SnapshotBuilder b;
    b.node("n1");
    b.node("n2");
    rs_pod(b, "young", "n1").created(b.now_ms() - 1000'000);
    rs_pod(b, "oldest", "n2").created(kOlder);
    rs_pod(b, "older", "n1").created(kOlder + 1000);
    rs_pod(b, "old", "n2").created(kOlder + 2000);
    Profile p;
    SECTION("no limits") {
        CHECK(p.run<PodLifeTime>(b, with600()) ==
              Pods{"default/oldest", "default/older", "default/old", "default/young"});
    }
    SECTION("one per node: every pod is asked for, the refused ones are passed over") {
        p.host.limits.per_node = 1;
        CHECK(p.run<PodLifeTime>(b, with600()) == Pods{"default/oldest", "default/older"});
        CHECK(p.requests() == 4);
    }
    SECTION("the total limit ends the loop") {
        p.host.limits.total = 2;
        CHECK(p.run<PodLifeTime>(b, with600()) == Pods{"default/oldest", "default/older"});
        CHECK(p.requests() == 3);
    }
}

TEST_CASE("PodLifeTime: the age must exceed maxPodLifeTimeSeconds in whole seconds", "[podlifetime]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "exactly").created(b.now_ms() - 600'999);  // 600 s truncated: not over
    rs_pod(b, "over").created(b.now_ms() - 601'000);
    rs_pod(b, "future").created(b.now_ms() + 5'000);  // clock skew: never matches
    Profile p;
    CHECK(p.run<PodLifeTime>(b, with600()) == Pods{"default/over"});
    SECTION("0 takes every pod older than a second") {
        p.host.clear();
        CHECK(p.run<PodLifeTime>(b, R"({"maxPodLifeTimeSeconds": 0})") == Pods{"default/over", "default/exactly"});
    }
}

TEST_CASE("PodLifeTime: minTimeSinceLastTransitionSeconds counts whole seconds of the matching condition",
          "[podlifetime]") {
    SnapshotBuilder b;
    b.node("n1");
    const int64_t now = b.now_ms();
    rs_pod(b, "exactly-300s").condition("Ready", "False").transitioned_at(now - 300'000);
    rs_pod(b, "299s").condition("Ready", "False").transitioned_at(now - 299'000);
    rs_pod(b, "in-the-future").condition("Ready", "False").transitioned_at(now + 60'000);
    rs_pod(b, "no-transition-time").condition("Ready", "False");
    rs_pod(b, "other-condition-old").condition("Ready", "True").transitioned_at(now - 3'600'000);
    const std::string args = R"({"conditions": [{"status": "False", "minTimeSinceLastTransitionSeconds": 300}]})";
    SECTION("on this host") {
        Profile p;
        CHECK(p.run<PodLifeTime>(b, args) == Pods{"default/exactly-300s"});
    }
    SECTION("a host of plugin API 1.6 has no transition times: nothing matches") {
        b.as_api_minor(6);
        Profile p;
        CHECK(p.run<PodLifeTime>(b, args).empty());
    }
}

TEST_CASE("PodLifeTime: criteria are ANDed", "[podlifetime]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "old-pending").created(kOlder).in_phase(KD_POD_PENDING);
    rs_pod(b, "young-pending").created(b.now_ms()).in_phase(KD_POD_PENDING);
    rs_pod(b, "old-running").created(kOlder);
    Profile p;
    CHECK(p.run<PodLifeTime>(b, with600(R"("states": ["Pending"])")) == Pods{"default/old-pending"});
}

TEST_CASE("PodLifeTime: namespaces", "[podlifetime]") {
    SnapshotBuilder b;
    b.node("n1");
    b.pod("a", "pa").on("n1").created(kOlder).owner("ReplicaSet", "rs");
    b.pod("b", "pb").on("n1").created(kOlder + 1).owner("ReplicaSet", "rs");
    Profile p;
    CHECK(p.run<PodLifeTime>(b, with600(R"("namespaces": {"include": ["a"]})")) == Pods{"a/pa"});
    p.host.clear();
    CHECK(p.run<PodLifeTime>(b, with600(R"("namespaces": {"exclude": ["a"]})")) == Pods{"b/pb"});
}

TEST_CASE("PodLifeTime: labelSelector expressions", "[podlifetime]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "web").created(kOlder).label("app", "web");
    rs_pod(b, "db").created(kOlder + 1).label("app", "db");
    rs_pod(b, "none").created(kOlder + 2);
    Profile p;
    CHECK(
        p.run<PodLifeTime>(
            b,
            with600(
                R"("labelSelector": {"matchExpressions": [{"key": "app", "operator": "NotIn", "values": ["db"]}]})")) ==
        Pods{"default/web", "default/none"});
}

TEST_CASE("PodLifeTime: a pod the evictor refuses is not asked for", "[podlifetime][filter]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "kept").created(kOlder);
    rs_pod(b, "gone").created(kOlder + 1);
    Profile p;
    p.host.on_pre_eviction_filter = [](const kd::Pod& pod) {
        return pod.name() == "kept" ? kd::Verdict::reject("Test: NodeFit") : kd::Verdict::allow();
    };
    CHECK(p.run<PodLifeTime>(b, with600()) == Pods{"default/gone"});
    CHECK(p.requests() == 1);
    // The host records the filter's refusal itself (--explain: filtered); the plugin adds nothing.
    CHECK(p.host.reports().empty());
}

TEST_CASE("PodLifeTime: exit codes read init containers only with includingInitContainers", "[podlifetime]") {
    SnapshotBuilder b;
    b.node("n1");
    rs_pod(b, "p1").container_status("i", 0, KD_CONTAINER_STATE_TERMINATED, "Error", 3, KD_CONTAINER_INIT);
    rs_pod(b, "p2").container_status("e", 0, KD_CONTAINER_STATE_TERMINATED, "Error", 3, KD_CONTAINER_EPHEMERAL);
    Profile p;
    CHECK(p.run<PodLifeTime>(b, R"({"exitCodes": [3]})").empty());
    p.host.clear();
    // Never ephemeral containers, whatever includingEphemeralContainers says (upstream).
    CHECK(p.run<PodLifeTime>(b, R"({"exitCodes": [3], "includingInitContainers": true,
                                    "includingEphemeralContainers": true})") == Pods{"default/p1"});
}
