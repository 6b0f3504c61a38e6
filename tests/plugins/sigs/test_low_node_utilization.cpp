// LowNodeUtilization. The first part: the requests-based cases of upstream's table tests
// (pkg/framework/plugins/nodeutilization/lownodeutilization_test.go@v0.35.1 TestLowNodeUtilization
// and TestLowNodeUtilizationWithTaints, named by their descriptions; the "with metrics enabled"
// runs are in test_low_node_utilization_metrics.cpp, the Prometheus tests are not ported: that
// source is refused) as facts: same
// nodes, pods and args, same number of pods evicted. Upstream counts evictions; we also state
// which pods, in which order. Then the validation cases (validation_test.go) and our own, per arg.
#include "utilization_test.hpp"

using namespace utilization_test;
using kd::plugins::sigs::LowNodeUtilization;

// ---------------------------------------------------------------------------------------------
// Upstream's cases: TestLowNodeUtilization

TEST_CASE("LowNodeUtilization: no evictable pods", "[lownodeutilization][upstream]") {
    SnapshotBuilder b;
    lnu_no_evictable(b);
    CHECK(nu_balance<LowNodeUtilization>(b, lnu_args()).empty());
}

TEST_CASE("LowNodeUtilization: without priorities", "[lownodeutilization][upstream]") {
    SnapshotBuilder b;
    lnu_without_priorities(b);
    CHECK(nu_balance<LowNodeUtilization>(b, lnu_args()) == kLnuFirstFour);
}

TEST_CASE("LowNodeUtilization: without priorities, but excluding namespaces", "[lownodeutilization][upstream]") {
    SnapshotBuilder b;
    lnu_namespace1_pods(b);
    CHECK(nu_balance<LowNodeUtilization>(b, lnu_args(R"("evictableNamespaces": {"exclude": ["namespace1"]})")).empty());
}

TEST_CASE("LowNodeUtilization: without priorities, but include only default namespace",
          "[lownodeutilization][upstream]") {
    // Upstream builds the args without validation and passes `include: [default]`, which the
    // eviction ignores (it reads `exclude` only). kdesched validates at creation and refuses
    // `include`, so the run is without it: the same pods go. p3..p5 have no owner: the evictor
    // keeps them.
    SnapshotBuilder b;
    lnu_default_and_others(b);
    CHECK(nu_balance<LowNodeUtilization>(b, lnu_args()) == Pods{"default/p1", "default/p2"});
    CHECK(sigs_test::create_error<LowNodeUtilization>(lnu_args(R"("evictableNamespaces": {"include": ["default"]})")) ==
          "evictableNamespaces.include: only Exclude namespaces can be set, inclusion is not supported");
}

TEST_CASE("LowNodeUtilization: without priorities stop when cpu capacity is depleted",
          "[lownodeutilization][upstream]") {
    SnapshotBuilder b;
    lnu_without_priorities(b);
    CHECK(nu_balance<LowNodeUtilization>(b, lnu_args()) == kLnuFirstFour);
}

TEST_CASE("LowNodeUtilization: with priorities", "[lownodeutilization][upstream]") {
    SnapshotBuilder b;
    lnu_with_priorities(b);
    // The low-priority pod goes first.
    CHECK(nu_balance<LowNodeUtilization>(b, lnu_args()) ==
          Pods{"default/p5", "default/p1", "default/p2", "default/p3"});
}

TEST_CASE("LowNodeUtilization: without priorities evicting best-effort pods only", "[lownodeutilization][upstream]") {
    SnapshotBuilder b;
    lnu_best_effort_pods(b);
    // BestEffort pods request nothing, so only the pod count frees room: four go, p3 stays.
    CHECK(nu_balance<LowNodeUtilization>(b, lnu_args()) ==
          Pods{"default/p1", "default/p2", "default/p4", "default/p5"});
}

