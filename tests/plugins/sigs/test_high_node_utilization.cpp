// HighNodeUtilization. The first part: the cases of upstream's table tests
// (pkg/framework/plugins/nodeutilization/highnodeutilization_test.go@v0.35.1 TestHighNodeUtilization
// and TestHighNodeUtilizationWithTaints, named by their descriptions) as facts: same nodes, pods
// and args, same number of pods evicted. Upstream counts evictions and, in some cases, lists the
// pods it allows; we state which pods, in which order. Then the validation cases
// (validation_test.go) and our own, per arg.
#include "utilization_test.hpp"

using namespace utilization_test;
using kd::plugins::sigs::HighNodeUtilization;

namespace {

const std::string kHnuCpuPods30 = R"({"thresholds": {"cpu": 30, "pods": 30}})";

}  // namespace

// ---------------------------------------------------------------------------------------------
// Upstream's cases: TestHighNodeUtilization

TEST_CASE("HighNodeUtilization: no node below threshold usage", "[highnodeutilization][upstream]") {
    SnapshotBuilder b;
    for (std::string n : {"n1", "n2", "n3"}) nu_node(b, n, 4000, 3000, 10);
    for (int i = 1; i <= 9; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n" + std::to_string((i + 2) / 3)));
    CHECK(nu_balance<HighNodeUtilization>(b, R"({"thresholds": {"cpu": 20, "pods": 20}})").empty());
}

TEST_CASE("HighNodeUtilization: no evictable pods", "[highnodeutilization][upstream]") {
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 9);
    nu_node(b, "n2", 4000, 3000, 10);
    nu_node(b, "n3", 4000, 3000, 10);
    nu_mirror_with_local_storage(nu_pod(b, "p1", 400, 0, "n1"));
    nu_critical(b, "p2", 400, 0, "n1");
    nu_ds(nu_pod(b, "p3", 400, 0, "n2"));
    nu_ds(nu_pod(b, "p4", 400, 0, "n2"));
    for (int i = 5; i <= 8; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n3"));
    CHECK(nu_balance<HighNodeUtilization>(b, R"({"thresholds": {"cpu": 40, "pods": 40}})").empty());
}

TEST_CASE("HighNodeUtilization: no node to schedule evicted pods", "[highnodeutilization][upstream]") {
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 10);
    nu_node(b, "n2", 4000, 3000, 10);
    nu_node(b, "n3", 4000, 3000, 10).cordon();
    nu_rs(nu_pod(b, "p1", 400, 0, "n1"));
    nu_rs(nu_pod(b, "p2", 400, 0, "n2"));
    for (int i = 3; i <= 5; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n3"));
    Profile p(R"({"nodeFit": true})");
    CHECK(nu_balance<HighNodeUtilization>(b, R"({"thresholds": {"cpu": 20, "pods": 20}})", p).empty());
    CHECK(nu_logged(p, "No node is available to schedule the pods, nothing to do here"));
}

TEST_CASE("HighNodeUtilization: without priorities", "[highnodeutilization][upstream]") {
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 10);
    nu_node(b, "n2", 4000, 3000, 10);
    nu_node(b, "n3", 4000, 3000, 10).cordon();
    nu_rs(nu_pod(b, "p1", 400, 0, "n1"));
    nu_critical(b, "p2", 400, 0, "n1");
    for (int i = 3; i <= 6; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n2"));
    nu_rs(nu_pod(b, "p7", 400, 0, "n3"));
    // n3 (cordoned, 10 %) is the least used underutilized node: it is emptied first.
    CHECK(nu_balance<HighNodeUtilization>(b, kHnuCpuPods30) == Pods{"default/p7", "default/p1"});
}

TEST_CASE("HighNodeUtilization: without priorities stop when resource capacity is depleted",
          "[highnodeutilization][upstream]") {
    SnapshotBuilder b;
    nu_node(b, "n1", 2000, 3000, 10);
    nu_node(b, "n2", 2000, 3000, 10);
    nu_node(b, "n3", 2000, 3000, 10).cordon();
    nu_rs(nu_pod(b, "p1", 400, 0, "n1"));
    for (int i = 2; i <= 5; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n2"));
    nu_rs(nu_pod(b, "p6", 400, 0, "n3"));
    // n2 has 400m left: one pod fills it. n1 and n3 are equally used; n1 comes first.
    CHECK(nu_balance<HighNodeUtilization>(b, kHnuCpuPods30) == Pods{"default/p1"});
}

TEST_CASE("HighNodeUtilization: with priorities", "[highnodeutilization][upstream]") {
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 10);
    nu_node(b, "n2", 2000, 3000, 10);
    nu_node(b, "n3", 2000, 3000, 10).cordon();
    nu_rs(nu_pod(b, "p1", 400, 0, "n1")).with_priority(kLowPriority);
    nu_rs(nu_pod(b, "p2", 400, 0, "n1")).with_priority(kHighPriority);
    for (int i = 5; i <= 8; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n2"));
    nu_ds(nu_pod(b, "p9", 400, 0, "n3"));
    CHECK(nu_balance<HighNodeUtilization>(b, R"({"thresholds": {"cpu": 30}})") == Pods{"default/p1"});
}

TEST_CASE("HighNodeUtilization: without priorities evicting best-effort pods only", "[highnodeutilization][upstream]") {
    SnapshotBuilder b;
    nu_node(b, "n1", 3000, 3000, 10);
    nu_node(b, "n2", 3000, 3000, 5);
    nu_node(b, "n3", 3000, 3000, 10).cordon();
    nu_best_effort(nu_rs(nu_pod(b, "p1", 0, 0, "n1")));
    nu_rs(nu_pod(b, "p2", 400, 0, "n1"));
    for (int i = 3; i <= 6; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n2"));
    // n2 has room for one more pod: the BestEffort one goes first.
    CHECK(nu_balance<HighNodeUtilization>(b, R"({"thresholds": {"cpu": 30}})") == Pods{"default/p1"});
}

TEST_CASE("HighNodeUtilization: with extended resource", "[highnodeutilization][upstream]") {
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 10).allocatable(kExtended, "8");
    nu_node(b, "n2", 4000, 3000, 10).allocatable(kExtended, "8");
    nu_node(b, "n3", 4000, 3000, 10).cordon();
    nu_rs(nu_pod(b, "p1", 100, 0, "n1")).request(kExtended, "1");
    nu_rs(nu_pod(b, "p2", 100, 0, "n1")).request(kExtended, "1");
    for (int i = 3; i <= 6; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 500, 0, "n2")).request(kExtended, "1");
    CHECK(nu_balance<HighNodeUtilization>(b, R"({"thresholds": {"cpu": 20, "example.com/foo": 40}})") ==
          Pods{"default/p1", "default/p2"});
}

TEST_CASE("HighNodeUtilization: with extended resource in some of nodes", "[highnodeutilization][upstream]") {
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 10).allocatable(kExtended, "8");
    nu_node(b, "n2", 4000, 3000, 10);
    nu_node(b, "n3", 4000, 3000, 10).cordon();
    nu_rs(nu_pod(b, "p1", 100, 0, "n1")).request(kExtended, "1");
    nu_rs(nu_pod(b, "p2", 100, 0, "n1")).request(kExtended, "1");
    for (int i = 3; i <= 6; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 500, 0, "n2"));
    CHECK(nu_balance<HighNodeUtilization>(b, R"({"thresholds": {"cpu": 40, "example.com/foo": 40}})").empty());
}

