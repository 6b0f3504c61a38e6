// RemovePodsViolatingNodeAffinity. The first part: the cases of upstream's table test
// (pkg/framework/plugins/removepodsviolatingnodeaffinity/node_affinity_test.go@v0.35.1, named by
// their descriptions) as facts, then its validation cases, then our own, per arg.
#include "sigs_test.hpp"

#include <algorithm>

using namespace sigs_test;
using kd::plugins::sigs::RemovePodsViolatingNodeAffinity;

namespace {

const std::string kDesiredKey = "kubernetes.io/desiredNode";
const std::string kRequired = R"({"nodeAffinityType": ["requiredDuringSchedulingIgnoredDuringExecution"]})";
const std::string kPreferred = R"({"nodeAffinityType": ["preferredDuringSchedulingIgnoredDuringExecution"]})";

// upstream's buildTestNode: test.BuildTestNode(name, 2000, 3000, 10).
SnapshotBuilder::NodeSpec& affinity_node(SnapshotBuilder& b, const std::string& name) {
    return b.node(name).allocatable("cpu", "2000m").allocatable("memory", "3000").allocatable("pods", "10");
}
SnapshotBuilder::NodeSpec& affinity_node_with_labels(SnapshotBuilder& b, const std::string& name = "nodeWithLabels") {
    return affinity_node(b, name).label(kDesiredKey, "yes");
}
// buildUnschedulableNodeWithLabels
SnapshotBuilder::NodeSpec& affinity_unschedulable_node(SnapshotBuilder& b) {
    return affinity_node_with_labels(b, "unschedulableNodeWithLabels").cordon();
}

// upstream's buildTestPod with a Pod owner: 100m CPU, in namespace default.
SnapshotBuilder::PodSpec& affinity_pod(SnapshotBuilder& b, const std::string& name, const std::string& node) {
    return b.pod("default", name).on(node).request("cpu", "100m").request("memory", "0").owner("Pod", "", false);
}

// addPodsToNode(node, deletionTimestamp, "requiredDuringSchedulingIgnoredDuringExecution"):
// podWithNodeAffinity (desiredNode In [yes]), pod1 and pod2.
void affinity_pods_required(SnapshotBuilder& b, const std::string& node, bool terminating = false) {
    affinity_pod(b, "podWithNodeAffinity", node)
        .require_node(kDesiredKey, "In", {"yes"})
        .set_flag(KD_POD_TERMINATING, terminating);
    affinity_pod(b, "pod1", node).set_flag(KD_POD_TERMINATING, terminating);
    affinity_pod(b, "pod2", node).set_flag(KD_POD_TERMINATING, terminating);
}

// addPodsToNode(node, deletionTimestamp, "preferredDuringSchedulingIgnoredDuringExecution"):
// podWithNodeAffinity (weight 10 for desiredNode In [yes]), pod1 and pod2.
void affinity_pods_preferred(SnapshotBuilder& b, const std::string& node, bool terminating = false) {
    affinity_pod(b, "podWithNodeAffinity", node)
        .prefer_node(10, kDesiredKey, "In", {"yes"})
        .set_flag(KD_POD_TERMINATING, terminating);
    affinity_pod(b, "pod1", node).set_flag(KD_POD_TERMINATING, terminating);
    affinity_pod(b, "pod2", node).set_flag(KD_POD_TERMINATING, terminating);
}

bool affinity_logged(const FakeHost& host, const std::string& part) {
    return std::any_of(host.logs().begin(), host.logs().end(),
                       [&](const std::string& line) { return line.find(part) != std::string::npos; });
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Upstream's cases

TEST_CASE("RemovePodsViolatingNodeAffinity: Invalid Affinity type, should not evict any pods",
          "[nodeaffinity][upstream]") {
    SnapshotBuilder b;
    // addPodsToNode(…, "requiredDuringSchedulingRequiredDuringExecution") gives no affinity at all.
    affinity_pod(b, "podWithNodeAffinity", "nodeWithoutLabels");
    affinity_pod(b, "pod1", "nodeWithoutLabels");
    affinity_pod(b, "pod2", "nodeWithoutLabels");
    affinity_node(b, "nodeWithoutLabels");
    affinity_node_with_labels(b);
    Profile p;
    CHECK(p.run<RemovePodsViolatingNodeAffinity>(
               b, R"({"nodeAffinityType": ["requiredDuringSchedulingRequiredDuringExecution"]})")
              .empty());
    CHECK(affinity_logged(p.host, "requiredDuringSchedulingRequiredDuringExecution"));
}

TEST_CASE("RemovePodsViolatingNodeAffinity: required affinity", "[nodeaffinity][upstream]") {
    SnapshotBuilder b;
    Profile p;
    SECTION("Pod is correctly scheduled on node, no eviction expected [required affinity]") {
        affinity_pods_required(b, "nodeWithLabels");
        affinity_node_with_labels(b);
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired).empty());
    }
    SECTION("Pod is scheduled on node without matching labels, another schedulable node available, should be evicted") {
        affinity_pods_required(b, "nodeWithoutLabels");
        affinity_node(b, "nodeWithoutLabels");
        affinity_node_with_labels(b);
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) == Pods{"default/podWithNodeAffinity"});
    }
}

