// RemovePodsViolatingNodeTaints. The first part: the cases of upstream's table test
// (pkg/framework/plugins/removepodsviolatingnodetaints/node_taint_test.go@v0.35.1, named by their
// descriptions) as facts: which pods are evicted, in order, where upstream counts them. Then its
// validation cases, then our own, per arg.
#include "sigs_test.hpp"

using namespace sigs_test;
using kd::plugins::sigs::RemovePodsViolatingNodeTaints;

namespace {

// upstream's buildTestNode: test.BuildTestNode(name, 2000, 3000, 10).
SnapshotBuilder::NodeSpec& taints_node(SnapshotBuilder& b, const std::string& name, const std::string& cpu = "2000m",
                                       const std::string& memory = "3000", const std::string& pods = "10") {
    return b.node(name).allocatable("cpu", cpu).allocatable("memory", memory).allocatable("pods", pods);
}

// upstream's buildTestPodWithNormalOwnerRef: 100m CPU, owned by a Pod, in namespace default.
SnapshotBuilder::PodSpec& taints_pod(SnapshotBuilder& b, const std::string& name, const std::string& node) {
    return b.pod("default", name).on(node).request("cpu", "100m").request("memory", "0").owner("Pod", "", false);
}

// createNoScheduleTaint("…", "…", 1) names the taint testTaint1=test1, whatever its first arguments.
SnapshotBuilder::NodeSpec& taints_test_taint1(SnapshotBuilder::NodeSpec& n) {
    return n.taint("testTaint1", "test1", "NoSchedule");
}
SnapshotBuilder::NodeSpec& taints_testing_taint1(SnapshotBuilder::NodeSpec& n) {
    return n.taint("testingTaint1", "testing1", "NoSchedule");
}
// withTestTaintToleration1: an Equal toleration (no operator) of testTaint1=test1:NoSchedule.
SnapshotBuilder::PodSpec& taints_tolerates1(SnapshotBuilder::PodSpec& p) {
    return p.tolerate("testTaint1", "", "test1", "NoSchedule");
}
SnapshotBuilder::PodSpec& taints_tolerates_x1(SnapshotBuilder::PodSpec& p) {
    return p.tolerate("testTaintX1", "", "testX1", "NoSchedule");
}
// withKubeSystemCriticalPod: kube-system, priority SystemCriticalPriority.
SnapshotBuilder::PodSpec& taints_critical(SnapshotBuilder::PodSpec& p) {
    p.ns = "kube-system";
    return p.with_priority(2'000'000'000);
}

// The upstream cases' p7…p10 on n2 (critical, DaemonSet, local storage, mirror).
void taints_protected_pods(SnapshotBuilder& b, bool with_local_storage = true) {
    taints_critical(taints_pod(b, "p7", "n2"));
    b.pod("default", "p8").on("n2").request("cpu", "100m").owner("DaemonSet", "ds", false);
    if (with_local_storage) taints_pod(b, "p9", "n2").set_flag(KD_POD_LOCAL_STORAGE);
    taints_pod(b, "p10", "n2").annotation("kubernetes.io/config.mirror", "mirror");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Upstream's cases

TEST_CASE("RemovePodsViolatingNodeTaints: pods not tolerating their node's taint", "[nodetaints][upstream]") {
    SnapshotBuilder b;
    taints_test_taint1(taints_node(b, "n1"));
    Profile p;
    SECTION("Pods not tolerating node taint should be evicted") {
        taints_tolerates1(taints_pod(b, "p1", "n1"));
        taints_pod(b, "p2", "n1");
        taints_tolerates1(taints_pod(b, "p3", "n1"));
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}") == Pods{"default/p2"});
    }
    SECTION("Pods with tolerations but not tolerating node taint should be evicted") {
        taints_tolerates1(taints_pod(b, "p1", "n1"));
        taints_tolerates1(taints_pod(b, "p3", "n1"));
        taints_tolerates_x1(taints_pod(b, "p4", "n1"));
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}") == Pods{"default/p4"});
    }
}

TEST_CASE("RemovePodsViolatingNodeTaints: limits", "[nodetaints][upstream][limits]") {
    SnapshotBuilder b;
    taints_test_taint1(taints_node(b, "n1"));
    taints_tolerates1(taints_pod(b, "p1", "n1"));
    taints_pod(b, "p5", "n1");
    taints_pod(b, "p6", "n1");
    Profile p;
    SECTION("Only <maxNoOfPodsToEvictTotal> number of Pods not tolerating node taint should be evicted") {
        p.host.limits.per_node = 2;
        p.host.limits.total = 1;
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}") == Pods{"default/p5"});
        CHECK(p.requests() == 2);  // p6 refused by the total limit, which ends the cycle
    }
    SECTION("Only <maxPodsToEvictPerNode> number of Pods not tolerating node taint should be evicted") {
        p.host.limits.per_node = 1;
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}") == Pods{"default/p5"});
        CHECK(p.requests() == 2);
    }
    // Upstream lists this case twice, word for word.
    SECTION("Only <maxNoOfPodsToEvictPerNamespace> number of Pods not tolerating node taint should be evicted") {
        p.host.limits.per_namespace = 1;
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}") == Pods{"default/p5"});
    }
}