TEST_CASE("LowNodeUtilization: with extended resource", "[lownodeutilization][upstream]") {
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 9).allocatable(kExtended, "8");
    nu_node(b, "n2", 4000, 3000, 10).allocatable(kExtended, "8");
    nu_node(b, "n3", 4000, 3000, 10).cordon();
    for (int i = 1; i <= 5; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 0, 0, "n1")).request(kExtended, "1");
    nu_normal(nu_pod(b, "p6", 0, 0, "n1")).request(kExtended, "1");
    nu_mirror_with_local_storage(nu_pod(b, "p7", 0, 0, "n1")).request(kExtended, "1");
    nu_critical(b, "p8", 0, 0, "n1").request(kExtended, "1");
    nu_rs(nu_pod(b, "p9", 0, 0, "n2")).request(kExtended, "1");
    // 4 pods could go by the pod count; the extended resource's room (50 % of 8, minus 1) ends it at 3.
    CHECK(nu_balance<LowNodeUtilization>(b, R"({"thresholds": {"pods": 30, "example.com/foo": 30},
        "targetThresholds": {"pods": 50, "example.com/foo": 50}})") == Pods{"default/p1", "default/p2", "default/p3"});
}

TEST_CASE("LowNodeUtilization: with extended resource in some of nodes", "[lownodeutilization][upstream]") {
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 9).allocatable(kExtended, "8");
    nu_node(b, "n2", 4000, 3000, 10);
    nu_node(b, "n3", 4000, 3000, 10).cordon();
    nu_rs(nu_pod(b, "p1", 0, 0, "n1")).request(kExtended, "1");
    nu_rs(nu_pod(b, "p9", 0, 0, "n2"));
    // n2 has none of the extended resource: no room.
    CHECK(nu_balance<LowNodeUtilization>(b, R"({"thresholds": {"pods": 30, "example.com/foo": 30},
        "targetThresholds": {"pods": 50, "example.com/foo": 50}})")
              .empty());
}

TEST_CASE("LowNodeUtilization: with extended resource in some of nodes with deviation",
          "[lownodeutilization][upstream]") {
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 10).allocatable(kExtended, "8");
    nu_node(b, "n2", 4000, 3000, 10).allocatable(kExtended, "8");
    nu_node(b, "n3", 4000, 3000, 10).cordon();
    nu_rs(nu_pod(b, "p1", 0, 0, "n1")).request(kExtended, "1");
    nu_rs(nu_pod(b, "p2", 0, 0, "n2")).request(kExtended, "7");
    nu_rs(nu_pod(b, "p3", 0, 0, "n2"));
    nu_rs(nu_pod(b, "p8", 0, 0, "n3"));
    nu_rs(nu_pod(b, "p9", 0, 0, "n3"));
    // Averages: pods 16.7 %, extended 50 % (n3 has none): n1 is under, n2 over. p2 (7 units)
    // overdraws n1's room of 3, which ends the loop after it.
    CHECK(nu_balance<LowNodeUtilization>(b, R"({"useDeviationThresholds": true,
        "thresholds": {"pods": 5, "example.com/foo": 10}, "targetThresholds": {"pods": 5, "example.com/foo": 10}})") ==
          Pods{"default/p2"});
}

TEST_CASE("LowNodeUtilization: without priorities, but only other node is unschedulable",
          "[lownodeutilization][upstream]") {
    SnapshotBuilder b;
    lnu_other_node_unschedulable(b);
    CHECK(nu_balance<LowNodeUtilization>(b, lnu_args()).empty());
}

TEST_CASE("LowNodeUtilization: only other node doesn't match pod node selector or affinity for p4 and p5",
          "[lownodeutilization][upstream]") {
    for (bool affinity : {false, true}) {
        DYNAMIC_SECTION("without priorities, but only other node doesn't match pod node "
                        << (affinity ? "affinity" : "selector") << " for p4 and p5") {
            SnapshotBuilder b;
            lnu_p4_p5_want_west(b, affinity);
            CHECK(nu_balance<LowNodeUtilization>(b, lnu_args()) == Pods{"default/p1", "default/p2", "default/p3"});
        }
    }
}

TEST_CASE("LowNodeUtilization: deviation thresholds", "[lownodeutilization][upstream]") {
    SnapshotBuilder b;
    lnu_without_priorities(b);
    // Averages cpu 30 %, pods 33 %: n1's room on n2 is 35 % of 10 pods (3) minus 1.
    CHECK(nu_balance<LowNodeUtilization>(b, R"({"useDeviationThresholds": true,
        "thresholds": {"cpu": 5, "pods": 5}, "targetThresholds": {"cpu": 5, "pods": 5}})") ==
          Pods{"default/p1", "default/p2"});
}

