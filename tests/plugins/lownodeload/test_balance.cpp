// Balance end to end (koord's `processOneNodePool` per pool): pools and their selectors,
// numberOfNodes, paused, namespaces, podSelectors, metric expiration, raw allocatable, deviation
// mode, logs.
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace lnl_test;

namespace {

// n1: 80 % (high), n2: 10 % (both low), n3: 50 % (prod low with the default prod thresholds).
Cluster three_nodes() {
    Cluster c;
    c.node("n1");
    c.pods("n1", "hot-", 8, "1");
    c.node("n2");
    c.pods("n2", "cold-", 1, "1");
    c.node("n3");
    c.pods("n3", "mid-", 5, "1");
    return c;
}

std::vector<std::string> balance_once(Cluster& c, const std::string& args) {
    FakeHost host;
    auto plugin = host.instantiate<LowNodeLoad>(args);
    plugin.balance(c.b.build());
    return requested(host);
}

std::string with(const std::string& extra) {
    return R"({"lowThresholds": {"cpu": 30, "memory": 30}, "highThresholds": {"cpu": 70, "memory": 70},
               "anomalyCondition": {"consecutiveAbnormalities": 1}, )" +
           extra + "}";
}

}  // namespace

TEST_CASE("balance: the criteria line per pool", "[balance]") {
    Cluster c = three_nodes();
    FakeHost host;
    auto plugin = host.instantiate<LowNodeLoad>(kArgs);
    plugin.balance(c.b.build());
    CHECK(logs_with(host, "Criteria") ==
          std::vector<std::string>{
              "Criteria for nodes under low thresholds and above high thresholds nodePool=\"__default_node_pool__\" "
              "nodesUnderUtilization=0 nodesAboveTargetUtilization=1 prodUnderUtilization=1 "
              "prodAboveTargetUtilization=0 bothUnderUtilization=1 nodesAppropriatelyUtilized=0 nodesWithoutUsage=0 "
              "useDeviationThresholds=false cpu=\"30%(lowNode)-70%(highNode),100%(prodLow)-100%(prodHigh)\" "
              "memory=\"30%(lowNode)-70%(highNode),100%(prodLow)-100%(prodHigh)\""});
}

TEST_CASE("balance: numberOfNodes", "[balance]") {
    // Under-used nodes: n2 (both low) and n3 (prod low) → 2.
    Cluster c = three_nodes();
    CHECK(balance_once(c, with(R"("numberOfNodes": 2)")).empty());
    CHECK(balance_once(c, with(R"("numberOfNodes": 1)")) == std::vector<std::string>{"default/hot-1"});
}

TEST_CASE("balance: nothing to do when every node is under-used or nobody is over", "[balance]") {
    Cluster c;
    c.node("n1");
    c.pods("n1", "a-", 2, "1");
    c.node("n2");
    c.pods("n2", "b-", 1, "1");
    FakeHost host;
    auto plugin = host.instantiate<LowNodeLoad>(
        R"({"lowThresholds": {"cpu": 30, "memory": 30}, "highThresholds": {"cpu": 70, "memory": 70}})");
    plugin.balance(c.b.build());
    CHECK(host.evictions().empty());
    CHECK(logs_with(host, "All nodes are under target utilization").size() == 1);
}

TEST_CASE("balance: paused does nothing", "[balance]") {
    Cluster c = three_nodes();
    FakeHost host;
    auto plugin = host.instantiate<LowNodeLoad>(with(R"("paused": true)"));
    plugin.balance(c.b.build());
    CHECK(host.evictions().empty());
    CHECK(host.logs() == std::vector<std::string>{"LowNodeLoad is paused and will do nothing."});
}

TEST_CASE("balance: evictableNamespaces limit the candidates, not the usage", "[balance]") {
    Cluster c;
    c.node("n1");
    c.pods("n1", "sys-", 4, "1", "kube-system");
    c.pods("n1", "app-", 4, "1");
    c.node("n2");
    SECTION("exclude") {
        CHECK(balance_once(c, with(R"("evictableNamespaces": {"exclude": ["kube-system"]})")) ==
              std::vector<std::string>{"default/app-1"});
    }
    SECTION("include") {
        CHECK(balance_once(c, with(R"("evictableNamespaces": {"include": ["kube-system"]})")) ==
              std::vector<std::string>{"kube-system/sys-1"});
    }
    SECTION("none excluded: the first pod in order") {
        CHECK(balance_once(c, kArgs) == std::vector<std::string>{"kube-system/sys-1"});
    }
}