TEST_CASE("RemovePodsViolatingNodeTaints: the evictor's protections", "[nodetaints][upstream]") {
    SnapshotBuilder b;
    taints_testing_taint1(taints_node(b, "n2"));
    SECTION("Critical pods not tolerating node taint should not be evicted") {
        taints_protected_pods(b);
        Profile p;
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}").empty());
    }
    SECTION("Critical pods except storage pods not tolerating node taint should not be evicted") {
        taints_protected_pods(b);
        Profile p(R"({"evictLocalStoragePods": true})");
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}") == Pods{"default/p9"});
    }
    SECTION("Critical and non critical pods, only non critical pods not tolerating node taint should be evicted") {
        taints_protected_pods(b, false);
        taints_pod(b, "p11", "n2");
        Profile p;
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}") == Pods{"default/p11"});
    }
}

TEST_CASE(
    "RemovePodsViolatingNodeTaints: Critical and non critical pods, pods not tolerating node taint should be evicted "
    "even if they are critical",
    "[nodetaints][upstream]") {
    SnapshotBuilder b;
    taints_test_taint1(taints_node(b, "n1"));
    taints_testing_taint1(taints_node(b, "n2"));
    taints_pod(b, "p2", "n1");
    taints_critical(taints_pod(b, "p7", "n2"));
    taints_pod(b, "p9", "n2").set_flag(KD_POD_LOCAL_STORAGE);
    taints_pod(b, "p10", "n2").annotation("kubernetes.io/config.mirror", "mirror");
    Profile p(R"({"evictSystemCriticalPods": true})");
    CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}") == Pods{"default/p2", "kube-system/p7"});
}

TEST_CASE("RemovePodsViolatingNodeTaints: nodeFit", "[nodetaints][upstream]") {
    SnapshotBuilder b;
    Profile p(R"({"nodeFit": true})");
    SECTION("Pod p2 doesn't tolerate taint on it's node, but also doesn't tolerate taints on other nodes") {
        taints_test_taint1(taints_node(b, "n1"));
        taints_testing_taint1(taints_node(b, "n2"));
        taints_tolerates1(taints_pod(b, "p1", "n1"));
        taints_pod(b, "p2", "n1");
        taints_tolerates1(taints_pod(b, "p3", "n1"));
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}").empty());
    }
    SECTION("Pod p12 doesn't tolerate taint on it's node, but other nodes don't match it's selector") {
        taints_test_taint1(taints_node(b, "n1"));
        taints_node(b, "n3").label("datacenter", "east");
        taints_tolerates1(taints_pod(b, "p1", "n1"));
        taints_tolerates1(taints_pod(b, "p3", "n1"));
        taints_pod(b, "p11", "n2").select_node("datacenter", "west");
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}").empty());
    }
    SECTION("Pod p2 doesn't tolerate taint on it's node, but other nodes are unschedulable") {
        taints_test_taint1(taints_node(b, "n1"));
        taints_node(b, "n4").cordon();
        taints_tolerates1(taints_pod(b, "p1", "n1"));
        taints_pod(b, "p2", "n1");
        taints_tolerates1(taints_pod(b, "p3", "n1"));
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}").empty());
    }
    SECTION(
        "Critical and non critical pods, pods not tolerating node taint can't be evicted because the only available "
        "node does not have enough resources.") {
        Profile critical(R"({"nodeFit": true, "evictSystemCriticalPods": true})");
        taints_test_taint1(taints_node(b, "n1"));
        taints_node(b, "n6", "1m", "1", "1").taint("testTaint1", "test1", "PreferNoSchedule");
        taints_pod(b, "p2", "n1");
        taints_critical(taints_pod(b, "p7", "n2"));
        taints_pod(b, "p9", "n2").set_flag(KD_POD_LOCAL_STORAGE);
        taints_pod(b, "p10", "n2").annotation("kubernetes.io/config.mirror", "mirror");
        CHECK(critical.run<RemovePodsViolatingNodeTaints>(b, "{}").empty());
    }
    SECTION("(ours) p2 with another node that fits: evicted") {
        taints_test_taint1(taints_node(b, "n1"));
        taints_node(b, "n5");
        taints_pod(b, "p2", "n1");
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}") == Pods{"default/p2"});
    }
}