TEST_CASE("LowNodeUtilization: deviation thresholds and overevicting memory", "[lownodeutilization][upstream]") {
    SnapshotBuilder b;
    lnu_memory_overevicting(b);
    // n2's memory is full: no room.
    CHECK(nu_balance<LowNodeUtilization>(b, R"({"useDeviationThresholds": true,
        "thresholds": {"cpu": 5, "pods": 5}, "targetThresholds": {"cpu": 5, "pods": 5}})")
              .empty());
}

TEST_CASE("LowNodeUtilization: without priorities different evictions for requested and actual resources",
          "[lownodeutilization][upstream]") {
    SnapshotBuilder b;
    lnu_requested_and_actual(b);
    CHECK(nu_balance<LowNodeUtilization>(b, lnu_args()) == Pods{"default/p1", "default/p2", "default/p3"});
}

TEST_CASE("LowNodeUtilization: without priorities with node eviction limit", "[lownodeutilization][upstream]") {
    SnapshotBuilder b;
    lnu_node_eviction_limit(b);
    CHECK(nu_balance<LowNodeUtilization>(b, lnu_args(R"("evictionLimits": {"node": 2})")) ==
          Pods{"default/p1", "default/p2"});
}

// ---------------------------------------------------------------------------------------------
// Upstream's cases: TestLowNodeUtilizationWithTaints (the profile's per-node limit is the number
// of evictions expected, as upstream sets it)

namespace {

const std::string kLnuPods20To70 = R"({"thresholds": {"pods": 20}, "targetThresholds": {"pods": 70}})";

void lnu_taint_nodes(SnapshotBuilder& b, bool tainted_n3) {
    nu_node(b, "n1", 2000, 3000, 10);
    if (!tainted_n3) nu_node(b, "n2", 1000, 3000, 10);
    auto& n3 = nu_node(b, "n3", 1000, 3000, 10);
    if (tainted_n3) n3.taint("key", "value", "NoSchedule");
}

Pods lnu_taint_run(SnapshotBuilder& b, uint32_t per_node) {
    Profile p(R"({"nodeFit": true})");
    p.host.limits.per_node = per_node;
    return nu_balance<LowNodeUtilization>(b, kLnuPods20To70, p);
}

}  // namespace