TEST_CASE("balance: podSelectors", "[balance]") {
    Cluster c;
    c.node("n1");
    for (int i = 1; i <= 4; ++i) c.pod("n1", "web-" + std::to_string(i), "1").label("app", "web");
    for (int i = 1; i <= 4; ++i) c.pod("n1", "db-" + std::to_string(i), "1").label("app", "db");
    c.node("n2");
    SECTION("any selector matches") {
        CHECK(balance_once(c, with(R"("podSelectors": [{"name": "x", "selector": {"matchLabels": {"app": "cache"}}},
                                                       {"name": "y", "selector": {"matchLabels": {"app": "db"}}}])")) ==
              std::vector<std::string>{"default/db-1"});
    }
    SECTION("none matches") {
        CHECK(balance_once(c, with(R"("podSelectors": [{"name": "x", "selector": {"matchLabels": {"app": "cache"}}}])"))
                  .empty());
    }
    SECTION("an entry without a selector is ignored; so every pod is a candidate") {
        CHECK(balance_once(c, with(R"("podSelectors": [{"name": "x"}])")) == std::vector<std::string>{"default/web-1"});
    }
    SECTION("an empty selector matches every pod") {
        CHECK(balance_once(c, with(R"("podSelectors": [{"name": "x", "selector": {}}])")) ==
              std::vector<std::string>{"default/web-1"});
    }
}

TEST_CASE("balance: nodeMetricExpirationSeconds", "[balance]") {
    Cluster c = three_nodes();
    c.metric("n1").updated(c.b.now_ms() - 200 * kSecond);
    CHECK(balance_once(c, kArgs).empty());  // 200 s ≥ 180 s: n1 has no usage, it is not a source
    CHECK(balance_once(c, with(R"("nodeMetricExpirationSeconds": 300)")) == std::vector<std::string>{"default/hot-1"});
}

TEST_CASE("balance: percentages use the raw allocatable", "[balance]") {
    SECTION("a larger raw allocatable: not overloaded") {
        Cluster d;
        d.node("n1").raw_allocatable("cpu", "20").raw_allocatable("memory", "100Gi");
        d.pods("n1", "hot-", 8, "1");  // 8 of 20 cpu: 40 %
        d.node("n2");
        CHECK(balance_once(d, kArgs).empty());
    }
    SECTION("a smaller raw allocatable: overloaded, and the reason says so") {
        Cluster d;
        d.node("n1").raw_allocatable("cpu", "9.5").raw_allocatable("memory", "100Gi");
        d.pods("n1", "hot-", 7, "1");  // 7 of 10 cpu is 70 %, of 9.5 it is 73.68 %
        d.node("n2");
        FakeHost host;
        auto plugin = host.instantiate<LowNodeLoad>(kArgs);
        plugin.balance(d.b.build());
        REQUIRE(host.evictions().size() == 1);
        CHECK(host.evictions()[0].reason == "node is overutilized, node cpu usage(73.68%)>threshold(70.00%)");
    }
}

TEST_CASE("balance: deviation thresholds around the pool average", "[balance]") {
    Cluster c;
    c.node("n1");
    c.pods("n1", "hot-", 9, "1");  // 90 %
    c.node("n2");
    c.pods("n2", "cold-", 1, "1");  // 10 %
    c.node("n3");
    c.pods("n3", "mid-", 5, "1");  // 50 %
    FakeHost host;
    // Average 50 %: low 30 %, high 70 %; memory has no threshold → 0 → ignored.
    auto plugin = host.instantiate<LowNodeLoad>(
        R"({"useDeviationThresholds": true, "lowThresholds": {"cpu": 20}, "highThresholds": {"cpu": 20},
            "anomalyCondition": {"consecutiveAbnormalities": 1}})");
    plugin.balance(c.b.build());
    CHECK(requested(host) == std::vector<std::string>{"default/hot-1", "default/hot-2"});
    // The reason shows the configured deviation, not the resulting absolute threshold.
    CHECK(host.evictions()[0].reason == "node is overutilized, node cpu usage(90.00%)>threshold(20.00%)");
}

TEST_CASE("balance: an unschedulable node is never a target", "[balance]") {
    Cluster c;
    c.node("n1");
    c.pods("n1", "hot-", 8, "1");
    c.node("n2").cordon();
    c.node("n3");
    c.pods("n3", "mid-", 5, "1");
    CHECK(balance_once(c, kArgs).empty());
}