TEST_CASE("RemovePodsViolatingNodeAffinity: required affinity and the limits", "[nodeaffinity][upstream][limits]") {
    SnapshotBuilder b;
    affinity_node(b, "nodeWithoutLabels");
    affinity_node_with_labels(b);
    Profile p;
    SECTION(
        "Pod is scheduled on node without matching labels, another schedulable node available, maxPodsToEvictPerNode "
        "set to 1, should be evicted [required affinity]") {
        affinity_pods_required(b, "nodeWithoutLabels");
        p.host.limits.per_node = 1;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) == Pods{"default/podWithNodeAffinity"});
    }
    SECTION(
        "Pod is scheduled on node without matching labels, another schedulable node available, maxPodsToEvictPerNode "
        "set to 0, should be not evicted [required affinity]") {
        affinity_pods_required(b, "nodeWithoutLabels");
        p.host.limits.per_node = 0;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired).empty());
        CHECK(p.requests() == 1);
    }
    SECTION(
        "Pod is scheduled on node without matching labels, another schedulable node available, maxPodsToEvictPerNode "
        "set to 1, no pod evicted since pod terminating [required affinity]") {
        affinity_pods_required(b, "nodeWithoutLabels", true);
        p.host.limits.per_node = 1;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired).empty());
    }
    SECTION(
        "Pod is scheduled on node without matching labels, another schedulable node available, "
        "maxNoOfPodsToEvictPerNamespace set to 1, should be evicted [required affinity]") {
        affinity_pods_required(b, "nodeWithoutLabels");
        p.host.limits.per_namespace = 1;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) == Pods{"default/podWithNodeAffinity"});
    }
    SECTION(
        "Pod is scheduled on node without matching labels, another schedulable node available, "
        "maxNoOfPodsToEvictTotal set to 0, should not be evicted [required affinity]") {
        affinity_pods_required(b, "nodeWithoutLabels");
        p.host.limits.per_namespace = 1;
        p.host.limits.total = 0;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired).empty());
    }
    SECTION(
        "Pod is scheduled on node without matching labels, another schedulable node available, "
        "maxNoOfPodsToEvictPerNamespace set to 0, should not be evicted [required affinity]") {
        affinity_pods_required(b, "nodeWithoutLabels");
        p.host.limits.per_namespace = 0;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired).empty());
    }
    SECTION(
        "Pod is scheduled on node without matching labels, another schedulable node available, "
        "maxNoOfPodsToEvictPerNamespace set to 1, no pod evicted since pod terminting [required affinity]") {
        affinity_pods_required(b, "nodeWithoutLabels", true);
        p.host.limits.per_namespace = 1;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired).empty());
    }
}