TEST_CASE("LowNodeUtilization: with taints", "[lownodeutilization][upstream]") {
    SnapshotBuilder b;
    SECTION("No taints") {
        lnu_taint_nodes(b, false);
        for (int i = 1; i <= 8; ++i) nu_rs(nu_pod(b, "pod_" + std::to_string(i) + "_n1", 200, 0, "n1"));
        nu_rs(nu_pod(b, "pod_9_n2", 200, 0, "n2"));
        CHECK(lnu_taint_run(b, 1) == Pods{"default/pod_1_n1"});
    }
    SECTION("No pod tolerates node taint") {
        lnu_taint_nodes(b, true);
        for (int i = 1; i <= 8; ++i) nu_rs(nu_pod(b, "pod_" + std::to_string(i) + "_n1", 200, 0, "n1"));
        nu_rs(nu_pod(b, "pod_9_n3", 200, 0, "n3"));
        CHECK(lnu_taint_run(b, 0).empty());
    }
    for (uint32_t expected : {1u, 0u}) {
        DYNAMIC_SECTION((expected ? "Pod which tolerates node taint"
                                  : "Pod which tolerates node taint, set maxPodsToEvictTotal(0), should not be "
                                    "expelled")) {
            lnu_taint_nodes(b, true);
            for (int i = 1; i <= 7; ++i) nu_rs(nu_pod(b, "pod_" + std::to_string(i) + "_n1", 200, 0, "n1"));
            nu_rs(nu_pod(b, "tolerate_pod", 200, 0, "n1")).tolerate("key", "", "value", "");
            nu_rs(nu_pod(b, "pod_9_n3", 200, 0, "n3"));
            CHECK(lnu_taint_run(b, expected) == (expected ? Pods{"default/tolerate_pod"} : Pods{}));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Upstream's validation cases (validation_test.go TestValidateLowNodeUtilizationPluginConfig),
// each message after its arg's path

TEST_CASE("LowNodeUtilization: validation", "[lownodeutilization][upstream]") {
    auto error = [](const std::string& thresholds, const std::string& targets) {
        return sigs_test::create_error<LowNodeUtilization>(R"({"thresholds": )" + thresholds +
                                                           R"(, "targetThresholds": )" + targets + "}");
    };
    CHECK(error(R"({"cpu": 20, "memory": 120})", R"({"cpu": 80, "memory": 80})") ==
          "thresholds: thresholds config is not valid: memory threshold not in [0, 100] range");
    const std::string different = "targetThresholds: thresholds and targetThresholds configured different resources";
    // different num of resources; different resources; only thresholds, only targetThresholds,
    // or each a different extended resource
    CHECK(error(R"({"cpu": 20, "memory": 20})", R"({"cpu": 80, "memory": 80, "pods": 80})") == different);
    CHECK(error(R"({"cpu": 20, "memory": 20})", R"({"cpu": 80, "pods": 80})") == different);
    CHECK(error(R"({"cpu": 20, "memory": 20, "example.com/foo": 20})", R"({"cpu": 80, "memory": 80})") == different);
    CHECK(error(R"({"cpu": 20, "memory": 20})", R"({"cpu": 80, "memory": 80, "example.com/foo": 80})") == different);
    CHECK(error(R"({"cpu": 20, "memory": 20, "example.com/foo": 20})",
                R"({"cpu": 80, "memory": 80, "example.com/bar": 80})") == different);
    CHECK(error(R"({"cpu": 90, "memory": 20})", R"({"cpu": 80, "memory": 80})") ==
          "thresholds.cpu: thresholds' cpu percentage is greater than targetThresholds'");
    CHECK(error(R"({"cpu": 20, "memory": 20, "example.com/foo": 90})",
                R"({"cpu": 80, "memory": 80, "example.com/foo": 20})") ==
          "thresholds.example.com/foo: thresholds' example.com/foo percentage is greater than targetThresholds'");
    // passing valid plugin config, with and without an extended resource
    CHECK(error(R"({"cpu": 20, "memory": 20})", R"({"cpu": 80, "memory": 80})") == "");
    CHECK(error(R"({"cpu": 20, "memory": 20, "example.com/foo": 20})",
                R"({"cpu": 80, "memory": 80, "example.com/foo": 80})") == "");
}

// ---------------------------------------------------------------------------------------------
// Our cases, per arg

TEST_CASE("LowNodeUtilization: every threshold problem names its arg", "[lownodeutilization]") {
    using sigs_test::create_error;
    CHECK(create_error<LowNodeUtilization>("{}") ==
          "thresholds: thresholds config is not valid: no resource threshold is configured\n"
          "targetThresholds: targetThresholds config is not valid: no resource threshold is configured");
    CHECK(create_error<LowNodeUtilization>(R"({"thresholds": {"cpu": -1}, "targetThresholds": {"cpu": 101}})") ==
          "thresholds: thresholds config is not valid: cpu threshold not in [0, 100] range\n"
          "targetThresholds: targetThresholds config is not valid: cpu threshold not in [0, 100] range");
    // The bounds themselves are valid.
    CHECK(create_error<LowNodeUtilization>(R"({"thresholds": {"cpu": 0}, "targetThresholds": {"cpu": 100}})") == "");
    // With deviation thresholds both are spans around the average: thresholds may exceed targets.
    CHECK(create_error<LowNodeUtilization>(
              R"({"useDeviationThresholds": true, "thresholds": {"cpu": 90}, "targetThresholds": {"cpu": 10}})") == "");
    CHECK(create_error<LowNodeUtilization>(lnu_args(R"("evictableNamespaces": {"exclude": ["kube-system"]})")) == "");
    CHECK(create_error<LowNodeUtilization>(lnu_args(R"("numberOfNodes": 2, "evictionLimits": {"node": 3})")) == "");
    CHECK(create_error<LowNodeUtilization>(lnu_args(R"("evictionLimits": {"node": -1})")) != "");
}

TEST_CASE("LowNodeUtilization: evictableNamespaces.include is refused", "[lownodeutilization]") {
    CHECK(sigs_test::create_error<LowNodeUtilization>(
              lnu_args(R"("evictableNamespaces": {"include": ["a"], "exclude": ["b"]})")) ==
          "evictableNamespaces.include: only Exclude namespaces can be set, inclusion is not supported\n"
          "evictableNamespaces: only one of Include/Exclude namespaces can be set");
}

TEST_CASE("LowNodeUtilization: evictableNamespaces.exclude keeps those pods and takes the next ones",
          "[lownodeutilization]") {
    SnapshotBuilder b;
    lnu_three_nodes(b);
    nu_rs(nu_pod(b, "p1", 400, 0, "n1", "keep"));
    nu_rs(nu_pod(b, "p2", 400, 0, "n1", "keep"));
    for (int i = 3; i <= 5; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n1"));
    lnu_kept_pods(b);
    nu_rs(nu_pod(b, "p9", 400, 0, "n2"));
    CHECK(nu_balance<LowNodeUtilization>(b, lnu_args(R"("evictableNamespaces": {"exclude": ["keep"]})")) ==
          Pods{"default/p3", "default/p4", "default/p5"});
}

TEST_CASE("LowNodeUtilization: numberOfNodes", "[lownodeutilization]") {
    SnapshotBuilder b;
    lnu_without_priorities(b);  // one underutilized node, n2
    SECTION("as many underutilized nodes as numberOfNodes: nothing to do") {
        Profile p(R"({"nodeFit": true})");
        CHECK(nu_balance<LowNodeUtilization>(b, lnu_args(R"("numberOfNodes": 1)"), p).empty());
        CHECK(nu_logged(p, "Number of nodes underutilized (1) is less or equal than numberOfNodes (1)"));
    }
    SECTION("fewer: the plugin runs") {
        CHECK(nu_balance<LowNodeUtilization>(b, lnu_args(R"("numberOfNodes": 0)")) == kLnuFirstFour);
    }
}

TEST_CASE("LowNodeUtilization: returns quietly when there is nothing to balance", "[lownodeutilization]") {
    SnapshotBuilder b;
    Profile p(R"({"nodeFit": true})");
    SECTION("no node is underutilized") {
        nu_node(b, "n1", 4000, 3000, 10);
        nu_node(b, "n2", 4000, 3000, 10);
        for (int i = 1; i <= 8; ++i) nu_rs(nu_pod(b, "a" + std::to_string(i), 400, 0, "n1"));
        for (int i = 1; i <= 4; ++i) nu_rs(nu_pod(b, "b" + std::to_string(i), 400, 0, "n2"));  // 40 %: appropriate
        CHECK(nu_balance<LowNodeUtilization>(b, lnu_args(), p).empty());
        CHECK(nu_logged(p, "No node is underutilized, nothing to do here, you might tune your thresholds further"));
    }
    SECTION("every node is underutilized") {
        nu_node(b, "n1", 4000, 3000, 10);
        nu_node(b, "n2", 4000, 3000, 10);
        nu_rs(nu_pod(b, "a1", 400, 0, "n1"));
        CHECK(nu_balance<LowNodeUtilization>(b, lnu_args(), p).empty());
        CHECK(nu_logged(p, "All nodes are underutilized, nothing to do here"));
    }
    SECTION("no node is overutilized") {
        nu_node(b, "n1", 4000, 3000, 10);
        nu_node(b, "n2", 4000, 3000, 10);
        for (int i = 1; i <= 4; ++i) nu_rs(nu_pod(b, "a" + std::to_string(i), 400, 0, "n1"));
        CHECK(nu_balance<LowNodeUtilization>(b, lnu_args(), p).empty());
        CHECK(nu_logged(p, "All nodes are under target utilization, nothing to do here"));
    }
    CHECK(p.requests() == 0);
}

namespace {

// n0 (60 % cpu) and n1 (80 %) overutilized, n2 a big empty node: thresholds cpu 20 → 50.
void lnu_two_sources(SnapshotBuilder& b) {
    nu_node(b, "n0", 4000, 3000, 110);
    nu_node(b, "n1", 4000, 3000, 110);
    nu_node(b, "n2", 40000, 3000, 110);
    for (int i = 1; i <= 3; ++i) nu_rs(nu_pod(b, "a" + std::to_string(i), 800, 0, "n0"));
    for (int i = 1; i <= 4; ++i) nu_rs(nu_pod(b, "b" + std::to_string(i), 800, 0, "n1"));
}

const std::string kLnuCpu20To50 = R"({"thresholds": {"cpu": 20}, "targetThresholds": {"cpu": 50}})";

}  // namespace

TEST_CASE("LowNodeUtilization: the fullest node first, each down to its target", "[lownodeutilization]") {
    SnapshotBuilder b;
    lnu_two_sources(b);
    // n1 goes down to 2000m (two pods), then n0 (one pod).
    CHECK(nu_balance<LowNodeUtilization>(b, kLnuCpu20To50) == Pods{"default/b1", "default/b2", "default/a1"});
}

TEST_CASE("LowNodeUtilization: evictionLimits.node caps each node, not the cycle", "[lownodeutilization]") {
    SnapshotBuilder b;
    lnu_two_sources(b);
    CHECK(nu_balance<LowNodeUtilization>(
              b, R"({"thresholds": {"cpu": 20}, "targetThresholds": {"cpu": 50}, "evictionLimits": {"node": 1}})") ==
          Pods{"default/b1", "default/a1"});
}

TEST_CASE("LowNodeUtilization: the profile's limits", "[lownodeutilization]") {
    SnapshotBuilder b;
    lnu_two_sources(b);
    Profile p(R"({"nodeFit": true})");
    SECTION("a node's limit moves on to the next node") {
        p.host.limits.per_node = 1;
        CHECK(nu_balance<LowNodeUtilization>(b, kLnuCpu20To50, p) == Pods{"default/b1", "default/a1"});
        CHECK(p.requests() == 3);  // b2 was refused by n1's limit
    }
    SECTION("the total limit ends the cycle") {
        p.host.limits.total = 1;
        CHECK(nu_balance<LowNodeUtilization>(b, kLnuCpu20To50, p) == Pods{"default/b1"});
        CHECK(p.requests() == 2);
    }
}

TEST_CASE("LowNodeUtilization: pods leave by priority, then QoS, then the prefer-no-eviction annotation",
          "[lownodeutilization]") {
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 5);
    nu_node(b, "n2", 4000, 3000, 100);
    nu_rs(nu_pod(b, "with-priority", 100, 0, "n1")).with_priority(0);
    nu_rs(nu_pod(b, "guaranteed", 100, 0, "n1")).with_qos(KD_QOS_GUARANTEED);
    nu_rs(nu_pod(b, "prefers-to-stay", 100, 0, "n1"))
        .annotation("descheduler.alpha.kubernetes.io/prefer-no-eviction", "");
    nu_rs(nu_pod(b, "burstable", 100, 0, "n1"));
    nu_best_effort(nu_rs(nu_pod(b, "best-effort", 0, 0, "n1")));
    // Pods only: n1 holds 5 of 5, its target is 1 (20 %): four go, the prioritised one stays.
    CHECK(nu_balance<LowNodeUtilization>(b, R"({"thresholds": {"pods": 2}, "targetThresholds": {"pods": 20}})") ==
          Pods{"default/best-effort", "default/burstable", "default/prefers-to-stay", "default/guaranteed"});
}

TEST_CASE("LowNodeUtilization: pods that ended hold nothing", "[lownodeutilization]") {
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 10);
    nu_node(b, "n2", 4000, 3000, 10);
    for (int i = 1; i <= 3; ++i) nu_rs(nu_pod(b, "done" + std::to_string(i), 100, 0, "n1")).in_phase(KD_POD_SUCCEEDED);
    nu_rs(nu_pod(b, "failed", 100, 0, "n1")).in_phase(KD_POD_FAILED);
    for (int i = 1; i <= 6; ++i) nu_rs(nu_pod(b, "run" + std::to_string(i), 100, 0, "n1"));
    // n1 holds 6 pods of 10, not 10: one goes to reach the target of 5, and none of the ended ones.
    CHECK(nu_balance<LowNodeUtilization>(b, R"({"thresholds": {"pods": 20}, "targetThresholds": {"pods": 50}})") ==
          Pods{"default/run1"});
}

TEST_CASE("LowNodeUtilization: a cordoned node is never a destination", "[lownodeutilization]") {
    // Without nodeFit, so that only the classification keeps the pods in place.
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 9);
    nu_node(b, "n2", 4000, 3000, 10).cordon();
    nu_node(b, "n3", 4000, 3000, 10);
    for (int i = 1; i <= 5; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n1"));
    for (int i = 1; i <= 4; ++i) nu_rs(nu_pod(b, "q" + std::to_string(i), 400, 0, "n3"));  // 40 %: appropriate
    Profile p("{}");
    CHECK(nu_balance<LowNodeUtilization>(b, lnu_args(), p).empty());
    CHECK(nu_logged(p, "No node is underutilized"));
}

TEST_CASE("LowNodeUtilization: a pod must tolerate every taint of some destination", "[lownodeutilization]") {
    // Upstream's utils.PodToleratesTaints counts every taint, PreferNoSchedule too. Without nodeFit,
    // so that only this check keeps pods in place.
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 10);
    nu_node(b, "n2", 4000, 3000, 10).taint("dedicated", "batch", "PreferNoSchedule");
    for (int i = 1; i <= 5; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 100, 0, "n1"));
    nu_rs(nu_pod(b, "tolerates", 100, 0, "n1")).tolerate("dedicated", "Exists", "", "");
    nu_rs(nu_pod(b, "wrong-value", 100, 0, "n1")).tolerate("dedicated", "Equal", "web", "");
    Profile p("{}");
    CHECK(nu_balance<LowNodeUtilization>(b, R"({"thresholds": {"pods": 20}, "targetThresholds": {"pods": 50}})", p) ==
          Pods{"default/tolerates"});
}

