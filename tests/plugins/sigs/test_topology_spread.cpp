// RemovePodsViolatingTopologySpreadConstraint. The first part: the cases of upstream's table tests
// (pkg/framework/plugins/removepodsviolatingtopologyspreadconstraint/topologyspreadconstraint_test.go,
// validation_test.go and defaults_test.go @v0.35.1, named by their descriptions) as facts: the same
// nodes and pods, the same args, the same number of pods evicted; we name which pods, in which
// order. Upstream's harness lists each node's pods by name, as tsc_add_pods does. Then our own.
#include "sigs_test.hpp"

#include <algorithm>
#include <array>
#include <tuple>

using namespace sigs_test;
using kd::plugins::sigs::RemovePodsViolatingTopologySpreadConstraint;
using Spread = SnapshotBuilder::PodSpec::SpreadConstraint;

namespace {

using Requirement = std::tuple<std::string, std::string, std::vector<std::string>>;

// Upstream's testPodList: `count` pods on `node` in namespace ns1, named pod-0, pod-1, … across
// the lists, each requesting 100m CPU and owned by a ReplicaSet unless no_owners.
struct TscPods {
    int count = 1;
    std::string node;
    std::vector<std::pair<std::string, std::string>> labels = {{"foo", "bar"}};
    std::vector<Spread> constraints = {};
    std::vector<std::pair<std::string, std::string>> node_selector = {};
    std::vector<Requirement> affinity = {};   // one required term holding these expressions
    std::vector<Requirement> preferred = {};  // one preferred term (weight 50) holding these expressions
    bool no_owners = false;
    std::vector<std::array<std::string, 4>> tolerations = {};  // key, operator, value, effect
    bool terminating = false;
    std::optional<int32_t> priority = std::nullopt;
};

// createTestPods, then the harness's order: every node's pods sorted by name ("pod-10" before "pod-2").
void tsc_add_pods(SnapshotBuilder& b, const std::vector<TscPods>& lists) {
    std::vector<std::pair<std::string, const TscPods*>> named;
    int n = 0;
    for (const auto& list : lists)
        for (int i = 0; i < list.count; ++i) named.emplace_back("pod-" + std::to_string(n++), &list);
    std::stable_sort(named.begin(), named.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [name, list] : named) {
        auto& pod = b.pod("ns1", name).on(list->node).request("cpu", "100m");
        for (const auto& [k, v] : list->labels) pod.label(k, v);
        if (!list->no_owners) pod.owner("ReplicaSet", "replicaset-1", false);
        for (const auto& c : list->constraints) pod.spread(c);
        for (const auto& [k, v] : list->node_selector) pod.select_node(k, v);
        if (!list->affinity.empty()) {
            pod.set_flag(KD_POD_HAS_NODE_AFFINITY);
            pod.affinity.push_back({list->affinity, {}});
        }
        if (!list->preferred.empty()) pod.preferred_node.push_back({50, {list->preferred, {}}});
        for (const auto& t : list->tolerations) pod.tolerate(t[0], t[1], t[2], t[3]);
        if (list->terminating) pod.set_flag(KD_POD_TERMINATING);
        if (list->priority) pod.with_priority(*list->priority);
    }
}

// test.BuildTestNode(name, millicpu, mem, pods) with the labels given.
SnapshotBuilder::NodeSpec& tsc_node(SnapshotBuilder& b, const std::string& name,
                                    std::vector<std::pair<std::string, std::string>> labels, int cpu_milli = 2000,
                                    int memory = 3000, int pods = 10) {
    auto& node = b.node(name)
                     .allocatable("cpu", std::to_string(cpu_milli) + "m")
                     .allocatable("memory", std::to_string(memory))
                     .allocatable("pods", std::to_string(pods));
    for (auto& [k, v] : labels) node.label(k, v);
    return node;
}

// Nodes n1, n2, … in zones zoneA, zoneB, … (upstream's most common layout).
void tsc_zone_nodes(SnapshotBuilder& b, int count) {
    for (int i = 0; i < count; ++i)
        tsc_node(b, "n" + std::to_string(i + 1), {{"zone", std::string("zone") + char('A' + i)}});
}

// getDefaultTopologyConstraints: maxSkew on "zone", DoNotSchedule, selecting foo=bar.
Spread tsc_zone(int32_t max_skew) {
    Spread c;
    c.max_skew = max_skew;
    c.topology_key = "zone";
    c.when_unsatisfiable = "DoNotSchedule";
    c.match_labels = {{"foo", "bar"}};
    return c;
}
Spread tsc_on(Spread c, std::string key) {
    c.topology_key = std::move(key);
    return c;
}
Spread tsc_soft(Spread c) {
    c.when_unsatisfiable = "ScheduleAnyway";
    return c;
}

Pods tsc_run(Profile& p, SnapshotBuilder& b, const std::string& args = "{}") {
    auto plugin = p.host.instantiate<RemovePodsViolatingTopologySpreadConstraint>(args);
    plugin.balance(b.build());
    return p.host.evicted();
}

Pods tsc_pods(std::initializer_list<int> ids) {
    Pods out;
    for (int i : ids) out.push_back("ns1/pod-" + std::to_string(i));
    return out;
}

std::string tsc_error(const std::string& args) {
    return create_error<RemovePodsViolatingTopologySpreadConstraint>(args);
}

const std::string kBothActions = R"({"constraints": ["DoNotSchedule", "ScheduleAnyway"]})";

}  // namespace