TEST_CASE("balance: pools, selectors and the nodes already processed [quirk]", "[balance]") {
    Cluster c = three_nodes();
    SECTION("a pool without a selector takes the processed nodes again") {
        CHECK(balance_once(c, with(R"("nodePools": [{"name": "all"}])")) ==
              std::vector<std::string>{"default/hot-1", "default/hot-1"});
    }
    SECTION("a pool with a selector skips them") {
        CHECK(balance_once(c, with(R"("nodePools": [{"name": "sel", "nodeSelector": {}}])")) ==
              std::vector<std::string>{"default/hot-1"});
    }
    SECTION("disjoint pools, each with its own thresholds") {
        Cluster d;
        d.node("a1").label("pool", "a");
        d.pods("a1", "a1-", 8, "1");
        d.node("a2").label("pool", "a");
        d.node("b1").label("pool", "b");
        d.pods("b1", "b1-", 6, "1");  // 60 %: over only with the b pool's 50 %
        d.node("b2").label("pool", "b");
        FakeHost host;
        auto plugin = host.instantiate<LowNodeLoad>(
            R"({"nodeSelector": {"matchLabels": {"pool": "a"}},
                "lowThresholds": {"cpu": 30}, "highThresholds": {"cpu": 70},
                "anomalyCondition": {"consecutiveAbnormalities": 1},
                "nodePools": [{"name": "b", "nodeSelector": {"matchLabels": {"pool": "b"}},
                               "lowThresholds": {"cpu": 20}, "highThresholds": {"cpu": 50}}]})");
        plugin.balance(d.b.build());
        CHECK(requested(host) == std::vector<std::string>{"default/a1-1", "default/b1-1"});
        CHECK(logs_with(host, "nodePool=\"b\"").size() == 1);
    }
}

TEST_CASE("balance: the node selection of the extension point is respected", "[balance]") {
    Cluster c = three_nodes();
    c.b.select_nodes({"n2", "n3"});  // n1 is outside the profile's node selector
    CHECK(balance_once(c, kArgs).empty());
}

TEST_CASE("balance: a pods threshold counts pods and subtracts one per eviction", "[balance]") {
    Cluster c;
    c.node("n1");
    c.pods("n1", "p", 25, "10m");  // 25 of 110 pods: 22.73 % > 20 % (22 pods)
    c.node("n2");
    c.pods("n2", "q", 1, "10m");
    FakeHost host;
    auto plugin = host.instantiate<LowNodeLoad>(R"({"lowThresholds": {"pods": 10}, "highThresholds": {"pods": 20},
        "anomalyCondition": {"consecutiveAbnormalities": 1}})");
    plugin.balance(c.b.build());
    std::vector<std::string> reasons;
    for (const auto& e : host.evictions()) reasons.push_back(e.reason);
    CHECK(reasons == std::vector<std::string>{"node is overutilized, node pods usage(22.73%)>threshold(20.00%)",
                                              "node is overutilized, node pods usage(21.82%)>threshold(20.00%)",
                                              "node is overutilized, node pods usage(20.91%)>threshold(20.00%)"});
}

TEST_CASE("balance: node pool and class, and why candidates stayed, are reported to the host", "[balance]") {
    Cluster c = three_nodes();
    c.b.node("n4").allocatable("cpu", "10");  // no NodeMetric: a pool member without a class
    FakeHost host;
    auto plugin = host.instantiate<LowNodeLoad>(kArgs);
    plugin.balance(c.b.build());
    CHECK(host.reports() ==
          std::vector<std::string>{"node n1 pool=__default_node_pool__", "node n2 pool=__default_node_pool__",
                                   "node n3 pool=__default_node_pool__", "node n4 pool=__default_node_pool__",
                                   "node n1 class=high", "node n2 class=bothLow", "node n3 class=prodLow",
                                   // candidates on the source that fit no target, then those left once it was balanced
                                   "pod default/hot-7 skipped=NodeFit", "pod default/hot-8 skipped=NodeFit",
                                   "pod default/hot-2 skipped=NodeBalanced", "pod default/hot-3 skipped=NodeBalanced",
                                   "pod default/hot-4 skipped=NodeBalanced", "pod default/hot-5 skipped=NodeBalanced",
                                   "pod default/hot-6 skipped=NodeBalanced"});
}