TEST_CASE("RemovePodsViolatingNodeAffinity: required affinity and nodeFit", "[nodeaffinity][upstream]") {
    SnapshotBuilder b;
    Profile p(R"({"nodeFit": true})");
    SECTION(
        "Pod is scheduled on node without matching labels, but no node where pod fits is available, should not evict "
        "[required affinity]") {
        affinity_pods_required(b, "nodeWithoutLabels");
        affinity_node(b, "nodeWithoutLabels");
        affinity_unschedulable_node(b);
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired).empty());
    }
    SECTION(
        "Pod is scheduled on node without matching labels, and unschedulable node where pod could fit is available, "
        "should not evict [required affinity]") {
        // The pods' node is not among the nodes: nothing is listed.
        affinity_pods_required(b, "nodeWithoutLabels");
        affinity_node_with_labels(b);
        affinity_unschedulable_node(b);
        p.host.limits.per_node = 1;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired).empty());
        CHECK(p.requests() == 0);
    }
}

TEST_CASE("RemovePodsViolatingNodeAffinity: preferred affinity", "[nodeaffinity][upstream]") {
    SnapshotBuilder b;
    Profile p;
    SECTION("Pod is correctly scheduled on node, no eviction expected [preferred affinity]") {
        affinity_pods_preferred(b, "nodeWithLabels");
        affinity_node_with_labels(b);
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kPreferred).empty());
    }
    SECTION(
        "Pod is scheduled on node without matching labels, another schedulable node available with better fit, "
        "should be evicted") {
        affinity_pods_preferred(b, "nodeWithoutLabels");
        affinity_node(b, "nodeWithoutLabels");
        affinity_node_with_labels(b);
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kPreferred) == Pods{"default/podWithNodeAffinity"});
    }
}

TEST_CASE("RemovePodsViolatingNodeAffinity: preferred affinity and the limits", "[nodeaffinity][upstream][limits]") {
    SnapshotBuilder b;
    affinity_node(b, "nodeWithoutLabels");
    affinity_node_with_labels(b);
    Profile p;
    SECTION(
        "Pod is scheduled on node without matching labels, another schedulable node available, maxPodsToEvictPerNode "
        "set to 1, should be evicted [preferred affinity]") {
        affinity_pods_preferred(b, "nodeWithoutLabels");
        p.host.limits.per_node = 1;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kPreferred) == Pods{"default/podWithNodeAffinity"});
    }
    SECTION(
        "Pod is scheduled on node without matching labels, another schedulable node available, maxPodsToEvictPerNode "
        "set to 0, should be not evicted [preferred affinity]") {
        affinity_pods_preferred(b, "nodeWithoutLabels");
        p.host.limits.per_node = 0;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kPreferred).empty());
        CHECK(p.requests() == 1);
    }
    SECTION(
        "Pod is scheduled on node without matching labels, another schedulable node available, maxPodsToEvictPerNode "
        "set to 1, no pod evicted since pod terminating [preferred affinity]") {
        affinity_pods_preferred(b, "nodeWithoutLabels", true);
        p.host.limits.per_node = 1;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kPreferred).empty());
    }
    SECTION(
        "Pod is scheduled on node without matching labels, another schedulable node available, "
        "maxNoOfPodsToEvictPerNamespace set to 1, should be evicted [preferred affinity]") {
        affinity_pods_preferred(b, "nodeWithoutLabels");
        p.host.limits.per_namespace = 1;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kPreferred) == Pods{"default/podWithNodeAffinity"});
    }
    SECTION(
        "Pod is scheduled on node without matching labels, another schedulable node available, "
        "maxNoOfPodsToEvictPerNamespace set to 0, should not be evicted [preferred affinity]") {
        affinity_pods_preferred(b, "nodeWithoutLabels");
        p.host.limits.per_namespace = 0;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kPreferred).empty());
    }
    SECTION(
        "Pod is scheduled on node without matching labels, another schedulable node available, "
        "maxNoOfPodsToEvictPerNamespace set to 1, no pod evicted since pod terminting [preferred affinity]") {
        affinity_pods_preferred(b, "nodeWithoutLabels", true);
        p.host.limits.per_namespace = 1;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kPreferred).empty());
    }
}