// ---------------------------------------------------------------------------------------------
// Upstream's cases

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: two zones", "[topologyspread][upstream]") {
    SnapshotBuilder b;
    tsc_zone_nodes(b, 2);
    Profile p;
    SECTION("2 domains, sizes [2,1], maxSkew=1, move 0 pods") {
        tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(1)}}, {.node = "n1"}, {.node = "n2"}});
        CHECK(tsc_run(p, b).empty());
    }
    SECTION("2 domains, sizes [3,1], maxSkew=1, move 1 pod to achieve [2,2]") {
        tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(1)}}, {.count = 2, .node = "n1"}, {.node = "n2"}});
        CHECK(tsc_run(p, b) == tsc_pods({2}));
    }
    SECTION("2 domains, sizes [3,1], maxSkew=1, move 1 pod to achieve [2,2] (both constraints)") {
        tsc_add_pods(
            b, {{.node = "n1", .constraints = {tsc_soft(tsc_zone(1))}}, {.count = 2, .node = "n1"}, {.node = "n2"}});
        CHECK(tsc_run(p, b, kBothActions) == tsc_pods({2}));
    }
    SECTION("2 domains, sizes [3,1], maxSkew=1, move 1 pod to achieve [2,2] (soft constraints)") {
        tsc_add_pods(
            b, {{.node = "n1", .constraints = {tsc_soft(tsc_zone(1))}}, {.count = 2, .node = "n1"}, {.node = "n2"}});
        CHECK(tsc_run(p, b, kBothActions) == tsc_pods({2}));
    }
    SECTION("2 domains, sizes [3,1], maxSkew=1, no pods eligible, move 0 pods") {
        tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(1)}, .no_owners = true},
                         {.count = 2, .node = "n1", .no_owners = true},
                         {.node = "n2", .no_owners = true}});
        CHECK(tsc_run(p, b).empty());
    }
    SECTION("2 domains, sizes [5,2], maxSkew=1, move 1 pod to achieve [4,3]") {
        tsc_add_pods(
            b, {{.node = "n1", .constraints = {tsc_zone(1)}}, {.count = 4, .node = "n1"}, {.count = 2, .node = "n2"}});
        CHECK(tsc_run(p, b) == tsc_pods({4}));
    }
    SECTION("2 domains, sizes [4,0], maxSkew=1, move 2 pods to achieve [2,2]") {
        tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(1)}}, {.count = 3, .node = "n1"}});
        CHECK(tsc_run(p, b) == tsc_pods({2, 3}));
    }
    SECTION("2 domains size [2 6], maxSkew=2, should move 1 to get [3 5]") {
        tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(2)}}, {.node = "n1"}, {.count = 6, .node = "n2"}});
        CHECK(tsc_run(p, b) == tsc_pods({7}));
    }
    SECTION("2 domains, sizes [2,0], maxSkew=1, move 0 pod for node with unmatched label filtering") {
        tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(1)}}, {.node = "n1"}});
        CHECK(
            tsc_run(p, b,
                    R"({"labelSelector": {"matchExpressions": [{"key": "foo", "operator": "In", "values": ["baz"]}]}})")
                .empty());
    }
    SECTION("2 domains, sizes [2,0], maxSkew=1, move 1 pod for node with matched label filtering") {
        tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(1)}}, {.node = "n1"}});
        CHECK(
            tsc_run(
                p, b,
                R"({"labelSelector": {"matchExpressions": [{"key": "foo", "operator": "In", "values": ["bar"]}]}})") ==
            tsc_pods({1}));
    }
    SECTION("2 domains, sizes [2,0], maxSkew=1, move 1 pod for node with matched label filtering (NotIn op)") {
        tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(1)}}, {.node = "n1"}});
        CHECK(
            tsc_run(
                p, b,
                R"({"labelSelector": {"matchExpressions": [{"key": "foo", "operator": "NotIn", "values": ["baz"]}]}})") ==
            tsc_pods({1}));
    }
    SECTION("2 domains, sizes [4,2], maxSkew=1, 2 pods in termination; nothing should be moved") {
        tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {tsc_zone(1)}},
                         {.count = 2, .node = "n1", .constraints = {tsc_zone(1)}, .terminating = true},
                         {.count = 2, .node = "n2", .constraints = {tsc_zone(1)}}});
        CHECK(
            tsc_run(p, b,
                    R"({"labelSelector": {"matchExpressions": [{"key": "foo", "operator": "In", "values": ["bar"]}]}})")
                .empty());
    }
}

TEST_CASE(
    "RemovePodsViolatingTopologySpreadConstraint: 2 domains, sizes [3,1], maxSkew=1, move 1 pod to achieve "
    "[2,2], exclude kube-system namespace",
    "[topologyspread][upstream]") {
    SnapshotBuilder b;
    tsc_zone_nodes(b, 2);
    tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(1)}}, {.count = 2, .node = "n1"}, {.node = "n2"}});
    Profile p(R"({"nodeFit": true})");
    CHECK(tsc_run(p, b, R"({"namespaces": {"exclude": ["kube-system"]}})") == tsc_pods({2}));
}

TEST_CASE(
    "RemovePodsViolatingTopologySpreadConstraint: 2 domains, sizes [4,0], maxSkew=1, only move 1 pod since "
    "pods with nodeSelector and nodeAffinity aren't evicted",
    "[topologyspread][upstream]") {
    SnapshotBuilder b;
    tsc_zone_nodes(b, 2);
    tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(1)}, .node_selector = {{"zone", "zoneA"}}},
                     {.node = "n1", .constraints = {tsc_zone(1)}, .node_selector = {{"zone", "zoneA"}}},
                     {.node = "n1", .constraints = {tsc_zone(1)}, .affinity = {{"foo", "In", {"bar"}}}},
                     {.node = "n1", .constraints = {tsc_zone(1)}}});
    Profile p(R"({"nodeFit": true})");
    CHECK(tsc_run(p, b) == tsc_pods({3}));
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: node domains of Windows and Linux nodes",
          "[topologyspread][upstream]") {
    SnapshotBuilder b;
    for (const char* n : {"A", "B", "C"})
        tsc_node(b, std::string("lin") + n, {{"node", std::string("linNode") + n}, {"os", "linux"}});
    tsc_node(b, "n4", {{"node", "winNodeA"}, {"os", "windows"}});
    tsc_node(b, "n5", {{"node", "winNodeB"}, {"os", "windows"}});
    tsc_node(b, "n6", {{"node", "winNodeC"}, {"os", "windows"}});
    const Spread by_node = tsc_on(tsc_zone(1), "node");
    const std::vector<std::pair<std::string, std::string>> windows = {{"os", "windows"}};
    SECTION("6 domains, sizes [0,0,0,3,3,2], maxSkew=1, No pod is evicted since topology is balanced") {
        tsc_add_pods(b, {{.count = 3, .node = "n4", .constraints = {by_node}, .node_selector = windows},
                         {.count = 3, .node = "n5", .constraints = {by_node}, .node_selector = windows},
                         {.count = 2, .node = "n6", .constraints = {by_node}, .node_selector = windows}});
        Profile p;
        CHECK(tsc_run(p, b).empty());
    }
    SECTION("7 domains, sizes [0,0,0,3,3,2], maxSkew=1, two pods are evicted and moved to new node added") {
        tsc_node(b, "n7", {{"node", "winNodeD"}, {"os", "windows"}});
        tsc_add_pods(b, {{.count = 3, .node = "n4", .constraints = {by_node}, .node_selector = windows},
                         {.count = 3, .node = "n5", .constraints = {by_node}, .node_selector = windows},
                         {.count = 2, .node = "n6", .constraints = {by_node}, .node_selector = windows}});
        Profile p;
        // Equal domains are taken in the order of their values: winNodeB gives first.
        CHECK(tsc_run(p, b) == tsc_pods({5, 2}));
    }
    SECTION("6 domains, sizes [0,0,0,4,3,1], maxSkew=1, 1 pod is evicted from node 4") {
        tsc_add_pods(b, {{.count = 4, .node = "n4", .constraints = {by_node}, .node_selector = windows},
                         {.count = 3, .node = "n5", .constraints = {by_node}, .node_selector = windows},
                         {.count = 1, .node = "n6", .constraints = {by_node}, .node_selector = windows}});
        Profile p;
        CHECK(tsc_run(p, b) == tsc_pods({3}));
    }
    SECTION(
        "6 domains, sizes [0,0,0,4,3,1], maxSkew=1, 0 pod is evicted as pods of node:winNodeA can only be "
        "scheduled on this node and nodeFit is true") {
        tsc_add_pods(b, {{.count = 4, .node = "n4", .constraints = {by_node}, .node_selector = {{"node", "winNodeA"}}},
                         {.count = 3, .node = "n5", .constraints = {by_node}, .node_selector = windows},
                         {.count = 1, .node = "n6", .constraints = {by_node}, .node_selector = windows}});
        Profile p(R"({"nodeFit": true})");
        CHECK(tsc_run(p, b).empty());
    }
}