TEST_CASE("HighNodeUtilization: pod node selector", "[highnodeutilization][upstream]") {
    for (bool matches : {true, false}) {
        DYNAMIC_SECTION(
            (matches ? "Other node match pod node selector" : "Other node does not match pod node selector")) {
            SnapshotBuilder b;
            auto& n1 = nu_node(b, "n1", 4000, 3000, 9);
            if (matches) n1.label("datacenter", "west");
            nu_node(b, "n2", 4000, 3000, 10);
            for (int i = 1; i <= 3; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n1"));
            nu_ds(nu_pod(b, "p4", 400, 0, "n1"));
            nu_rs(nu_pod(b, "p5", 400, 0, "n2")).select_node("datacenter", "west");
            CHECK(nu_balance<HighNodeUtilization>(b, kHnuCpuPods30) == (matches ? Pods{"default/p5"} : Pods{}));
        }
    }
}

TEST_CASE("HighNodeUtilization: Other node does not have enough Memory", "[highnodeutilization][upstream]") {
    // Upstream lists this case twice, identically.
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 200, 9);
    nu_node(b, "n2", 4000, 3000, 10);
    for (int i = 1; i <= 3; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 50, "n1"));
    nu_ds(nu_pod(b, "p4", 400, 50, "n1"));
    nu_rs(nu_pod(b, "p5", 400, 100, "n2"));
    CHECK(nu_balance<HighNodeUtilization>(b, kHnuCpuPods30).empty());
}