TEST_CASE("RemovePodsViolatingNodeAffinity: preferred affinity and nodeFit", "[nodeaffinity][upstream]") {
    SnapshotBuilder b;
    Profile p(R"({"nodeFit": true})");
    SECTION(
        "Pod is scheduled on node without matching labels, but no node where pod fits is available, should not evict "
        "[preferred affinity]") {
        // The plugin takes the pod (it fits its own node; the cordoned one weighs more); the
        // evictor's nodeFit finds no other node for it.
        affinity_pods_preferred(b, "nodeWithoutLabels");
        affinity_node(b, "nodeWithoutLabels");
        affinity_unschedulable_node(b);
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kPreferred).empty());
    }
    SECTION(
        "Pod is scheduled on node without matching labels, and unschedulable node where pod could fit is available, "
        "should not evict [preferred affinity]") {
        affinity_pods_preferred(b, "nodeWithoutLabels");
        affinity_node_with_labels(b);
        affinity_unschedulable_node(b);
        p.host.limits.per_node = 1;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kPreferred).empty());
        CHECK(p.requests() == 0);
    }
}

TEST_CASE("RemovePodsViolatingNodeAffinity: validation (upstream's validation_test.go)",
          "[nodeaffinity][upstream][args]") {
    SECTION("nil NodeAffinityType args, expects errors") {
        CHECK(create_error<RemovePodsViolatingNodeAffinity>(R"({"nodeAffinityType": null})") ==
              "nodeAffinityType: nodeAffinityType needs to be set");
    }
    SECTION("empty NodeAffinityType args, expects errors") {
        CHECK(create_error<RemovePodsViolatingNodeAffinity>(R"({"nodeAffinityType": []})") ==
              "nodeAffinityType: nodeAffinityType needs to be set");
    }
    SECTION("valid NodeAffinityType args, no errors") {
        CHECK(create_error<RemovePodsViolatingNodeAffinity>(kRequired) == "");
    }
    SECTION("invalid namespaces args, expects error") {
        CHECK(create_error<RemovePodsViolatingNodeAffinity>(
                  R"({"nodeAffinityType": ["requiredDuringSchedulingIgnoredDuringExecution"],
                      "namespaces": {"include": ["default"], "exclude": ["kube-system"]}})") ==
              "namespaces: only one of Include/Exclude namespaces can be set");
    }
    SECTION("nil NodeAffinityType args and invalid namespaces args, expects error") {
        CHECK(create_error<RemovePodsViolatingNodeAffinity>(
                  R"({"nodeAffinityType": [], "namespaces": {"include": ["default"], "exclude": ["kube-system"]}})") ==
              "nodeAffinityType: nodeAffinityType needs to be set\n"
              "namespaces: only one of Include/Exclude namespaces can be set");
    }
}

// ---------------------------------------------------------------------------------------------
// Our own

TEST_CASE("RemovePodsViolatingNodeAffinity: only pods with a required node affinity, their nodeSelector counts",
          "[nodeaffinity]") {
    SnapshotBuilder b;
    affinity_node(b, "here").label("zone", "a");
    affinity_node(b, "there").label("zone", "b").label(kDesiredKey, "yes");
    affinity_pod(b, "selector-only", "here").select_node("zone", "b");
    affinity_pod(b, "affinity-ok-selector-not", "here").require_node("zone", "In", {"a", "b"}).select_node("zone", "b");
    affinity_pod(b, "both-ok", "here").require_node("zone", "In", {"a"}).select_node("zone", "a");
    affinity_pod(b, "affinity-not", "here").require_node("zone", "NotIn", {"a"});
    Profile p;
    CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) ==
          Pods{"default/affinity-ok-selector-not", "default/affinity-not"});
}

