// RemovePodsViolatingInterPodAntiAffinity. The first part: the cases of upstream's table tests
// (pkg/framework/plugins/removepodsviolatinginterpodantiaffinity/pod_antiaffinity_test.go and
// validation_test.go @v0.35.1, named by their descriptions) as facts; upstream counts the
// evictions, we name them, in order. Then our own.
#include "sigs_test.hpp"

using namespace sigs_test;
using kd::plugins::sigs::RemovePodsViolatingInterPodAntiAffinity;
using Term = SnapshotBuilder::PodSpec::AffinityTerm;

namespace {

// test.SetPodAntiAffinity: required, `key In [value]`, topology "region".
Term ipa_in(const std::string& key, const std::string& value, const std::string& topology = "region") {
    Term t;
    t.topology_key = topology;
    t.match_expressions.push_back({key, "In", {value}});
    return t;
}

// test.BuildTestNode(name, 2000, 3000, 10) with region=main-region (buildTestNode1).
SnapshotBuilder::NodeSpec& ipa_node(SnapshotBuilder& b, const std::string& name, const std::string& cpu = "2000m",
                                    const std::string& memory = "3000", const std::string& pods = "10") {
    return b.node(name).allocatable("cpu", cpu).allocatable("memory", memory).allocatable("pods", pods);
}

// test.BuildTestPod(name, 100, 0, node): 100m CPU, no memory, in namespace default.
SnapshotBuilder::PodSpec& ipa_pod(SnapshotBuilder& b, const std::string& name, const std::string& node = "n1") {
    return b.pod("default", name).on(node).request("cpu", "100m").request("memory", "0");
}

// buildTestPodWithAntiAffinityForNode1: a normal owner, anti-affinity to foo=bar.
SnapshotBuilder::PodSpec& ipa_anti_foo(SnapshotBuilder& b, const std::string& name, const std::string& node = "n1") {
    return ipa_pod(b, name, node).owner("Pod", "", false).anti_affinity_to(ipa_in("foo", "bar"));
}

// buildTestPodP2ForNode1: a normal owner, labelled foo=bar.
void ipa_p2(SnapshotBuilder& b) {
    ipa_pod(b, "p2").owner("Pod", "", false).label("foo", "bar");
}

// buildTestPodNonEvictableForNode1: system-critical priority, labelled foo=bar, no owner.
void ipa_non_evictable(SnapshotBuilder& b) {
    ipa_pod(b, "non-evict").with_priority(2'000'000'000).label("foo", "bar");
}

// The four pods of the "Maximum pods to evict" cases.
void ipa_four(SnapshotBuilder& b) {
    ipa_anti_foo(b, "p1");
    ipa_p2(b);
    ipa_anti_foo(b, "p3");
    ipa_anti_foo(b, "p4");
}

Pods ipa_run(Profile& p, SnapshotBuilder& b, const std::string& args = "{}") {
    return p.run<RemovePodsViolatingInterPodAntiAffinity>(b, args);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Upstream's cases (TestPodAntiAffinity)

TEST_CASE("RemovePodsViolatingInterPodAntiAffinity: Maximum pods to evict", "[interpodantiaffinity][upstream]") {
    SnapshotBuilder b;
    ipa_node(b, "n1").label("region", "main-region");
    ipa_four(b);
    Profile p;
    SECTION("Maximum pods to evict - 0") {
        CHECK(ipa_run(p, b) == Pods{"default/p1", "default/p3", "default/p4"});
    }
    SECTION("Maximum pods to evict - 3") {
        p.host.limits.per_node = 3;
        CHECK(ipa_run(p, b) == Pods{"default/p1", "default/p3", "default/p4"});
    }
    SECTION("Maximum pods to evict (maxPodsToEvictPerNamespace=3) - 3") {
        p.host.limits.per_namespace = 3;
        CHECK(ipa_run(p, b) == Pods{"default/p1", "default/p3", "default/p4"});
    }
    SECTION("Maximum pods to evict (maxNoOfPodsToEvictTotal)") {
        p.host.limits.per_namespace = 3;
        p.host.limits.total = 1;
        CHECK(ipa_run(p, b) == Pods{"default/p1"});
        CHECK(p.requests() == 2);  // p3 meets the total limit, which ends the cycle
    }
}

TEST_CASE("RemovePodsViolatingInterPodAntiAffinity: Evict only 1 pod after sorting",
          "[interpodantiaffinity][upstream]") {
    SnapshotBuilder b;
    ipa_node(b, "n1").label("region", "main-region");
    ipa_pod(b, "p5")
        .owner("Pod", "", false)
        .label("foo", "bar")
        .anti_affinity_to(ipa_in("foo1", "bar1"))
        .with_priority(100);
    ipa_pod(b, "p6")
        .owner("Pod", "", false)
        .label("foo", "bar")
        .anti_affinity_to(ipa_in("foo1", "bar1"))
        .with_priority(50);
    ipa_pod(b, "p7")
        .owner("Pod", "", false)
        .label("foo1", "bar1")
        .anti_affinity_to(ipa_in("foo", "bar"))
        .with_priority(0);
    Profile p;
    // p7 (lowest priority) goes first; then p5 and p6 no longer see a foo1=bar1 pod.
    CHECK(ipa_run(p, b) == Pods{"default/p7"});
    CHECK(p.requests() == 1);
}

TEST_CASE(
    "RemovePodsViolatingInterPodAntiAffinity: Evicts pod that conflicts with critical pod (but does not evict "
    "critical pod)",
    "[interpodantiaffinity][upstream]") {
    // Upstream lists this case twice, identically.
    SnapshotBuilder b;
    ipa_node(b, "n1").label("region", "main-region");
    ipa_anti_foo(b, "p1");
    ipa_non_evictable(b);
    Profile p;
    p.host.limits.per_node = 1;
    CHECK(ipa_run(p, b) == Pods{"default/p1"});
}

TEST_CASE(
    "RemovePodsViolatingInterPodAntiAffinity: Won't evict pods because node selectors don't match available "
    "nodes",
    "[interpodantiaffinity][upstream]") {
    SnapshotBuilder b;
    ipa_node(b, "n1").label("region", "main-region");
    ipa_node(b, "n2").label("datacenter", "east");
    ipa_pod(b, "p8").select_node("datacenter", "west");
    ipa_non_evictable(b);
    Profile p(R"({"nodeFit": true})");
    p.host.limits.per_node = 1;
    CHECK(ipa_run(p, b).empty());
    CHECK(p.requests() == 0);
}

TEST_CASE("RemovePodsViolatingInterPodAntiAffinity: Won't evict pods because only other node is not schedulable",
          "[interpodantiaffinity][upstream]") {
    SnapshotBuilder b;
    ipa_node(b, "n1").label("region", "main-region");
    ipa_node(b, "n3").cordon();
    ipa_pod(b, "p8").select_node("datacenter", "west");
    ipa_non_evictable(b);
    Profile p(R"({"nodeFit": true})");
    p.host.limits.per_node = 1;
    CHECK(ipa_run(p, b).empty());
    CHECK(p.requests() == 0);
}

TEST_CASE("RemovePodsViolatingInterPodAntiAffinity: No pod to evicted since all pod terminating",
          "[interpodantiaffinity][upstream]") {
    SnapshotBuilder b;
    ipa_node(b, "n1").label("region", "main-region");
    ipa_anti_foo(b, "p9").set_flag(KD_POD_TERMINATING);
    ipa_anti_foo(b, "p10").set_flag(KD_POD_TERMINATING);
    Profile p;
    CHECK(ipa_run(p, b).empty());
    CHECK(p.requests() == 0);
}

TEST_CASE(
    "RemovePodsViolatingInterPodAntiAffinity: Won't evict pods because only other node doesn't have enough "
    "resources",
    "[interpodantiaffinity][upstream]") {
    SnapshotBuilder b;
    ipa_node(b, "n1").label("region", "main-region");
    ipa_node(b, "n4", "2m", "2", "1");
    ipa_four(b);
    Profile p(R"({"nodeFit": true})");
    p.host.limits.per_node = 3;
    CHECK(ipa_run(p, b).empty());
    CHECK(p.requests() == 0);  // each violating pod is refused by the PreEvictionFilter first
}

TEST_CASE(
    "RemovePodsViolatingInterPodAntiAffinity: Evict pod violating anti-affinity among different node (all pods "
    "have anti-affinity)",
    "[interpodantiaffinity][upstream]") {
    SnapshotBuilder b;
    ipa_node(b, "n1").label("region", "main-region");
    ipa_node(b, "n5", "200m").label("region", "main-region");
    ipa_anti_foo(b, "p1");
    ipa_pod(b, "p11", "n5").owner("Pod", "", false).label("foo", "bar");
    Profile p;
    CHECK(ipa_run(p, b) == Pods{"default/p1"});
}

// validation_test.go
TEST_CASE("RemovePodsViolatingInterPodAntiAffinity: args validation", "[interpodantiaffinity][upstream]") {
    SECTION("valid namespace args, no errors") {
        CHECK(create_error<RemovePodsViolatingInterPodAntiAffinity>(R"({"namespaces": {"include": ["default"]}})") ==
              "");
    }
    SECTION("invalid namespaces args, expects error") {
        CHECK(create_error<RemovePodsViolatingInterPodAntiAffinity>(
                  R"({"namespaces": {"include": ["default"], "exclude": ["kube-system"]}})") ==
              "namespaces: only one of Include/Exclude namespaces can be set");
    }
    SECTION("valid label selector args, no errors") {
        CHECK(create_error<RemovePodsViolatingInterPodAntiAffinity>(
                  R"({"labelSelector": {"matchLabels": {"role.kubernetes.io/node": ""}}})") == "");
    }
    SECTION("invalid label selector args, expects errors") {
        CHECK(create_error<RemovePodsViolatingInterPodAntiAffinity>(
                  R"({"labelSelector": {"matchExpressions": [{"key": "", "operator": "In"}]}})") ==
              "labelSelector.matchExpressions[0].key: invalid label key: name \"\" must be 1-63 characters of "
              "[A-Za-z0-9-_.], starting and ending with a letter or digit\n"
              "labelSelector.matchExpressions[0].values: must be non-empty when operator is In");
    }
}

// defaults_test.go
TEST_CASE("RemovePodsViolatingInterPodAntiAffinity: args defaults", "[interpodantiaffinity][upstream]") {
    using Args = kd::plugins::sigs::RemovePodsViolatingInterPodAntiAffinityArgs;
    SECTION("RemovePodsViolatingInterPodAntiAffinityArgs empty") {
        Args empty = kd::parse<Args>("{}");
        CHECK_FALSE(empty.namespaces.has_value());
        CHECK_FALSE(empty.labelSelector.has_value());
    }
    SECTION("RemovePodsViolatingInterPodAntiAffinityArgs with value") {
        Args given = kd::parse<Args>(R"({"namespaces": {}, "labelSelector": {}})");
        REQUIRE(given.namespaces.has_value());
        CHECK(given.namespaces->empty());
        REQUIRE(given.labelSelector.has_value());
        CHECK(given.labelSelector->empty());
    }
}

// ---------------------------------------------------------------------------------------------
// Our own cases

TEST_CASE("RemovePodsViolatingInterPodAntiAffinity: args", "[interpodantiaffinity]") {
    SECTION("no args, and an empty object, are valid") {
        CHECK(create_error<RemovePodsViolatingInterPodAntiAffinity>("{}") == "");
    }
    SECTION("an unknown key is refused with its path") {
        CHECK(create_error<RemovePodsViolatingInterPodAntiAffinity>(R"({"excludeOwnerKinds": ["Job"]})") ==
              "excludeOwnerKinds: unknown field (known fields: namespaces, labelSelector)");
    }
    SECTION("an unknown operator in labelSelector") {
        CHECK(create_error<RemovePodsViolatingInterPodAntiAffinity>(
                  R"({"labelSelector": {"matchExpressions": [{"key": "a", "operator": "Is"}]}})") ==
              "labelSelector.matchExpressions[0].operator: unknown operator \"Is\" (use In, NotIn, Exists or "
              "DoesNotExist)");
    }
}

TEST_CASE("RemovePodsViolatingInterPodAntiAffinity: namespaces and labelSelector decide which pods count at all",
          "[interpodantiaffinity]") {
    SnapshotBuilder b;
    b.node("n1").label("region", "r");
    b.pod("a", "holder-a").on("n1").owner("ReplicaSet", "rs").label("app", "x").anti_affinity_to(ipa_in("app", "web"));
    b.pod("a", "web-a").on("n1").owner("ReplicaSet", "rs").label("app", "web");
    b.pod("b", "holder-b").on("n1").owner("ReplicaSet", "rs").label("app", "x").anti_affinity_to(ipa_in("app", "web"));
    b.pod("b", "web-b").on("n1").owner("ReplicaSet", "rs").label("app", "web").label("keep", "yes");
    Profile p;
    SECTION("no scope: both holders") {
        CHECK(ipa_run(p, b) == Pods{"a/holder-a", "b/holder-b"});
    }
    SECTION("namespaces include") {
        CHECK(ipa_run(p, b, R"({"namespaces": {"include": ["b"]}})") == Pods{"b/holder-b"});
    }
    SECTION("namespaces exclude") {
        CHECK(ipa_run(p, b, R"({"namespaces": {"exclude": ["b"]}})") == Pods{"a/holder-a"});
    }
    SECTION("labelSelector: a pod it leaves out no longer violates anything either") {
        // web-b lacks app=x: out of scope, so holder-b sees no web pod.
        CHECK(ipa_run(p, b, R"({"labelSelector": {"matchLabels": {"app": "x"}}})").empty());
        p.host.clear();
        CHECK(ipa_run(p, b,
                      R"({"labelSelector": {"matchExpressions": [{"key": "keep", "operator": "DoesNotExist"}]}})") ==
              Pods{"a/holder-a"});
    }
}

TEST_CASE("RemovePodsViolatingInterPodAntiAffinity: the first of a pair goes, the second stays",
          "[interpodantiaffinity]") {
    SnapshotBuilder b;
    b.node("n1").label("zone", "a");
    b.node("n2").label("zone", "a");
    b.pod("default", "x")
        .on("n1")
        .owner("ReplicaSet", "rs")
        .label("app", "web")
        .anti_affinity_to(ipa_in("app", "web", "zone"));
    b.pod("default", "y")
        .on("n2")
        .owner("ReplicaSet", "rs")
        .label("app", "web")
        .anti_affinity_to(ipa_in("app", "web", "zone"));
    Profile p;
    SECTION("evicted: y no longer sees x") {
        CHECK(ipa_run(p, b) == Pods{"default/x"});
        CHECK(p.requests() == 1);
    }
    SECTION("refused by the evictor: x still counts, so y goes") {
        p.host.on_filter = [](const kd::Pod& pod) {
            return pod.name() == "x" ? kd::Verdict::reject("Kept") : kd::Verdict::allow();
        };
        CHECK(ipa_run(p, b) == Pods{"default/y"});
    }
    SECTION("a failed eviction: x still counts, so y is asked for too") {
        p.host.on_evict = [](const kd::Pod& pod) {
            return pod.name() == "x" ? kd::EvictOutcome::failed("boom") : kd::EvictOutcome::accepted();
        };
        CHECK(ipa_run(p, b) == Pods{"default/y"});
        CHECK(p.requests() == 2);
    }
    SECTION("another zone: no violation") {
        SnapshotBuilder c;
        c.node("n1").label("zone", "a");
        c.node("n3").label("zone", "b");
        c.pod("default", "x")
            .on("n1")
            .owner("ReplicaSet", "rs")
            .label("app", "web")
            .anti_affinity_to(ipa_in("app", "web", "zone"));
        c.pod("default", "y")
            .on("n3")
            .owner("ReplicaSet", "rs")
            .label("app", "web")
            .anti_affinity_to(ipa_in("app", "web", "zone"));
        CHECK(ipa_run(p, c).empty());
    }
}

TEST_CASE("RemovePodsViolatingInterPodAntiAffinity: node by node, lowest priority and QoS first",
          "[interpodantiaffinity]") {
    SnapshotBuilder b;
    b.node("n1").label("region", "r");
    b.node("n2").label("region", "r");
    b.pod("default", "web").on("n2").owner("ReplicaSet", "rs").label("app", "web");
    auto holder = [&](const std::string& name, const std::string& node) -> SnapshotBuilder::PodSpec& {
        return b.pod("default", name).on(node).owner("ReplicaSet", "rs").anti_affinity_to(ipa_in("app", "web"));
    };
    holder("n2-first", "n2");
    holder("guaranteed", "n1").with_qos(KD_QOS_GUARANTEED);
    holder("prio-5", "n1").with_priority(5);
    holder("prefers-to-stay", "n1")
        .with_qos(KD_QOS_BEST_EFFORT)
        .annotation("descheduler.alpha.kubernetes.io/prefer-no-eviction", "");
    holder("best-effort", "n1").with_qos(KD_QOS_BEST_EFFORT);
    holder("burstable", "n1");
    holder("prio-1", "n1").with_priority(1);
    Profile p;
    SECTION("no priority first (BestEffort, the annotated last among them, Burstable, Guaranteed), then ascending") {
        CHECK(ipa_run(p, b) == Pods{"default/best-effort", "default/prefers-to-stay", "default/burstable",
                                    "default/guaranteed", "default/prio-1", "default/prio-5", "default/n2-first"});
    }
    SECTION("a node's limit ends that node; the next node goes on") {
        p.host.limits.per_node = 2;
        CHECK(ipa_run(p, b) == Pods{"default/best-effort", "default/prefers-to-stay", "default/n2-first"});
        CHECK(p.requests() == 4);
    }
    SECTION("a namespace's limit passes over the pod only") {
        p.host.on_limits = [](const kd::Pod& pod) {
            return pod.name() == "burstable" ? KD_EVICT_LIMIT_NAMESPACE : KD_EVICT_ACCEPTED;
        };
        CHECK(ipa_run(p, b) == Pods{"default/best-effort", "default/prefers-to-stay", "default/guaranteed",
                                    "default/prio-1", "default/prio-5", "default/n2-first"});
    }
    SECTION("the total limit ends the cycle") {
        p.host.limits.total = 1;
        CHECK(ipa_run(p, b) == Pods{"default/best-effort"});
        CHECK(p.requests() == 2);
    }
}

TEST_CASE("RemovePodsViolatingInterPodAntiAffinity: what counts as being in the way", "[interpodantiaffinity]") {
    SnapshotBuilder b;
    b.node("n1").label("region", "r");
    b.node("n2").label("region", "r");
    Profile p;
    SECTION("a pod on a node outside the profile's nodes does not count") {
        b.select_nodes({"n1"});
        b.pod("default", "holder").on("n1").owner("ReplicaSet", "rs").anti_affinity_to(ipa_in("app", "web"));
        b.pod("default", "web").on("n2").owner("ReplicaSet", "rs").label("app", "web");
        CHECK(ipa_run(p, b).empty());
    }
    SECTION("a Succeeded or Failed pod does not count") {
        b.pod("default", "holder").on("n1").owner("ReplicaSet", "rs").anti_affinity_to(ipa_in("app", "web"));
        b.pod("default", "web").on("n2").owner("ReplicaSet", "rs").label("app", "web").in_phase(KD_POD_SUCCEEDED);
        b.pod("default", "web2").on("n2").owner("ReplicaSet", "rs").label("app", "web").in_phase(KD_POD_FAILED);
        CHECK(ipa_run(p, b).empty());
    }
    SECTION("the term's namespaces; a pod of the holder's name in them is skipped") {
        Term t = ipa_in("app", "web");
        t.namespaces = {"other"};
        b.pod("default", "holder").on("n1").owner("ReplicaSet", "rs").anti_affinity_to(t);
        b.pod("default", "web").on("n1").owner("ReplicaSet", "rs").label("app", "web");
        b.pod("other", "holder").on("n2").owner("ReplicaSet", "rs").label("app", "web");
        CHECK(ipa_run(p, b).empty());
        b.pod("other", "web").on("n2").owner("ReplicaSet", "rs").label("app", "web");
        CHECK(ipa_run(p, b) == Pods{"default/holder"});
    }
    SECTION("a node without the topology key: only pods on the same node count") {
        SnapshotBuilder c;
        c.node("n1");
        c.node("n2");
        c.pod("default", "holder").on("n1").owner("ReplicaSet", "rs").anti_affinity_to(ipa_in("app", "web"));
        c.pod("default", "web").on("n2").owner("ReplicaSet", "rs").label("app", "web");
        CHECK(ipa_run(p, c).empty());
        c.pod("default", "web-1").on("n1").owner("ReplicaSet", "rs").label("app", "web");
        CHECK(ipa_run(p, c) == Pods{"default/holder"});
    }
    SECTION("preferred anti-affinity is not enforced") {
        Term soft = ipa_in("app", "web");
        soft.weight = 50;
        b.pod("default", "holder").on("n1").owner("ReplicaSet", "rs").anti_affinity_to(soft);
        b.pod("default", "web").on("n1").owner("ReplicaSet", "rs").label("app", "web");
        CHECK(ipa_run(p, b).empty());
    }
    SECTION("an empty selector selects every other pod; none selects no pod") {
        Term every;
        every.topology_key = "region";
        every.has_label_selector = true;
        Term nothing;
        nothing.topology_key = "region";
        b.pod("default", "all").on("n1").owner("ReplicaSet", "rs").anti_affinity_to(every);
        b.pod("default", "none").on("n2").owner("ReplicaSet", "rs").anti_affinity_to(nothing);
        CHECK(ipa_run(p, b) == Pods{"default/all"});
    }
    SECTION("a selector upstream cannot convert: the pod is left alone") {
        Term bad;
        bad.topology_key = "region";
        bad.match_expressions = {{"app", "Is", {"web"}}};
        b.pod("default", "holder").on("n1").owner("ReplicaSet", "rs").anti_affinity_to(bad);
        b.pod("default", "web").on("n1").owner("ReplicaSet", "rs").label("app", "web");
        CHECK(ipa_run(p, b).empty());
        CHECK(p.requests() == 0);
        REQUIRE(p.host.logs().size() == 1);
        CHECK(p.host.logs().front() ==
              "pod default/holder: podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector: "
              "matchExpressions operator \"Is\" is unknown; its anti-affinity is not checked (fix the pod's "
              "labelSelector)");
    }
}