TEST_CASE("RemovePodsViolatingNodeTaints: PreferNoSchedule", "[nodetaints][upstream]") {
    SnapshotBuilder b;
    taints_node(b, "n5").taint("testTaint1", "test1", "PreferNoSchedule");
    taints_pod(b, "p13", "n5").tolerate("testTaint0", "", "test0", "PreferNoSchedule");
    Profile p;
    SECTION("Pods not tolerating PreferNoSchedule node taint should not be evicted when not enabled") {
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}").empty());
    }
    SECTION("Pods not tolerating PreferNoSchedule node taint should be evicted when enabled") {
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"includePreferNoSchedule": true})") == Pods{"default/p13"});
    }
}

TEST_CASE("RemovePodsViolatingNodeTaints: excludedTaints and includedTaints", "[nodetaints][upstream]") {
    SnapshotBuilder b;
    Profile p;
    SECTION("Pods not tolerating excluded node taints (by key) should not be evicted") {
        taints_test_taint1(taints_node(b, "n1"));
        taints_pod(b, "p2", "n1");
        CHECK(
            p.run<RemovePodsViolatingNodeTaints>(b, R"({"excludedTaints": ["excludedTaint1", "testTaint1"]})").empty());
    }
    SECTION("Pods not tolerating excluded node taints (by key and value) should not be evicted") {
        taints_test_taint1(taints_node(b, "n1"));
        taints_pod(b, "p2", "n1");
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"excludedTaints": ["testTaint1=test1"]})").empty());
    }
    SECTION("The excluded taint matches the key of node1's taint, but does not match the value") {
        taints_test_taint1(taints_node(b, "n1"));
        taints_pod(b, "p2", "n1");
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"excludedTaints": ["testTaint1=test2"]})") ==
              Pods{"default/p2"});
    }
    SECTION("Pods tolerating included taints should not get evicted even with other taints present") {
        taints_testing_taint1(taints_test_taint1(taints_node(b, "n7")));
        taints_tolerates1(taints_pod(b, "p1", "n7"));
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"includedTaints": ["testTaint1=test1"]})").empty());
    }
    SECTION("Pods not tolerating not included taints should not get evicted") {
        taints_test_taint1(taints_node(b, "n1"));
        taints_tolerates1(taints_pod(b, "p1", "n1"));
        taints_pod(b, "p2", "n1");
        taints_tolerates_x1(taints_pod(b, "p4", "n1"));
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"includedTaints": ["testTaint2=test2"]})").empty());
    }
    SECTION(
        "Pods tolerating includedTaint should not get evicted. Pods not tolerating includedTaints should get "
        "evicted") {
        taints_test_taint1(taints_node(b, "n1"));
        taints_tolerates1(taints_pod(b, "p1", "n1"));
        taints_pod(b, "p2", "n1");
        taints_tolerates1(taints_pod(b, "p3", "n1"));
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"includedTaints": ["testTaint1=test1"]})") ==
              Pods{"default/p2"});
    }
    SECTION("Pods not tolerating all taints are evicted when includedTaints is empty") {
        taints_testing_taint1(taints_test_taint1(taints_node(b, "n7")));
        taints_tolerates1(taints_pod(b, "p14", "n7"));
        taints_tolerates1(taints_pod(b, "p15", "n7")).tolerate("testingTaint1", "", "testing1", "NoSchedule");
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}") == Pods{"default/p14"});
    }
}