TEST_CASE(
    "RemovePodsViolatingTopologySpreadConstraint: 2 domains, sizes [4,0], maxSkew=1, move 2 pods since "
    "selector matches multiple nodes",
    "[topologyspread][upstream]") {
    SnapshotBuilder b;
    tsc_node(b, "n1", {{"zone", "zoneA"}, {"region", "boston"}});
    tsc_node(b, "n2", {{"zone", "zoneB"}, {"region", "boston"}});
    const std::vector<std::pair<std::string, std::string>> boston = {{"region", "boston"}};
    tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(1)}, .node_selector = boston},
                     {.count = 3, .node = "n1", .node_selector = boston}});
    Profile p;
    CHECK(tsc_run(p, b) == tsc_pods({2, 3}));
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: three or four zones", "[topologyspread][upstream]") {
    SnapshotBuilder b;
    Profile p;
    SECTION("3 domains, sizes [0, 1, 100], maxSkew=1, move 66 pods to get [34, 33, 34]") {
        tsc_zone_nodes(b, 3);
        tsc_add_pods(b, {{.node = "n2", .constraints = {tsc_zone(1)}}, {.count = 100, .node = "n3"}});
        Pods evicted = tsc_run(p, b);
        CHECK(evicted.size() == 66);
        CHECK(std::find(evicted.begin(), evicted.end(), "ns1/pod-0") == evicted.end());
    }
    SECTION("4 domains, sizes [0, 1, 3, 5], should move 3 to get [2, 2, 3, 2]") {
        tsc_zone_nodes(b, 4);
        tsc_add_pods(
            b, {{.node = "n2", .constraints = {tsc_zone(1)}}, {.count = 3, .node = "n3"}, {.count = 5, .node = "n4"}});
        // zoneD gives two to zoneA, then one to zoneB.
        CHECK(tsc_run(p, b) == tsc_pods({7, 8, 6}));
    }
    SECTION("3 domains size [8 7 0], maxSkew=1, should move 5 to get [5 5 5]") {
        tsc_zone_nodes(b, 3);
        tsc_add_pods(b, {{.count = 8, .node = "n1", .constraints = {tsc_zone(1)}},
                         {.count = 7, .node = "n2", .constraints = {tsc_zone(1)}}});
        CHECK(tsc_run(p, b) == tsc_pods({5, 6, 7, 8, 9}));
    }
    SECTION("3 domains size [5 5 5], maxSkew=1, should move 0 to retain [5 5 5]") {
        tsc_zone_nodes(b, 3);
        tsc_add_pods(b, {{.count = 5, .node = "n1", .constraints = {tsc_zone(1)}},
                         {.count = 5, .node = "n2", .constraints = {tsc_zone(1)}},
                         {.count = 5, .node = "n3", .constraints = {tsc_zone(1)}}});
        CHECK(tsc_run(p, b).empty());
    }
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: 2 domains size [2 6], maxSkew=2, nodeFit",
          "[topologyspread][upstream]") {
    SnapshotBuilder b;
    Profile p(R"({"nodeFit": true})");
    SECTION("2 domains size [2 6], maxSkew=2, can't move any because of node taints") {
        tsc_node(b, "n1", {{"zone", "zoneA"}}).taint("hardware", "gpu", "NoSchedule");
        tsc_node(b, "n2", {{"zone", "zoneB"}});
    }
    SECTION("2 domains size [2 6], maxSkew=2, can't move any because node1 does not have enough CPU") {
        tsc_node(b, "n1", {{"zone", "zoneA"}}, 200);
        tsc_node(b, "n2", {{"zone", "zoneB"}});
    }
    tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(2)}}, {.node = "n1"}, {.count = 6, .node = "n2"}});
    CHECK(tsc_run(p, b).empty());
    // pod-7 was the one to move; it fits no node of zoneA.
    CHECK(std::find(p.host.reports().begin(), p.host.reports().end(), "pod ns1/pod-7 skipped=TopologyBalanceNodeFit") !=
          p.host.reports().end());
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: Multiple constraints (6 nodes/2 zones, 4 pods)",
          "[topologyspread][upstream]") {
    SnapshotBuilder b;
    for (int i = 1; i <= 6; ++i) {
        std::string name = "n" + std::to_string(i);
        tsc_node(b, name,
                 {{"topology.kubernetes.io/zone", i <= 3 ? "zoneA" : "zoneB"}, {"kubernetes.io/hostname", name}});
    }
    Spread zone = tsc_soft(tsc_on(tsc_zone(1), "topology.kubernetes.io/zone"));
    zone.match_labels = {{"app", "whoami"}};
    Spread host = tsc_on(tsc_zone(1), "kubernetes.io/hostname");
    host.match_labels = {{"app", "whoami"}};
    const std::vector<std::pair<std::string, std::string>> whoami = {{"app", "whoami"}};
    tsc_add_pods(b, {{.node = "n1", .labels = whoami, .constraints = {zone, host}},
                     {.node = "n2", .labels = whoami, .constraints = {zone, host}},
                     {.node = "n3", .labels = whoami, .constraints = {zone, host}},
                     {.node = "n4", .labels = whoami, .constraints = {zone, host}}});
    Profile p;
    CHECK(tsc_run(p, b, kBothActions) == tsc_pods({2}));
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: 2 domains, sizes [2,0], taints of the smaller domain",
          "[topologyspread][upstream]") {
    SnapshotBuilder b;
    tsc_node(b, "n1", {{"zone", "zoneA"}});
    auto& n2 = tsc_node(b, "n2", {{"zone", "zoneB"}});
    const std::vector<std::pair<std::string, std::string>> zone_a = {{"zone", "zoneA"}};
    SECTION("2 domains, sizes [2,0], maxSkew=1, move 1 pod since pod tolerates the node with taint") {
        n2.taint("taint-test", "test", "NoSchedule");
        tsc_add_pods(b, {{.node = "n1",
                          .constraints = {tsc_zone(1)},
                          .tolerations = {{"taint-test", "Equal", "test", "NoSchedule"}}},
                         {.node = "n1", .node_selector = zone_a}});
        Profile p;
        CHECK(tsc_run(p, b) == tsc_pods({0}));
    }
    SECTION("2 domains, sizes [2,0], maxSkew=1, move 0 pods since pod does not tolerate the tainted node") {
        n2.taint("taint-test", "test", "NoSchedule");
        tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(1)}}, {.node = "n1", .node_selector = zone_a}});
        Profile p;
        CHECK(tsc_run(p, b).empty());
    }
    SECTION(
        "2 domains, sizes [2,0], maxSkew=1, move 0 pods since pod does not tolerate the tainted node, and "
        "NodeFit is enabled") {
        n2.taint("taint-test", "test", "NoSchedule");
        tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(1)}}, {.node = "n1", .node_selector = zone_a}});
        Profile p(R"({"nodeFit": true})");
        CHECK(tsc_run(p, b).empty());
    }
    SECTION("2 domains, sizes [2,0], maxSkew=1, move 1 pod for node with PreferNoSchedule Taint") {
        n2.taint("taint-test", "test", "PreferNoSchedule");
        tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(1)}}, {.node = "n1", .node_selector = zone_a}});
        Profile p;
        CHECK(tsc_run(p, b) == tsc_pods({0}));
    }
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: matchLabelKeys", "[topologyspread][upstream]") {
    SnapshotBuilder b;
    tsc_zone_nodes(b, 2);
    Spread hashed = tsc_zone(1);
    hashed.match_label_keys = {"pod-template-hash"};
    const std::string not_baz =
        R"({"labelSelector": {"matchExpressions": [{"key": "foo", "operator": "NotIn", "values": ["baz"]}]}})";
    Profile p;
    SECTION("2 domains, sizes [2,0], maxSkew=1, move 1 pods given matchLabelKeys on same replicaset") {
        tsc_add_pods(b, {{.count = 2,
                          .node = "n1",
                          .labels = {{"foo", "bar"}, {"pod-template-hash", "foo"}},
                          .constraints = {hashed}}});
        CHECK(tsc_run(p, b, not_baz) == tsc_pods({1}));
    }
    SECTION("2 domains, sizes [2,0], maxSkew=1, move 0 pods given matchLabelKeys on two different replicasets") {
        tsc_add_pods(
            b, {{.node = "n1", .labels = {{"foo", "bar"}, {"pod-template-hash", "foo"}}, .constraints = {hashed}},
                {.node = "n1", .labels = {{"foo", "bar"}, {"pod-template-hash", "bar"}}, .constraints = {hashed}}});
        CHECK(tsc_run(p, b, not_baz).empty());
    }
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: 3 domains, sizes [2,3,4], not enough cpu on zoneA",
          "[topologyspread][upstream]") {
    SnapshotBuilder b;
    tsc_node(b, "n1", {{"zone", "zoneA"}}, 250, 2000, 9);
    tsc_node(b, "n2", {{"zone", "zoneB"}}, 1000, 2000, 9);
    tsc_node(b, "n3", {{"zone", "zoneC"}}, 1000, 2000, 9);
    tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {tsc_zone(1)}},
                     {.count = 3, .node = "n2", .constraints = {tsc_zone(1)}},
                     {.count = 4, .node = "n3", .constraints = {tsc_zone(1)}}});
    Profile p(R"({"nodeFit": true})");
    SECTION(
        "3 domains, sizes [2,3,4], maxSkew=1, NodeFit is enabled, and not enough cpu on zoneA; nothing should be "
        "moved") {
        CHECK(tsc_run(p, b).empty());
    }
    SECTION(
        "3 domains, sizes [2,3,4], maxSkew=1, args.NodeFit is false, and not enough cpu on zoneA; 1 should be "
        "moved to force scale-up") {
        CHECK(tsc_run(p, b, R"({"topologyBalanceNodeFit": false})") == tsc_pods({8}));
    }
}