TEST_CASE("HighNodeUtilization: with extended resource threshold and no extended resource pods",
          "[highnodeutilization][upstream]") {
    SnapshotBuilder b;
    for (std::string n : {"n1", "n2", "n3"}) nu_node(b, n, 4000, 3000, 10).allocatable(kExtended, "10");
    nu_rs(nu_pod(b, "p1", 100, 0, "n1")).request(kExtended, "3");
    nu_rs(nu_pod(b, "p2", 100, 0, "n1")).request(kExtended, "3");
    for (int i = 3; i <= 6; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 500, 0, "n2"));
    CHECK(nu_balance<HighNodeUtilization>(
              b, R"({"thresholds": {"example.com/foo": 40}, "evictionModes": ["OnlyThresholdingResources"]})")
              .empty());
}

// ---------------------------------------------------------------------------------------------
// Upstream's cases: TestHighNodeUtilizationWithTaints (DefaultEvictor without nodeFit; the
// profile's per-node limit is the number of evictions expected, as upstream sets it)

namespace {

Pods hnu_taint_run(SnapshotBuilder& b, uint32_t per_node) {
    Profile p("{}");
    p.host.limits.per_node = per_node;
    return nu_balance<HighNodeUtilization>(b, R"({"thresholds": {"cpu": 40}})", p);
}

}  // namespace

TEST_CASE("HighNodeUtilization: with taints", "[highnodeutilization][upstream]") {
    SnapshotBuilder b;
    nu_node(b, "n1", 1000, 3000, 10);
    SECTION("No taints") {
        nu_node(b, "n2", 1000, 3000, 10);
        nu_node(b, "n3", 1000, 3000, 10);
        for (int i = 1; i <= 3; ++i) nu_rs(nu_pod(b, "pod_" + std::to_string(i) + "_n1", 200, 0, "n1"));
        nu_rs(nu_pod(b, "pod_4_n2", 200, 0, "n2"));
        CHECK(hnu_taint_run(b, 1) == Pods{"default/pod_4_n2"});
    }
    SECTION("No pod tolerates node taint") {
        nu_node(b, "n3", 1000, 3000, 10).taint("key", "value", "NoSchedule");
        nu_rs(nu_pod(b, "pod_1_n1", 200, 0, "n1"));
        nu_rs(nu_pod(b, "pod_2_n3", 200, 0, "n3"));
        CHECK(hnu_taint_run(b, 0).empty());
    }
    SECTION("Pod which tolerates node taint") {
        nu_node(b, "n3", 1000, 3000, 10).taint("key", "value", "NoSchedule");
        nu_rs(nu_pod(b, "pod_1_n1", 100, 0, "n1"));
        nu_rs(nu_pod(b, "tolerate_pod", 200, 0, "n1")).tolerate("key", "", "value", "");
        nu_rs(nu_pod(b, "pod_9_n3", 500, 0, "n3"));
        CHECK(hnu_taint_run(b, 1) == Pods{"default/tolerate_pod"});
    }
}

// ---------------------------------------------------------------------------------------------
// Upstream's validation cases (validation_test.go TestValidateHighNodeUtilizationPluginConfig)