TEST_CASE("RemovePodsViolatingNodeTaints: validation (upstream's validation_test.go)", "[nodetaints][upstream][args]") {
    SECTION("valid namespace args, no errors") {
        CHECK(create_error<RemovePodsViolatingNodeTaints>(R"({"namespaces": {"include": ["default"]}})") == "");
    }
    SECTION("invalid namespaces args, expects error") {
        CHECK(create_error<RemovePodsViolatingNodeTaints>(
                  R"({"namespaces": {"include": ["default"], "exclude": ["kube-system"]}})") ==
              "namespaces: only one of Include/Exclude namespaces can be set");
    }
    SECTION("valid label selector args, no errors") {
        CHECK(create_error<RemovePodsViolatingNodeTaints>(
                  R"({"labelSelector": {"matchLabels": {"role.kubernetes.io/node": ""}}})") == "");
    }
    SECTION("invalid label selector args, expects errors") {
        // kdesched's label-selector messages, each at its path (docs/compatibility.md, 66).
        CHECK(create_error<RemovePodsViolatingNodeTaints>(
                  R"({"labelSelector": {"matchExpressions": [{"key": "", "operator": "In"}]}})") ==
              "labelSelector.matchExpressions[0].key: invalid label key: name \"\" must be 1-63 characters of "
              "[A-Za-z0-9-_.], starting and ending with a letter or digit\n"
              "labelSelector.matchExpressions[0].values: must be non-empty when operator is In");
    }
    SECTION("valid taint filters, no errors") {
        CHECK(create_error<RemovePodsViolatingNodeTaints>(R"({"excludedTaints": ["testTaint1=test1"]})") == "");
    }
    SECTION("invalid taint filters args, expects errors") {
        CHECK(create_error<RemovePodsViolatingNodeTaints>(
                  R"({"excludedTaints": ["do-not-evict"], "includedTaints": ["testTaint1=test1"]})") ==
              "either includedTaints or excludedTaints can be set, but not both");
    }
}

TEST_CASE("RemovePodsViolatingNodeTaints: upstream's TestToleratesTaint", "[nodetaints][upstream]") {
    // Each toleration against one taint, through the plugin: the pod stays when it tolerates.
    struct Case {
        const char* description;
        std::array<std::string, 4> toleration;  // key, operator, value, effect
        std::array<std::string, 3> taint;       // key, value, effect
        bool tolerated;
    };
    const Case cases[] = {
        {"same key and effect, Exists, taint without value",
         {"foo", "Exists", "", "NoSchedule"},
         {"foo", "", "NoSchedule"},
         true},
        {"same key and effect, Exists, taint with a value",
         {"foo", "Exists", "", "NoSchedule"},
         {"foo", "bar", "NoSchedule"},
         true},
        {"same effect, empty key and Exists: every taint",
         {"", "Exists", "", "NoSchedule"},
         {"foo", "bar", "NoSchedule"},
         true},
        {"same key, effect and value, Equal",
         {"foo", "Equal", "bar", "NoSchedule"},
         {"foo", "bar", "NoSchedule"},
         true},
        {"same key and effect, other value, Equal",
         {"foo", "Equal", "value1", "NoSchedule"},
         {"foo", "value2", "NoSchedule"},
         false},
        // Upstream's taint here is NoExecute, which the plugin does not act on; PreferNoSchedule
        // (included) shows the same mismatch of effects.
        {"same key and value, other effect, Equal",
         {"foo", "Equal", "bar", "NoSchedule"},
         {"foo", "bar", "PreferNoSchedule"},
         false},
    };
    for (const auto& c : cases) {
        DYNAMIC_SECTION(c.description) {
            SnapshotBuilder b;
            taints_node(b, "n1").taint(c.taint[0], c.taint[1], c.taint[2]);
            taints_pod(b, "p", "n1").tolerate(c.toleration[0], c.toleration[1], c.toleration[2], c.toleration[3]);
            Profile p;
            CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"includePreferNoSchedule": true})").empty() ==
                  c.tolerated);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Our own

TEST_CASE("RemovePodsViolatingNodeTaints: NoExecute taints are not this plugin's", "[nodetaints]") {
    SnapshotBuilder b;
    taints_node(b, "n1").taint("gone", "", "NoExecute");
    taints_pod(b, "p", "n1");
    Profile p;
    CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"includePreferNoSchedule": true})").empty());
}

TEST_CASE("RemovePodsViolatingNodeTaints: Lt and Gt tolerations compare integers", "[nodetaints]") {
    SnapshotBuilder b;
    taints_node(b, "n1").taint("tier", "5", "NoSchedule");
    taints_pod(b, "lt6", "n1").tolerate("tier", "Lt", "6", "NoSchedule");  // 5 < 6: tolerated
    taints_pod(b, "lt5", "n1").tolerate("tier", "Lt", "5", "NoSchedule");
    taints_pod(b, "gt4", "n1").tolerate("tier", "Gt", "4", "NoSchedule");    // 5 > 4: tolerated
    taints_pod(b, "gt04", "n1").tolerate("tier", "Gt", "04", "NoSchedule");  // not canonical
    taints_pod(b, "other-key", "n1").tolerate("zone", "Gt", "1", "NoSchedule");
    Profile p;
    CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}") == Pods{"default/lt5", "default/gt04", "default/other-key"});
}