TEST_CASE(
    "RemovePodsViolatingTopologySpreadConstraint: 3 domains, sizes [[1,0], [1,1], [2,1]], maxSkew=1, NodeFit is "
    "enabled, and not enough cpu on ZoneA, nothing should be moved",
    "[topologyspread][upstream]") {
    SnapshotBuilder b;
    tsc_node(b, "A1", {{"zone", "zoneA"}}, 150, 2000, 9);
    tsc_node(b, "B1", {{"zone", "zoneB"}}, 1000, 2000, 9);
    tsc_node(b, "C1", {{"zone", "zoneC"}}, 1000, 2000, 9);
    tsc_node(b, "A2", {{"zone", "zoneA"}}, 50, 2000, 9);
    tsc_node(b, "B2", {{"zone", "zoneB"}}, 1000, 2000, 9);
    tsc_node(b, "C2", {{"zone", "zoneC"}}, 1000, 2000, 9);
    tsc_add_pods(b, {{.node = "A1", .constraints = {tsc_zone(1)}},
                     {.node = "B1", .constraints = {tsc_zone(1)}},
                     {.node = "B2", .constraints = {tsc_zone(1)}},
                     {.count = 2, .node = "C1", .constraints = {tsc_zone(1)}},
                     {.node = "C2", .constraints = {tsc_zone(1)}}});
    Profile p(R"({"nodeFit": true})");
    CHECK(tsc_run(p, b).empty());
}

TEST_CASE(
    "RemovePodsViolatingTopologySpreadConstraint: 2 domains, sizes [[1,4], [2,1]], maxSkew=1, NodeFit is "
    "enabled, should move 1",
    "[topologyspread][upstream]") {
    SnapshotBuilder b;
    tsc_node(b, "A1", {{"zone", "zoneA"}}, 1000, 2000, 9);
    tsc_node(b, "A2", {{"zone", "zoneA"}}, 1000, 2000, 9);
    tsc_node(b, "B1", {{"zone", "zoneB"}}, 1000, 2000, 9);
    tsc_node(b, "B2", {{"zone", "zoneB"}}, 1000, 2000, 9);
    tsc_add_pods(b, {{.node = "A1", .constraints = {tsc_zone(1)}},
                     {.count = 4, .node = "A2", .constraints = {tsc_zone(1)}},
                     {.count = 2, .node = "B1", .constraints = {tsc_zone(1)}},
                     {.node = "B2", .constraints = {tsc_zone(1)}}});
    Profile p(R"({"nodeFit": true})");
    CHECK(tsc_run(p, b) == tsc_pods({4}));
}