TEST_CASE("RemovePodsViolatingNodeAffinity: the pod must fit another node, as upstream's NodeFit has it",
          "[nodeaffinity]") {
    SnapshotBuilder b;
    affinity_node(b, "here");
    Profile p;
    auto pod = [&]() -> SnapshotBuilder::PodSpec& {
        return affinity_pod(b, "p", "here").require_node(kDesiredKey, "In", {"yes"});
    };
    SECTION("a node that fits") {
        pod();
        affinity_node_with_labels(b);
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) == Pods{"default/p"});
    }
    SECTION("cordoned") {
        pod();
        affinity_node_with_labels(b).cordon();
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired).empty());
    }
    SECTION("a NoExecute taint the pod does not tolerate") {
        pod();
        affinity_node_with_labels(b).taint("k", "v", "NoExecute");
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired).empty());
    }
    SECTION("a PreferNoSchedule taint does not matter") {
        pod();
        affinity_node_with_labels(b).taint("k", "v", "PreferNoSchedule");
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) == Pods{"default/p"});
    }
    SECTION("a NoSchedule taint tolerated with Gt") {
        pod().tolerate("tier", "Gt", "2", "NoSchedule");
        affinity_node_with_labels(b).taint("tier", "3", "NoSchedule");
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) == Pods{"default/p"});
    }
    SECTION("not enough CPU left") {
        pod();
        affinity_node_with_labels(b);
        b.pod("default", "big").on("nodeWithLabels").request("cpu", "1950m");
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired).empty());
    }
    SECTION("no pod slot left: allocatable pods 1, one unfinished pod there (a finished one does not count)") {
        pod();
        b.node("full").label(kDesiredKey, "yes").allocatable("cpu", "2").allocatable("pods", "1");
        b.node("roomy").label(kDesiredKey, "yes").allocatable("cpu", "2").allocatable("pods", "1");
        b.pod("default", "there").on("full");
        b.pod("default", "done").on("roomy").in_phase(KD_POD_SUCCEEDED);
        b.select_nodes({"here", "full"});
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired).empty());
        p.host.clear();
        b.select_nodes({"here", "roomy"});
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) == Pods{"default/p"});
    }
    SECTION("no allocatable pods (a hand-written snapshot): not limited") {
        pod();
        b.node("bare").label(kDesiredKey, "yes").allocatable("cpu", "2");
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) == Pods{"default/p"});
    }
    SECTION("only the nodes the plugin runs on count") {
        pod();
        affinity_node_with_labels(b);
        b.select_nodes({"here"});
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired).empty());
    }
}

TEST_CASE("RemovePodsViolatingNodeAffinity: namespaces, labelSelector, finished pods", "[nodeaffinity][args]") {
    SnapshotBuilder b;
    affinity_node(b, "here");
    affinity_node_with_labels(b);
    b.pod("x", "px").on("here").owner("ReplicaSet", "rs").label("app", "web").require_node(kDesiredKey, "In", {"yes"});
    b.pod("y", "py").on("here").owner("ReplicaSet", "rs").label("app", "db").require_node(kDesiredKey, "In", {"yes"});
    b.pod("y", "failed")
        .on("here")
        .owner("ReplicaSet", "rs")
        .in_phase(KD_POD_FAILED)
        .require_node(kDesiredKey, "In", {"yes"});
    Profile p;
    const std::string type = R"("nodeAffinityType": ["requiredDuringSchedulingIgnoredDuringExecution"])";
    CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) == Pods{"x/px", "y/py"});
    p.host.clear();
    CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, "{" + type + R"(, "namespaces": {"include": ["y"]}})") ==
          Pods{"y/py"});
    p.host.clear();
    CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, "{" + type + R"(, "namespaces": {"exclude": ["y"]}})") ==
          Pods{"x/px"});
    p.host.clear();
    CHECK(p.run<RemovePodsViolatingNodeAffinity>(
              b, "{" + type + R"(, "labelSelector": {"matchLabels": {"app": "web"}}})") == Pods{"x/px"});
}