TEST_CASE("RemovePodsViolatingNodeTaints: includedTaints and excludedTaints name a taint by key or key=value",
          "[nodetaints][args]") {
    SnapshotBuilder b;
    taints_node(b, "n1").taint("a", "1", "NoSchedule");
    taints_node(b, "n2").taint("b", "", "NoSchedule");
    taints_pod(b, "pa", "n1");
    taints_pod(b, "pb", "n2");
    Profile p;
    CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"includedTaints": ["a"]})") == Pods{"default/pa"});
    p.host.clear();
    CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"includedTaints": ["a=1", "b"]})") ==
          Pods{"default/pa", "default/pb"});
    p.host.clear();
    // "b=" does not name a taint without a value.
    CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"includedTaints": ["b="]})").empty());
    p.host.clear();
    CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"excludedTaints": ["b="]})") == Pods{"default/pa", "default/pb"});
    p.host.clear();
    CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"excludedTaints": ["a"]})") == Pods{"default/pb"});
    p.host.clear();
    // An empty includedTaints includes no taint, as upstream's check for a nil list has it.
    CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"includedTaints": []})").empty());
    p.host.clear();
    CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"includedTaints": null})") == Pods{"default/pa", "default/pb"});
}

TEST_CASE("RemovePodsViolatingNodeTaints: namespaces, labelSelector, finished pods", "[nodetaints][args]") {
    SnapshotBuilder b;
    taints_node(b, "n1").taint("a", "1", "NoSchedule");
    b.pod("x", "px").on("n1").owner("ReplicaSet", "rs").label("app", "web");
    b.pod("y", "py").on("n1").owner("ReplicaSet", "rs").label("app", "db");
    b.pod("y", "done").on("n1").owner("ReplicaSet", "rs").in_phase(KD_POD_SUCCEEDED);
    b.pod("y", "failed").on("n1").owner("ReplicaSet", "rs").in_phase(KD_POD_FAILED);
    Profile p;
    CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}") == Pods{"x/px", "y/py"});
    p.host.clear();
    CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"namespaces": {"include": ["y"]}})") == Pods{"y/py"});
    p.host.clear();
    CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"namespaces": {"exclude": ["y"]}})") == Pods{"x/px"});
    p.host.clear();
    CHECK(p.run<RemovePodsViolatingNodeTaints>(b, R"({"labelSelector": {"matchLabels": {"app": "db"}}})") ==
          Pods{"y/py"});
}

TEST_CASE("RemovePodsViolatingNodeTaints: validation", "[nodetaints][args]") {
    CHECK(create_error<RemovePodsViolatingNodeTaints>(R"({"includedTaints": ["a"], "excludedTaints": ["b"]})") ==
          "either includedTaints or excludedTaints can be set, but not both");
    // An empty list is not "set".
    CHECK(create_error<RemovePodsViolatingNodeTaints>(R"({"includedTaints": [], "excludedTaints": ["b"]})") == "");
    CHECK(create_error<RemovePodsViolatingNodeTaints>(R"({"includePreferNoSchedule": "yes"})")
              .find("includePreferNoSchedule: ") == 0);
    CHECK(create_error<RemovePodsViolatingNodeTaints>(R"({"excludedTaints": "a"})").find("excludedTaints: ") == 0);
    CHECK(create_error<RemovePodsViolatingNodeTaints>(R"({"taints": ["a"]})").find("taints: unknown field") == 0);
}

TEST_CASE("RemovePodsViolatingNodeTaints: node by node: a node's limit ends that node, the total limit the cycle",
          "[nodetaints][limits]") {
    SnapshotBuilder b;
    taints_node(b, "n1").taint("a", "1", "NoSchedule");
    taints_node(b, "n2").taint("a", "1", "NoSchedule");
    for (auto name : {"a1", "a2", "a3"}) taints_pod(b, name, "n1");
    for (auto name : {"b1", "b2"}) taints_pod(b, name, "n2");
    Profile p;
    SECTION("per node 1") {
        p.host.limits.per_node = 1;
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}") == Pods{"default/a1", "default/b1"});
        CHECK(p.requests() == 4);  // a1, a2 (refused: ends n1), b1, b2 (refused)
    }
    SECTION("total 2") {
        p.host.limits.total = 2;
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}") == Pods{"default/a1", "default/a2"});
        CHECK(p.requests() == 3);
    }
    SECTION("a failed eviction does not end the node") {
        p.host.on_evict = [](const kd::Pod& pod) {
            return pod.name() == "a1" ? kd::EvictOutcome::failed("PDB") : kd::EvictOutcome::accepted();
        };
        CHECK(p.run<RemovePodsViolatingNodeTaints>(b, "{}") ==
              Pods{"default/a2", "default/a3", "default/b1", "default/b2"});
    }
}
