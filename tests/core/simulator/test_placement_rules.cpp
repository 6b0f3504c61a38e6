// The simulated scheduler's rules beyond resources (simulator/placement_rules.hpp): an evicted
// pod's replacement honours required pod affinity and anti-affinity (its own and the existing
// pods'), DoNotSchedule topology spread, and prefers what its preferred terms ask for.
#include "cluster/cluster_model.hpp"
#include "cluster/decode/api_objects.hpp"
#include "simulator/cluster_actors.hpp"
#include "simulator/placement_rules.hpp"

#include <kdesched/view.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace kd::core;

namespace {

std::string rules_node(const std::string& name, const std::string& zone, const std::string& extra_labels = "") {
    return R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + name + R"(","uid":"uid-)" + name +
           R"(","labels":{"kubernetes.io/hostname":")" + name + R"(","zone":")" + zone + "\"" + extra_labels +
           R"(}},"status":{"allocatable":{"cpu":"10","memory":"64Gi","pods":"110"},"conditions":[{"type":"Ready","status":"True"}]}})";
}

// A ReplicaSet's pod (so its eviction is replaced), `cpu` requested, `spec` joined into its spec.
std::string rules_pod(const std::string& name, const std::string& node, const std::string& app, const std::string& cpu,
                      const std::string& spec = "") {
    return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name + R"(","namespace":"shop","uid":"uid-)" +
           name + R"(","labels":{"app":")" + app +
           R"("},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs-)" + app +
           R"(","uid":"rs-)" + app + R"(","controller":true}]},"spec":{"nodeName":")" + node + "\"" + spec +
           R"(,"containers":[{"name":"c","resources":{"requests":{"cpu":")" + cpu +
           R"("}}}]},"status":{"phase":"Running"}})";
}

void rules_load(ClusterModel& m, const std::vector<std::string>& objects) {
    for (std::string text : objects) REQUIRE_FALSE(decode_api_objects(text.data(), text.size(), "test", "", "", m));
}

// Evicts the pod and returns the node its replacement went to ("" when none fits).
std::string rules_replace(ClusterModel& m, const std::string& name, const std::string& from) {
    ClusterActors actors(m);
    auto moves = actors.apply({{"uid-" + name, "shop/" + name, from, "", ""}}, 1);
    REQUIRE(moves.size() == 1);
    return moves[0].to;
}

const std::string kAntiWeb =
    R"(,"affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchLabels":{"app":"web"}},"topologyKey":"kubernetes.io/hostname"}]}})";

}  // namespace

TEST_CASE("a replacement keeps its required anti-affinity: not beside a pod it repels", "[actors][placement]") {
    // n1 is the least allocated node, but web-a there repels web; n3 is less busy than n2.
    ClusterModel m;
    rules_load(m, {rules_node("n1", "a"), rules_node("n2", "a"), rules_node("n3", "b"),
                   rules_pod("web-a", "n1", "web", "1", kAntiWeb), rules_pod("web-b", "n2", "web", "1", kAntiWeb),
                   rules_pod("big-2", "n2", "batch", "6"), rules_pod("big-3", "n3", "batch", "5")});
    CHECK(rules_replace(m, "web-b", "n2") == "n3");
}

TEST_CASE("a replacement respects the existing pods' anti-affinity toward it", "[actors][placement]") {
    // db on n1 repels app=web; web-b has no terms of its own.
    const std::string anti =
        R"(,"affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchExpressions":[{"key":"app","operator":"In","values":["web"]}]},"topologyKey":"zone"}]}})";
    ClusterModel m;
    rules_load(
        m, {rules_node("n1", "a"), rules_node("n2", "a"), rules_node("n3", "b"), rules_pod("db", "n1", "db", "1", anti),
            rules_pod("web-b", "n3", "web", "1"), rules_pod("big-3", "n3", "batch", "6")});
    // Zone a holds db: n1 and n2 are out, though both are less busy than n3.
    CHECK(rules_replace(m, "web-b", "n3") == "n3");
}

TEST_CASE("a replacement goes where its required pod affinity finds its peers", "[actors][placement]") {
    const std::string with_cache =
        R"(,"affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchLabels":{"app":"cache"}},"topologyKey":"zone"}]}})";
    ClusterModel m;
    rules_load(
        m, {rules_node("n1", "a"), rules_node("n2", "b"), rules_node("n3", "b"), rules_pod("cache", "n3", "cache", "8"),
            rules_pod("web", "n1", "web", "1", with_cache), rules_pod("big-2", "n2", "batch", "3")});
    CHECK(rules_replace(m, "web", "n1") == "n2");  // zone b, and n2 is less busy than n3
}

TEST_CASE("a replacement keeps a DoNotSchedule spread within maxSkew", "[actors][placement]") {
    const std::string spread =
        R"(,"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"web"}}}])";
    ClusterModel m;
    rules_load(m, {rules_node("n1", "a"), rules_node("n2", "a"), rules_node("n3", "b"),
                   rules_pod("web-1", "n1", "web", "1", spread), rules_pod("web-2", "n2", "web", "1", spread),
                   rules_pod("big-3", "n3", "batch", "6")});
    // Without web-1, zone a has 1 and zone b 0: a second pod in zone a would make the skew 2.
    CHECK(rules_replace(m, "web-1", "n1") == "n3");
}

TEST_CASE("preferred node affinity outweighs a less allocated node", "[actors][placement]") {
    const std::string prefer =
        R"(,"affinity":{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":50,"preference":{"matchExpressions":[{"key":"disk","operator":"In","values":["ssd"]}]}}]}})";
    ClusterModel m;
    rules_load(m, {rules_node("n1", "a"), rules_node("n2", "a", R"(,"disk":"ssd")"),
                   rules_pod("web", "n1", "web", "1", prefer), rules_pod("big-2", "n2", "batch", "6")});
    CHECK(rules_replace(m, "web", "n1") == "n2");
}

TEST_CASE("placement rules name the reason a node is refused, in kube-scheduler's words", "[placement]") {
    const std::string both =
        R"(,"affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchLabels":{"app":"web"}},"topologyKey":"zone"}]}},"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"rack","whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"web"}}}])";
    ClusterModel m;
    rules_load(m, {rules_node("n1", "a", R"(,"rack":"r1")"), rules_node("n2", "b"),
                   rules_pod("web-1", "n1", "web", "1"), rules_pod("new", "", "web", "1", both)});
    const kd_pod* p = m.pod_by_name("shop", "new");
    REQUIRE(p);
    auto nodes = m.nodes();
    PlacementRules rules(m, nodes, kd::Pod(p), false);
    CHECK(rules.filter(kd::Node(m.node_by_name("n2"))) ==
          "node(s) didn't match pod topology spread constraints (missing required label)");
    CHECK(rules.filter(kd::Node(m.node_by_name("n1"))) == "node(s) didn't match pod anti-affinity rules");
    CHECK_FALSE(rules.has_preferences());
}