TEST_CASE("RemovePodsViolatingNodeAffinity: a node's limit ends that node, the total limit the cycle",
          "[nodeaffinity][limits]") {
    SnapshotBuilder b;
    affinity_node(b, "n1");
    affinity_node(b, "n2");
    affinity_node_with_labels(b);
    for (auto name : {"a1", "a2", "a3"}) affinity_pod(b, name, "n1").require_node(kDesiredKey, "In", {"yes"});
    for (auto name : {"b1", "b2"}) affinity_pod(b, name, "n2").require_node(kDesiredKey, "In", {"yes"});
    Profile p;
    SECTION("per node 1") {
        p.host.limits.per_node = 1;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) == Pods{"default/a1", "default/b1"});
        CHECK(p.requests() == 4);
    }
    SECTION("total 2") {
        p.host.limits.total = 2;
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) == Pods{"default/a1", "default/a2"});
        CHECK(p.requests() == 3);
    }
    SECTION("a type listed twice asks once for a pod evicted, again for a pod refused") {
        p.host.on_evict = [](const kd::Pod& pod) {
            return pod.name() == "a1" ? kd::EvictOutcome::failed("PDB") : kd::EvictOutcome::accepted();
        };
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(
                  b, R"({"nodeAffinityType": ["requiredDuringSchedulingIgnoredDuringExecution",
                                              "requiredDuringSchedulingIgnoredDuringExecution"]})") ==
              Pods{"default/a2", "default/a3", "default/b1", "default/b2"});
        CHECK(p.requests() == 6);  // a1 twice
    }
}

TEST_CASE("RemovePodsViolatingNodeAffinity: validation", "[nodeaffinity][args]") {
    CHECK(create_error<RemovePodsViolatingNodeAffinity>("{}") == "nodeAffinityType: nodeAffinityType needs to be set");
    CHECK(create_error<RemovePodsViolatingNodeAffinity>(R"({"nodeAffinityType": "x"})").find("nodeAffinityType: ") ==
          0);
    CHECK(create_error<RemovePodsViolatingNodeAffinity>(kPreferred) == "");
    // Upstream accepts any other value and skips it at run time, with an error in the log.
    CHECK(create_error<RemovePodsViolatingNodeAffinity>(R"({"nodeAffinityType": ["sometimes"]})") == "");
    CHECK(create_error<RemovePodsViolatingNodeAffinity>(R"({"nodeAffinityType": ["x"], "nodeSelector": "a"})")
              .find("nodeSelector: unknown field") == 0);
}

TEST_CASE("RemovePodsViolatingNodeAffinity: preferred: the weights of the matching terms add up", "[nodeaffinity]") {
    SnapshotBuilder b;
    affinity_node(b, "here").label("zone", "a").label("disk", "ssd");
    affinity_node(b, "there").label("zone", "b");
    // here: 5 + 4 = 9; there: 10.
    affinity_pod(b, "wants-b", "here")
        .prefer_node(5, "disk", "In", {"ssd"})
        .prefer_node(4, "zone", "In", {"a"})
        .prefer_node(10, "zone", "In", {"b"});
    // here: 5 + 6 + 1 = 12; there: 1 + 10 = 11.
    affinity_pod(b, "happy", "here")
        .prefer_node(5, "disk", "In", {"ssd"})
        .prefer_node(6, "zone", "NotIn", {"b"})
        .prefer_node(1, "zone", "Exists", {})
        .prefer_node(10, "zone", "In", {"b"});
    // A malformed term (In without values) weighs nothing anywhere.
    affinity_pod(b, "malformed", "here").prefer_node(50, "zone", "In", {});
    affinity_pod(b, "none", "here");
    Profile p;
    CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kPreferred) == Pods{"default/wants-b"});
}