TEST_CASE("LowNodeUtilization: deviation thresholds are clamped to [0, 100]", "[lownodeutilization]") {
    // Average cpu 30 %: the low span of 50 gives -20, clamped to 0, so the empty n1 is underutilized
    // (0 <= 0); the high span of 10 gives 40 %, over which n2 (80 %) is. n1 takes 40 % of 4 cores.
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 10);
    nu_node(b, "n2", 4000, 3000, 10);
    nu_node(b, "n3", 4000, 3000, 10);
    for (int i = 1; i <= 8; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n2"));
    nu_rs(nu_pod(b, "q1", 400, 0, "n3"));
    CHECK(nu_balance<LowNodeUtilization>(
              b, R"({"useDeviationThresholds": true, "thresholds": {"cpu": 50}, "targetThresholds": {"cpu": 10}})") ==
          Pods{"default/p1", "default/p2", "default/p3", "default/p4"});
}

TEST_CASE("LowNodeUtilization: a dry run takes the same pods", "[lownodeutilization]") {
    SnapshotBuilder b;
    lnu_without_priorities(b);
    Profile p(R"({"nodeFit": true})");
    p.host.dry_run = true;
    CHECK(nu_balance<LowNodeUtilization>(b, lnu_args(), p) == kLnuFirstFour);
}