TEST_CASE(
    "RemovePodsViolatingTopologySpreadConstraint: 2 domains, sizes [3, 1], maxSkew=1, Tainted nodes, nothing "
    "should be moved",
    "[topologyspread][upstream]") {
    SnapshotBuilder b;
    tsc_node(b, "controlplane1", {{"zone", "zoneA"}, {"kubernetes.io/hostname", "cp-1"}})
        .taint("node-role.kubernetes.io/controlplane", "true", "NoSchedule")
        .taint("node-role.kubernetes.io/etcd", "true", "NoSchedule");
    tsc_node(b, "infraservices1", {{"zone", "zoneA"}, {"infra_service", "true"}, {"kubernetes.io/hostname", "infra-1"}})
        .taint("infra_service", "", "NoSchedule");
    tsc_node(b, "app1", {{"zone", "zoneA"}, {"app_service", "true"}, {"kubernetes.io/hostname", "app-1"}});
    tsc_node(b, "app2", {{"zone", "zoneB"}, {"app_service", "true"}, {"kubernetes.io/hostname", "app-2"}});
    Spread host = tsc_on(tsc_zone(1), "kubernetes.io/hostname");
    host.match_labels = {{"app.kubernetes.io/name", "service"}};
    const std::vector<std::pair<std::string, std::string>> service = {{"app.kubernetes.io/name", "service"}};
    tsc_add_pods(b, {{.count = 2,
                      .node = "app1",
                      .labels = service,
                      .constraints = {host},
                      .affinity = {{"app_service", "Exists", {}}}},
                     {.count = 2,
                      .node = "app2",
                      .labels = service,
                      .constraints = {host},
                      .affinity = {{"app_service", "Exists", {}}}}});
    Profile p(R"({"nodeFit": true})");
    CHECK(tsc_run(p, b).empty());
}

TEST_CASE(
    "RemovePodsViolatingTopologySpreadConstraint: 3 domains, sizes [2, 1, 0] with selectors, maxSkew=1, "
    "nodeTaintsPolicy=Ignore, should move 1 for [1, 1, 1]",
    "[topologyspread][upstream]") {
    SnapshotBuilder b;
    tsc_node(b, "A1", {{"zone", "zoneA"}, {"kubernetes.io/arch", "arm64"}}, 1000, 2000, 9);
    tsc_node(b, "B1", {{"zone", "zoneB"}, {"kubernetes.io/arch", "arm64"}}, 1000, 2000, 9);
    tsc_node(b, "C1", {{"zone", "zoneC"}, {"kubernetes.io/arch", "arm64"}}, 1000, 2000, 9);
    Spread ignoring = tsc_zone(1);
    ignoring.node_affinity_policy = "Ignore";
    tsc_add_pods(b, {{.node = "A1", .constraints = {ignoring}, .node_selector = {{"kubernetes.io/arch", "arm64"}}},
                     {.node = "A1",
                      .constraints = {ignoring},
                      .node_selector = {{"zone", "zoneA"}, {"kubernetes.io/arch", "arm64"}}},
                     {.node = "B1", .constraints = {ignoring}, .node_selector = {{"kubernetes.io/arch", "arm64"}}}});
    Profile p;
    // pod-1 would come back to zoneA: pod-0, which fits zoneC, leaves instead.
    CHECK(tsc_run(p, b) == tsc_pods({0}));
}

// TestSortDomains, as the pods a domain gives up first.
TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: sortDomains", "[topologyspread][upstream]") {
    SnapshotBuilder b;
    tsc_zone_nodes(b, 2);
    Profile p;
    SECTION("multiple domains with different priorities and selectors") {
        // Ascending priority from the front, and pods leave from the back: the higher priority first.
        tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(1)}, .priority = 20},
                         {.node = "n1", .constraints = {tsc_zone(1)}, .priority = 5}});
        CHECK(tsc_run(p, b) == tsc_pods({0}));
    }
    SECTION("domain with pods having different selector/affinity") {
        tsc_add_pods(
            b, {{.node = "n1", .constraints = {tsc_zone(1)}, .priority = 15},
                {.node = "n1", .constraints = {tsc_zone(1)}, .affinity = {{"zone", "Exists", {}}}, .priority = 10}});
        CHECK(tsc_run(p, b) == tsc_pods({0}));
    }
    SECTION("a pod with only preferred node affinity is bound to nodes too (API 1.6)") {
        tsc_add_pods(
            b, {{.node = "n1", .constraints = {tsc_zone(1)}, .priority = 10},
                {.node = "n1", .constraints = {tsc_zone(1)}, .preferred = {{"zone", "Exists", {}}}, .priority = 15}});
        // Unbound, pod-1 (the higher priority) would leave; bound, it goes to the front and stays.
        CHECK(tsc_run(p, b) == tsc_pods({0}));
    }
    SECTION("single domain with mixed pods") {
        // A pod the evictor refuses does not count at all: [2,0] becomes [1,0], within maxSkew.
        tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(1)}, .no_owners = true},
                         {.node = "n1", .constraints = {tsc_zone(1)}, .priority = 15}});
        CHECK(tsc_run(p, b).empty());
    }
}

// TestCheckIdenticalConstraints: identical constraints of many pods are balanced once.
TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: new constraint is identical / different",
          "[topologyspread][upstream]") {
    SnapshotBuilder b;
    tsc_zone_nodes(b, 2);
    SECTION("new constraint is identical") {
        tsc_add_pods(b, {{.count = 3, .node = "n1", .constraints = {tsc_zone(1), tsc_zone(1)}},
                         {.node = "n2", .constraints = {tsc_zone(1)}}});
        Profile p;
        CHECK(tsc_run(p, b) == tsc_pods({2}));
        CHECK(p.requests() == 1);
    }
    SECTION("new constraint is different") {
        // maxSkew 4 leaves [4,0] alone; maxSkew 1 takes two pods.
        tsc_add_pods(b, {{.count = 4, .node = "n1", .constraints = {tsc_zone(4), tsc_zone(1)}}});
        Profile p;
        CHECK(tsc_run(p, b) == tsc_pods({2, 3}));
    }
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: defaults (upstream's defaults_test.go)",
          "[topologyspread][upstream][args]") {
    // Empty args: DoNotSchedule constraints only, topologyBalanceNodeFit on.
    SnapshotBuilder b;
    tsc_node(b, "n1", {{"zone", "zoneA"}});
    tsc_node(b, "n2", {{"zone", "zoneB"}}).taint("t", "", "NoSchedule");
    tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {tsc_zone(1)}},
                     {.count = 2, .node = "n1", .labels = {{"app", "soft"}}, .constraints = {[] {
                                                                                 Spread s = tsc_soft(tsc_zone(1));
                                                                                 s.match_labels = {{"app", "soft"}};
                                                                                 return s;
                                                                             }()}}});
    Profile p;
    SECTION("RemovePodsViolatingTopologySpreadConstraintArgs empty") {
        CHECK(tsc_run(p, b).empty());
    }
    SECTION("RemovePodsViolatingTopologySpreadConstraintArgs with value") {
        CHECK(tsc_run(p, b,
                      R"({"namespaces": {}, "labelSelector": {}, "constraints": ["DoNotSchedule", "ScheduleAnyway"]})")
                  .empty());
        CHECK(p.host.reports().size() == 2);
    }
    SECTION("RemovePodsViolatingTopologySpreadConstraintArgs with TopologyBalanceNodeFit=false") {
        CHECK(tsc_run(p, b, R"({"topologyBalanceNodeFit": false})") == tsc_pods({1}));
    }
    SECTION("RemovePodsViolatingTopologySpreadConstraintArgs with nil constraints") {
        CHECK(tsc_run(p, b, R"({"constraints": null, "topologyBalanceNodeFit": false})") == tsc_pods({1}));
    }
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: validation (upstream's validation_test.go)",
          "[topologyspread][upstream][args]") {
    CHECK(tsc_error(R"({"namespaces": {"include": ["default"]}})") == "");
    CHECK(tsc_error(R"({"namespaces": {"include": ["default"], "exclude": ["kube-system"]}})") ==
          "namespaces: only one of Include/Exclude namespaces can be set");
    CHECK(tsc_error(R"({"labelSelector": {"matchLabels": {"role.kubernetes.io/node": ""}}})") == "");
    CHECK(tsc_error(R"({"labelSelector": {"matchExpressions": [{"key": "", "operator": "In"}]}})") ==
          "labelSelector.matchExpressions[0].key: invalid label key: name \"\" must be 1-63 characters of "
          "[A-Za-z0-9-_.], starting and ending with a letter or digit\n"
          "labelSelector.matchExpressions[0].values: must be non-empty when operator is In");
    CHECK(tsc_error(R"({"constraints": ["DoNotSchedule", "ScheduleAnyway"]})") == "");
    CHECK(tsc_error(R"({"constraints": ["foo"]})") ==
          "constraints[0]: constraint foo is not one of map[DoNotSchedule:{} ScheduleAnyway:{}]");
}