TEST_CASE("RemovePodsViolatingNodeAffinity: preferred: the pod must fit some node, its own included",
          "[nodeaffinity]") {
    SnapshotBuilder b;
    Profile p;
    SECTION("the heavier node is cordoned, the pod still fits its own: taken (the evictor's nodeFit is off)") {
        affinity_node(b, "here");
        affinity_node(b, "there").label("zone", "b").cordon();
        affinity_pod(b, "p", "here").prefer_node(10, "zone", "In", {"b"});
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kPreferred) == Pods{"default/p"});
    }
    SECTION("the pod fits no node at all (its required affinity matches none): not taken") {
        affinity_node(b, "here");
        affinity_node(b, "there").label("zone", "b");
        affinity_pod(b, "p", "here").prefer_node(10, "zone", "In", {"b"}).require_node("zone", "In", {"c"});
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kPreferred).empty());
    }
}

TEST_CASE("RemovePodsViolatingNodeAffinity: both types: a pod is asked for once", "[nodeaffinity]") {
    SnapshotBuilder b;
    affinity_node(b, "here");
    affinity_node_with_labels(b);
    affinity_pod(b, "both", "here")
        .require_node(kDesiredKey, "In", {"yes"})
        .prefer_node(10, kDesiredKey, "In", {"yes"});
    affinity_pod(b, "preferred-only", "here").prefer_node(10, kDesiredKey, "In", {"yes"});
    Profile p;
    CHECK(p.run<RemovePodsViolatingNodeAffinity>(
              b, R"({"nodeAffinityType": ["requiredDuringSchedulingIgnoredDuringExecution",
                                          "preferredDuringSchedulingIgnoredDuringExecution"]})") ==
          Pods{"default/both", "default/preferred-only"});
    CHECK(p.requests() == 2);
}

TEST_CASE("RemovePodsViolatingNodeAffinity: the fit check reads the pod's required pod anti-affinity",
          "[nodeaffinity]") {
    SnapshotBuilder b;
    affinity_node(b, "here");
    affinity_node_with_labels(b, "there").label("kubernetes.io/hostname", "there");
    SnapshotBuilder::PodSpec::AffinityTerm away;  // not beside another app=web pod on a host
    away.topology_key = "kubernetes.io/hostname";
    away.has_label_selector = true;
    away.match_labels = {{"app", "web"}};
    auto candidate = [&](SnapshotBuilder::PodSpec::AffinityTerm term) {
        affinity_pod(b, "web-1", "here")
            .label("app", "web")
            .require_node(kDesiredKey, "In", {"yes"})
            .anti_affinity_to(std::move(term));
    };
    Profile p;
    SECTION("an app=web pod on the only other node: no fit") {
        candidate(away);
        b.pod("default", "web-2").on("there").label("app", "web");
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired).empty());
    }
    SECTION("that pod in another namespace: fits") {
        candidate(away);
        b.pod("other", "web-2").on("there").label("app", "web");
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) == Pods{"default/web-1"});
    }
    SECTION("the term lists that namespace: no fit") {
        away.namespaces = {"other"};
        candidate(away);
        b.pod("other", "web-2").on("there").label("app", "web");
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired).empty());
    }
    SECTION("that pod finished: fits") {
        candidate(away);
        b.pod("default", "web-2").on("there").label("app", "web").in_phase(KD_POD_SUCCEEDED);
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) == Pods{"default/web-1"});
    }
    SECTION("the node lacks the topology key: fits") {
        away.topology_key = "zone";
        candidate(away);
        b.pod("default", "web-2").on("there").label("app", "web");
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) == Pods{"default/web-1"});
    }
    SECTION("a term without a labelSelector selects no pod: fits") {
        away.has_label_selector = false;
        away.match_labels.clear();
        candidate(away);
        b.pod("default", "web-2").on("there").label("app", "web");
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) == Pods{"default/web-1"});
    }
    SECTION("a pod of the same name is the pod itself: fits") {
        away.namespaces = {"other"};
        candidate(away);
        b.pod("other", "web-1").on("there").label("app", "web");
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired) == Pods{"default/web-1"});
    }
    SECTION("an invalid labelSelector: no fit, as upstream's error") {
        away.match_labels.clear();
        away.match_expressions = {{"app", "Near", {"web"}}};
        candidate(away);
        CHECK(p.run<RemovePodsViolatingNodeAffinity>(b, kRequired).empty());
    }
}