TEST_CASE("LowNodeUtilization: reports each node's class and why a candidate stayed", "[lownodeutilization]") {
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 9);
    nu_node(b, "n2", 4000, 3000, 10).taint("dedicated", "web", "NoSchedule");
    nu_node(b, "n3", 4000, 3000, 10).cordon();
    nu_node(b, "n4", 4000, 3000, 10).taint("dedicated", "batch", "NoSchedule");
    nu_rs(nu_pod(b, "p1", 400, 0, "n1", "keep")).tolerate("dedicated", "Exists", "", "");
    nu_rs(nu_pod(b, "p2", 400, 0, "n1")).tolerate("dedicated", "Exists", "", "");
    for (int i = 3; i <= 5; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n1"));
    lnu_kept_pods(b);
    Profile p("{}");
    CHECK(nu_balance<LowNodeUtilization>(b, lnu_args(R"("evictableNamespaces": {"exclude": ["keep"]})"), p) ==
          Pods{"default/p2"});
    const auto& reports = p.host.reports();
    auto reported = [&](const std::string& line) {
        return std::find(reports.begin(), reports.end(), line) != reports.end();
    };
    CHECK(reported("node n1 class=high"));
    CHECK(reported("node n2 class=low"));
    CHECK(reported("node n3 class=appropriate"));  // cordoned: never underutilized
    CHECK(reported("node n4 class=low"));
    CHECK(reported("pod keep/p1 skipped=EvictableNamespaces"));
    for (int i = 3; i <= 5; ++i)
        CHECK(
            reported("pod default/p" + std::to_string(i) + " skipped=Taints: tolerates no destination node's taints"));
}