// ---------------------------------------------------------------------------------------------
// Our own

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: namespaces are balanced apart, each in scope or not",
          "[topologyspread][args]") {
    SnapshotBuilder b;
    tsc_zone_nodes(b, 2);
    for (const char* ns : {"a", "b"})
        for (int i = 0; i < 2; ++i)
            b.pod(ns, "p" + std::to_string(i))
                .on("n1")
                .owner("ReplicaSet", "rs", false)
                .label("foo", "bar")
                .spread(tsc_zone(1));
    Profile p;
    SECTION("every namespace") {
        CHECK(tsc_run(p, b) == Pods{"a/p1", "b/p1"});
    }
    SECTION("include") {
        CHECK(tsc_run(p, b, R"({"namespaces": {"include": ["b"]}})") == Pods{"b/p1"});
    }
    SECTION("exclude") {
        CHECK(tsc_run(p, b, R"({"namespaces": {"exclude": ["b"]}})") == Pods{"a/p1"});
    }
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: labelSelector decides which pods count, not only which leave",
          "[topologyspread][args]") {
    SnapshotBuilder b;
    tsc_zone_nodes(b, 2);
    // zoneA: two pods of tier x and two others; zoneB: two of tier x. All match the constraint.
    tsc_add_pods(b,
                 {{.count = 2, .node = "n1", .labels = {{"foo", "bar"}, {"tier", "x"}}, .constraints = {tsc_zone(1)}},
                  {.count = 2, .node = "n1", .constraints = {tsc_zone(1)}},
                  {.count = 2, .node = "n2", .labels = {{"foo", "bar"}, {"tier", "x"}}, .constraints = {tsc_zone(1)}}});
    Profile p;
    SECTION("all pods: [4,2] gives one") {
        CHECK(tsc_run(p, b) == tsc_pods({3}));
    }
    SECTION("tier x only: [2,2] is balanced") {
        CHECK(tsc_run(p, b, R"({"labelSelector": {"matchLabels": {"tier": "x"}}})").empty());
    }
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: constraints picks the whenUnsatisfiable actions balanced",
          "[topologyspread][args]") {
    SnapshotBuilder b;
    tsc_zone_nodes(b, 2);
    Spread soft = tsc_soft(tsc_zone(1));
    soft.match_labels = {{"app", "soft"}};
    tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {tsc_zone(1)}},
                     {.count = 2, .node = "n1", .labels = {{"app", "soft"}}, .constraints = {soft}}});
    Profile p;
    SECTION("absent: DoNotSchedule only") {
        CHECK(tsc_run(p, b) == tsc_pods({1}));
    }
    SECTION("empty: DoNotSchedule only") {
        CHECK(tsc_run(p, b, R"({"constraints": []})") == tsc_pods({1}));
    }
    SECTION("ScheduleAnyway only") {
        CHECK(tsc_run(p, b, R"({"constraints": ["ScheduleAnyway"]})") == tsc_pods({3}));
    }
    SECTION("both, in the pods' order") {
        CHECK(tsc_run(p, b, kBothActions) == tsc_pods({1, 3}));
    }
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: topologyBalanceNodeFit", "[topologyspread][args]") {
    SnapshotBuilder b;
    tsc_node(b, "n1", {{"zone", "zoneA"}});
    tsc_node(b, "n2", {{"zone", "zoneB"}}).cordon();
    tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {tsc_zone(1)}}});
    Profile p;
    SECTION("on (the default): the pod would fit no node of zoneB, so it stays and is reported") {
        CHECK(tsc_run(p, b).empty());
        CHECK(p.host.reports() == std::vector<std::string>{"pod ns1/pod-1 skipped=TopologyBalanceNodeFit"});
    }
    SECTION("off: it leaves all the same") {
        CHECK(tsc_run(p, b, R"({"topologyBalanceNodeFit": false})") == tsc_pods({1}));
        CHECK(p.host.reports().empty());
    }
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: nodeAffinityPolicy", "[topologyspread][policies]") {
    SnapshotBuilder b;
    tsc_zone_nodes(b, 2);
    Spread honour = tsc_zone(1), ignore = tsc_zone(1);
    honour.node_affinity_policy = "Honor";
    ignore.node_affinity_policy = "Ignore";
    const std::vector<std::pair<std::string, std::string>> zone_a = {{"zone", "zoneA"}};
    Profile p;
    SECTION("absent (Honor): only zoneA is a domain for pods bound to it, [2] is balanced") {
        tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {tsc_zone(1)}, .node_selector = zone_a}});
        CHECK(tsc_run(p, b, R"({"topologyBalanceNodeFit": false})").empty());
    }
    SECTION("Honor, through required node affinity") {
        tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {honour}, .affinity = {{"zone", "In", {"zoneA"}}}}});
        CHECK(tsc_run(p, b, R"({"topologyBalanceNodeFit": false})").empty());
    }
    SECTION("Ignore: zoneB is a domain too, [2,0] gives one") {
        tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {ignore}, .node_selector = zone_a}});
        CHECK(tsc_run(p, b, R"({"topologyBalanceNodeFit": false})") == tsc_pods({1}));
    }
    SECTION("a pod on a node the policy leaves out still counts, in a domain of its own") {
        // pod-3's constraint includes zoneB only; pods 0 to 2 run in zoneA and count there: [3,1].
        tsc_node(b, "n3", {{"zone", "zoneC"}});
        tsc_add_pods(b, {{.count = 3, .node = "n1"},
                         {.node = "n2", .constraints = {tsc_zone(1)}, .node_selector = {{"zone", "zoneB"}}}});
        CHECK(tsc_run(p, b) == tsc_pods({2}));
    }
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: nodeTaintsPolicy", "[topologyspread][policies]") {
    SnapshotBuilder b;
    tsc_node(b, "n1", {{"zone", "zoneA"}});
    tsc_node(b, "n2", {{"zone", "zoneB"}}).taint("dedicated", "db", "NoExecute");
    Spread honour = tsc_zone(1);
    honour.node_taints_policy = "Honor";
    Profile p;
    SECTION("absent (Ignore): the tainted zone is a domain, [2,0] gives one") {
        tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {tsc_zone(1)}}});
        CHECK(tsc_run(p, b, R"({"topologyBalanceNodeFit": false})") == tsc_pods({1}));
    }
    SECTION("Honor: a zone whose nodes the pod does not tolerate is no domain") {
        tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {honour}}});
        CHECK(tsc_run(p, b, R"({"topologyBalanceNodeFit": false})").empty());
    }
    SECTION("Honor, tolerated: a domain again") {
        tsc_add_pods(b, {{.count = 2,
                          .node = "n1",
                          .constraints = {honour},
                          .tolerations = {{"dedicated", "Equal", "db", "NoExecute"}}}});
        CHECK(tsc_run(p, b) == tsc_pods({1}));
    }
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: minDomains is not considered, as upstream",
          "[topologyspread][policies]") {
    SnapshotBuilder b;
    tsc_zone_nodes(b, 2);
    Spread min3 = tsc_zone(1);
    min3.min_domains = 3;
    tsc_add_pods(b, {{.node = "n1", .constraints = {min3}}, {.node = "n2", .constraints = {min3}}});
    Profile p;
    // The scheduler would count a global minimum of 0 with two domains of three wanted.
    CHECK(tsc_run(p, b).empty());
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: a constraint's selector", "[topologyspread][selector]") {
    SnapshotBuilder b;
    tsc_zone_nodes(b, 2);
    Profile p;
    SECTION("no labelSelector: the constraint counts no pod") {
        Spread none = tsc_zone(1);
        none.match_labels.clear();
        tsc_add_pods(b, {{.count = 3, .node = "n1", .constraints = {none}}});
        CHECK(tsc_run(p, b).empty());
    }
    SECTION("an empty labelSelector: every pod of the namespace") {
        Spread all = tsc_zone(1);
        all.match_labels.clear();
        all.has_label_selector = true;
        tsc_add_pods(b, {{.node = "n1", .labels = {{"app", "a"}}, .constraints = {all}},
                         {.node = "n1", .labels = {{"app", "b"}}}});
        b.pod("other", "x").on("n2").owner("ReplicaSet", "rs", false).label("app", "a");
        CHECK(tsc_run(p, b) == tsc_pods({1}));
    }
    SECTION("an action outside `constraints` (here an unknown one) is never balanced") {
        Spread odd = tsc_zone(1);
        odd.when_unsatisfiable = "Sometimes";
        tsc_add_pods(b, {{.count = 3, .node = "n1", .constraints = {odd}}});
        CHECK(tsc_run(p, b, kBothActions).empty());
    }
    SECTION("matchExpressions") {
        Spread expr = tsc_zone(1);
        expr.match_labels.clear();
        expr.match_expressions = {{"foo", "In", {"bar", "baz"}}};
        tsc_add_pods(b, {{.count = 2, .node = "n1", .labels = {{"foo", "baz"}}, .constraints = {expr}},
                         {.node = "n1", .labels = {{"foo", "qux"}}}});
        CHECK(tsc_run(p, b) == tsc_pods({1}));
    }
    SECTION("matchLabelKeys the pod lacks leave the selector as it is") {
        Spread hashed = tsc_zone(1);
        hashed.match_label_keys = {"pod-template-hash"};
        tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {hashed}}});
        CHECK(tsc_run(p, b) == tsc_pods({1}));
    }
    SECTION("an invalid selector passes the constraint over, with a warning naming it") {
        Spread bad = tsc_zone(1);
        bad.match_expressions = {{"foo", "Near", {"bar"}}};
        tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {bad, tsc_on(tsc_zone(1), "zone")}}});
        // The second, valid constraint still balances.
        CHECK(tsc_run(p, b) == tsc_pods({1}));
        REQUIRE_FALSE(p.host.logs().empty());
        CHECK(p.host.logs().front() ==
              "pod ns1/pod-0: topologySpreadConstraints[0] is passed over: labelSelector.matchExpressions[0].operator: "
              "unknown operator \"Near\" (use In, NotIn, Exists or DoesNotExist) (fix the pod's labelSelector)");
    }
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: which pods count", "[topologyspread]") {
    SnapshotBuilder b;
    tsc_zone_nodes(b, 3);
    Profile p;
    SECTION("finished pods do not") {
        tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {tsc_zone(1)}},
                         {.count = 2, .node = "n1", .constraints = {tsc_zone(1)}},
                         {.node = "n2", .constraints = {tsc_zone(1)}},
                         {.node = "n3", .constraints = {tsc_zone(1)}}});
        b.pod("ns1", "done").on("n1").owner("ReplicaSet", "rs", false).label("foo", "bar").in_phase(KD_POD_SUCCEEDED);
        b.pod("ns1", "failed").on("n1").owner("ReplicaSet", "rs", false).label("foo", "bar").in_phase(KD_POD_FAILED);
        // [4,1,1] without them.
        CHECK(tsc_run(p, b) == tsc_pods({3, 2}));
    }
    SECTION("pods and zones outside the extension point's nodes do not") {
        tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {tsc_zone(1)}},
                         {.node = "n2", .constraints = {tsc_zone(1)}}});
        b.select_nodes({"n1", "n2"});
        CHECK(tsc_run(p, b).empty());
    }
    SECTION("the same pods with zoneC in: [2,1,0] gives one") {
        tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {tsc_zone(1)}},
                         {.node = "n2", .constraints = {tsc_zone(1)}}});
        CHECK(tsc_run(p, b) == tsc_pods({1}));
    }
    SECTION("pods on a node without the topology key do not, and that node is no domain") {
        tsc_node(b, "bare", {});
        tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {tsc_zone(1)}},
                         {.node = "n2", .constraints = {tsc_zone(1)}},
                         {.node = "n3", .constraints = {tsc_zone(1)}},
                         {.count = 5, .node = "bare", .constraints = {tsc_zone(1)}}});
        CHECK(tsc_run(p, b).empty());
    }
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: the order pods leave a domain in", "[topologyspread][order]") {
    SnapshotBuilder b;
    tsc_zone_nodes(b, 2);
    Profile p;
    SECTION("unconstrained pods before pods bound by nodeSelector, higher priority first, no priority last") {
        tsc_add_pods(b,
                     {{.node = "n1", .constraints = {tsc_zone(1)}, .priority = 3},
                      {.node = "n1", .constraints = {tsc_zone(1)}},
                      {.node = "n1", .constraints = {tsc_zone(1)}, .priority = 1},
                      {.node = "n1", .constraints = {tsc_zone(1)}, .priority = 2},
                      {.node = "n1", .constraints = {tsc_zone(1)}, .node_selector = {{"zone", "zoneA"}}, .priority = 9},
                      {.node = "n1", .constraints = {tsc_zone(1)}, .priority = 0}});
        // [6,0] gives three: from the back of [pod-4 | pod-1, pod-5(0), pod-2(1), pod-3(2), pod-0(3)].
        CHECK(tsc_run(p, b, R"({"topologyBalanceNodeFit": false})") == tsc_pods({2, 3, 0}));
    }
    SECTION("pods that fit a node below the average leave before those that do not, whatever their priority") {
        tsc_add_pods(b, {{.node = "n1", .constraints = {tsc_zone(1)}, .priority = 1},
                         {.node = "n1", .constraints = {tsc_zone(1)}, .priority = 7},
                         {.node = "n1", .constraints = {tsc_zone(1)}, .priority = 5}});
        b.pod("ns1", "pod-9")
            .on("n1")
            .owner("ReplicaSet", "rs", false)
            .label("foo", "bar")
            .request("cpu", "3")
            .with_priority(100);
        // [4,0]: pod-9, the highest priority, cannot fit n2 (2 CPUs); the two highest that can go.
        CHECK(tsc_run(p, b, R"({"topologyBalanceNodeFit": false})") == tsc_pods({2, 1}));
    }
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: a full node of the smaller domain is no target",
          "[topologyspread][nodefit]") {
    SnapshotBuilder b;
    tsc_node(b, "n1", {{"zone", "zoneA"}});
    SECTION("no free pod slot") {
        tsc_node(b, "n2", {{"zone", "zoneB"}}, 2000, 3000, 1);
        b.pod("ns1", "other").on("n2").owner("ReplicaSet", "rs", false);
        tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {tsc_zone(1)}}});
        Profile p;
        CHECK(tsc_run(p, b).empty());
    }
    SECTION("a free pod slot") {
        tsc_node(b, "n2", {{"zone", "zoneB"}}, 2000, 3000, 2);
        b.pod("ns1", "other").on("n2").owner("ReplicaSet", "rs", false);
        tsc_add_pods(b, {{.count = 2, .node = "n1", .constraints = {tsc_zone(1)}}});
        Profile p;
        CHECK(tsc_run(p, b) == tsc_pods({1}));
    }
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: eviction limits", "[topologyspread][limits]") {
    // In each of ns1 and ns2: [4,4,0] over zones A, B, C chooses, in order, pod-6 and pod-7 (zoneB,
    // n2), then pod-3 (zoneA, n1).
    SnapshotBuilder b;
    tsc_zone_nodes(b, 3);
    for (const char* ns : {"ns1", "ns2"})
        for (int i = 0; i < 8; ++i)
            b.pod(ns, "pod-" + std::to_string(i))
                .on(i < 4 ? "n1" : "n2")
                .owner("ReplicaSet", "rs", false)
                .label("foo", "bar")
                .spread(tsc_zone(1));
    Profile p;
    SECTION("none") {
        CHECK(tsc_run(p, b) == Pods{"ns1/pod-6", "ns1/pod-7", "ns1/pod-3", "ns2/pod-6", "ns2/pod-7", "ns2/pod-3"});
    }
    SECTION("a node's limit: its remaining pods are not asked for") {
        p.host.limits.per_node = 1;
        CHECK(tsc_run(p, b) == Pods{"ns1/pod-6", "ns1/pod-3"});
        // ns1/pod-7 hits n2's limit, ns2/pod-3 n1's; ns2's n2 pods are passed over.
        CHECK(p.requests() == 4);
    }
    SECTION("a namespace's limit: every other pod is asked for") {
        p.host.limits.per_namespace = 1;
        CHECK(tsc_run(p, b) == Pods{"ns1/pod-6", "ns2/pod-6"});
        CHECK(p.requests() == 6);
    }
    SECTION("the total limit ends the cycle") {
        p.host.limits.total = 2;
        CHECK(tsc_run(p, b) == Pods{"ns1/pod-6", "ns1/pod-7"});
        CHECK(p.requests() == 3);
    }
    SECTION("the evictor's PreEvictionFilter passes a pod over") {
        p.host.on_pre_eviction_filter = [](const kd::Pod& pod) {
            return pod.name() == "pod-6" ? kd::Verdict::reject("NodeFit") : kd::Verdict::allow();
        };
        CHECK(tsc_run(p, b) == Pods{"ns1/pod-7", "ns1/pod-3", "ns2/pod-7", "ns2/pod-3"});
    }
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: args errors, all at once", "[topologyspread][args]") {
    CHECK(tsc_error(R"({"constraints": ["foo", "DoNotSchedule", "scheduleAnyway"]})") ==
          "constraints[0]: constraint foo is not one of map[DoNotSchedule:{} ScheduleAnyway:{}]\n"
          "constraints[2]: constraint scheduleAnyway is not one of map[DoNotSchedule:{} ScheduleAnyway:{}]");
    CHECK(tsc_error(R"({"constraints": ["foo"], "namespaces": {"include": ["a"], "exclude": ["b"]}})") ==
          "constraints[0]: constraint foo is not one of map[DoNotSchedule:{} ScheduleAnyway:{}]\n"
          "namespaces: only one of Include/Exclude namespaces can be set");
    CHECK(tsc_error(R"({"topologyBalanceNodeFit": "yes"})") ==
          "topologyBalanceNodeFit: must be true or false, got a string");
    CHECK(tsc_error(R"({"maxSkew": 1})") ==
          "maxSkew: unknown field (known fields: namespaces, labelSelector, constraints, topologyBalanceNodeFit)");
    CHECK(tsc_error(R"({"topologyBalanceNodeFit": null, "constraints": null})") == "");
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint: the evictor is asked only about pods that matter",
          "[topologyspread][filter]") {
    SnapshotBuilder b;
    tsc_zone_nodes(b, 2);
    tsc_add_pods(b,
                 {{.count = 2, .node = "n1", .constraints = {tsc_zone(1)}}, {.node = "n2", .labels = {{"app", "x"}}}});
    b.pod("kube-system", "proxy").on("n1").owner("DaemonSet", "kube-proxy", true);
    Profile p;
    std::vector<std::string> asked;
    p.host.on_filter = [&](const kd::Pod& pod) {
        asked.push_back(pod.key());
        return pod.name() == "pod-0" ? kd::Verdict::reject("Kept") : kd::Verdict::allow();
    };
    // pod-0, refused, neither declares nor counts: pod-1 alone in zoneA is balanced.
    CHECK(tsc_run(p, b).empty());
    CHECK(asked == std::vector<std::string>{"ns1/pod-0", "ns1/pod-1"});
}