TEST_CASE("HighNodeUtilization: validation", "[highnodeutilization][upstream]") {
    using sigs_test::create_error;
    CHECK(create_error<HighNodeUtilization>(
              R"({"thresholds": {"cpu": 20, "memory": 20}, "evictionModes": ["OnlyThresholdingResources"]})") == "");
    CHECK(create_error<HighNodeUtilization>(
              R"({"thresholds": {"example.com/foo": 20}, "evictionModes": ["OnlyThresholdingResources"]})") == "");
    CHECK(create_error<HighNodeUtilization>(R"({"thresholds": {}})") ==
          "thresholds: no resource threshold is configured");
    CHECK(create_error<HighNodeUtilization>(R"({"thresholds": {"cpu": -1}})") ==
          "thresholds: cpu threshold not in [0, 100] range");
    CHECK(create_error<HighNodeUtilization>(R"({"thresholds": {"memory": 101}})") ==
          "thresholds: memory threshold not in [0, 100] range");
    CHECK(create_error<HighNodeUtilization>(R"({"thresholds": {"cpu": 50, "memory": 150}})") ==
          "thresholds: memory threshold not in [0, 100] range");
    CHECK(create_error<HighNodeUtilization>(
              R"({"thresholds": {"cpu": 80}, "evictableNamespaces": {"exclude": ["ns1", "ns2"]}})") == "");
    CHECK(create_error<HighNodeUtilization>(R"({"thresholds": {"cpu": 80}, "evictionModes": ["InvalidMode"]})") ==
          "evictionModes[0]: invalid eviction mode InvalidMode");
    CHECK(create_error<HighNodeUtilization>(R"({"thresholds": {"cpu": 80}, "evictionModes": null})") == "");
    CHECK(create_error<HighNodeUtilization>(R"({"thresholds": {"cpu": 80}, "evictionModes": []})") == "");
}

// ---------------------------------------------------------------------------------------------
// Our cases, per arg

TEST_CASE("HighNodeUtilization: args it refuses", "[highnodeutilization]") {
    using sigs_test::create_error;
    CHECK(create_error<HighNodeUtilization>("{}") == "thresholds: no resource threshold is configured");
    CHECK(create_error<HighNodeUtilization>(
              R"({"thresholds": {"cpu": 80}, "evictableNamespaces": {"include": ["a"]}})") ==
          "evictableNamespaces.include: only Exclude namespaces can be set, inclusion is not supported");
    CHECK(create_error<HighNodeUtilization>(
              R"({"thresholds": {"cpu": 80}, "evictionModes": ["OnlyThresholdingResources", "All"]})") ==
          "evictionModes[1]: invalid eviction mode All");
    // Upstream's HighNodeUtilizationArgs has neither targetThresholds nor metricsUtilization.
    CHECK(create_error<HighNodeUtilization>(R"({"thresholds": {"cpu": 80}, "targetThresholds": {"cpu": 90}})")
              .rfind("targetThresholds: unknown field", 0) == 0);
    CHECK(create_error<HighNodeUtilization>(R"({"thresholds": {"cpu": 80}, "metricsUtilization": {}})")
              .rfind("metricsUtilization: unknown field", 0) == 0);
    CHECK(create_error<HighNodeUtilization>(R"({"thresholds": {"cpu": 80}, "numberOfNodes": 3})") == "");
}

namespace {

// Upstream's "without priorities": n1 (20 %) and cordoned n3 (10 %) underutilized, n2 (40 %) takes pods.
void hnu_without_priorities(SnapshotBuilder& b, const std::string& p7_namespace = "default") {
    nu_node(b, "n1", 4000, 3000, 10);
    nu_node(b, "n2", 4000, 3000, 10);
    nu_node(b, "n3", 4000, 3000, 10).cordon();
    nu_rs(nu_pod(b, "p1", 400, 0, "n1"));
    nu_critical(b, "p2", 400, 0, "n1");
    for (int i = 3; i <= 6; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 400, 0, "n2"));
    nu_rs(nu_pod(b, "p7", 400, 0, "n3", p7_namespace));
}

}  // namespace

TEST_CASE("HighNodeUtilization: numberOfNodes", "[highnodeutilization]") {
    SnapshotBuilder b;
    hnu_without_priorities(b);
    Profile p(R"({"nodeFit": true})");
    SECTION("as many underutilized nodes as numberOfNodes: nothing to do") {
        CHECK(nu_balance<HighNodeUtilization>(b, R"({"thresholds": {"cpu": 30, "pods": 30}, "numberOfNodes": 2})", p)
                  .empty());
        CHECK(nu_logged(p, "Number of nodes underutilized (2) is less or equal than numberOfNodes (2)"));
    }
    SECTION("fewer: the plugin runs") {
        CHECK(nu_balance<HighNodeUtilization>(b, R"({"thresholds": {"cpu": 30, "pods": 30}, "numberOfNodes": 1})", p) ==
              Pods{"default/p7", "default/p1"});
    }
}

TEST_CASE("HighNodeUtilization: evictableNamespaces.exclude", "[highnodeutilization]") {
    SnapshotBuilder b;
    hnu_without_priorities(b, "keep");
    CHECK(nu_balance<HighNodeUtilization>(
              b, R"({"thresholds": {"cpu": 30, "pods": 30}, "evictableNamespaces": {"exclude": ["keep"]}})") ==
          Pods{"default/p1"});
}

TEST_CASE("HighNodeUtilization: evictionModes OnlyThresholdingResources", "[highnodeutilization]") {
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 10);
    nu_node(b, "n2", 4000, 3000, 10);
    nu_best_effort(nu_rs(nu_pod(b, "requests-nothing", 0, 0, "n1")));
    nu_rs(nu_pod(b, "requests-memory", -1, 100, "n1"));
    nu_rs(nu_pod(b, "requests-cpu", 400, -1, "n1"));
    for (int i = 1; i <= 5; ++i) nu_rs(nu_pod(b, "full" + std::to_string(i), 400, 0, "n2"));
    SECTION("without it, every pod of the underutilized node") {
        CHECK(nu_balance<HighNodeUtilization>(b, R"({"thresholds": {"cpu": 30}})") ==
              Pods{"default/requests-nothing", "default/requests-memory", "default/requests-cpu"});
    }
    SECTION("with it, only pods requesting a thresholds resource") {
        CHECK(nu_balance<HighNodeUtilization>(
                  b, R"({"thresholds": {"cpu": 30}, "evictionModes": ["OnlyThresholdingResources"]})") ==
              Pods{"default/requests-cpu"});
    }
}

TEST_CASE("HighNodeUtilization: returns quietly when there is nothing to pack", "[highnodeutilization]") {
    SnapshotBuilder b;
    Profile p(R"({"nodeFit": true})");
    nu_node(b, "n1", 4000, 3000, 10);
    nu_node(b, "n2", 4000, 3000, 10);
    SECTION("no node is underutilized") {
        for (int i = 1; i <= 4; ++i) nu_rs(nu_pod(b, "a" + std::to_string(i), 400, 0, "n1"));
        for (int i = 1; i <= 4; ++i) nu_rs(nu_pod(b, "b" + std::to_string(i), 400, 0, "n2"));
        CHECK(nu_balance<HighNodeUtilization>(b, kHnuCpuPods30, p).empty());
        CHECK(nu_logged(p, "No node is underutilized, nothing to do here, you might tune your thresholds further"));
    }
    SECTION("every node is underutilized") {
        nu_rs(nu_pod(b, "a1", 400, 0, "n1"));
        CHECK(nu_balance<HighNodeUtilization>(b, kHnuCpuPods30, p).empty());
        CHECK(nu_logged(p, "All nodes are underutilized, nothing to do here"));
    }
    CHECK(p.requests() == 0);
}

TEST_CASE("HighNodeUtilization: a node's limit moves on to the next underutilized node", "[highnodeutilization]") {
    SnapshotBuilder b;
    hnu_without_priorities(b);
    nu_rs(nu_pod(b, "p8", 300, 0, "n3"));  // n3: 17.5 %, still under and still first (702 < 802)
    Profile p(R"({"nodeFit": true})");
    p.host.limits.per_node = 1;
    CHECK(nu_balance<HighNodeUtilization>(b, kHnuCpuPods30, p) == Pods{"default/p7", "default/p1"});
}
