// The eviction phase (koord's `balancePods`/`evictPods`): capacity accounting, fitCheck and its
// tentative reservation, the continue condition, reasons, plugin and framework dry run, filters
// and eviction limits.
#include "capacity.hpp"
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace lnl_test;
using namespace kd::plugins::lownodeload;

namespace {

// n1: `hot` pods of 1 cpu on 10 cpu (over high 70 % when hot > 7), n2: one pod (10 %, low).
Cluster standard(int hot = 8) {
    Cluster c;
    c.node("n1");
    c.pods("n1", "hot-", hot, "1");
    c.node("n2");
    c.pods("n2", "cold-", 1, "1");
    return c;
}

std::vector<std::string> reasons(const FakeHost& host) {
    std::vector<std::string> out;
    for (const auto& e : host.evictions()) out.push_back(e.reason);
    return out;
}

}  // namespace

TEST_CASE("capacity: available usage and the prod budget after the node phase", "[capacity]") {
    ResourceSlots slots;
    slots.names = {"cpu", "pods"};
    slots.thresholds = 1;
    slots.pods = 1;
    PoolState st;
    st.reset(2);
    auto add = [&](int64_t used, int64_t high, int64_t prod_used, int64_t prod_high) {
        size_t i = st.add_node(nullptr, nullptr);
        st.vec(i, PoolState::kUsage)[0] = used;
        st.vec(i, PoolState::kHigh)[0] = high;
        st.vec(i, PoolState::kProdUsage)[0] = prod_used;
        st.vec(i, PoolState::kProdHigh)[0] = prod_high;
        return static_cast<uint32_t>(i);
    };
    uint32_t a = add(1000, 7000, 500, 5000), b = add(8000, 7000, 0, 5000);
    CHECK(available_usage(st, {a, b}, false, 1) == std::vector<int64_t>{6000 - 1000});  // may include negatives
    CHECK(available_usage(st, {a}, true, 1) == std::vector<int64_t>{4500});

    Budgets left{{1000}, {5000}, {200}, {3000}};  // the node phase left 1000 of 5000 shared
    CHECK(prod_total_after_node_phase(left) == std::vector<int64_t>{200 + 1000});
    Budgets plenty{{9000}, {5000}, {0}, {3000}};
    CHECK(prod_total_after_node_phase(plenty) == std::vector<int64_t>{3000});
}

TEST_CASE("capacity: target index finds the first target with room, in order", "[capacity]") {
    ResourceSlots slots;
    PoolState st;
    st.reset(2);
    std::vector<uint32_t> targets;
    // 70 targets (3 blocks): headroom 1000 except target 5 (5000) and target 66 (9000).
    for (int t = 0; t < 70; ++t) {
        size_t i = st.add_node(nullptr, nullptr);
        st.vec(i, PoolState::kHigh)[0] = t == 5 ? 5000 : t == 66 ? 9000 : 1000;
        st.vec(i, PoolState::kHigh)[1] = 1000;
        targets.push_back(static_cast<uint32_t>(i));
    }
    TargetIndex index;
    index.build(st, targets, false, 2);
    const int64_t small[] = {500, 0}, big[] = {3000, 0}, huge[] = {6000, 0}, too_much[] = {9001, 0};
    CHECK(index.next_fit(0, small) == 0);
    CHECK(index.next_fit(0, big) == 5);
    CHECK(index.next_fit(6, big) == 66);
    CHECK(index.next_fit(0, huge) == 66);
    CHECK(index.next_fit(0, too_much) == 70);
    index.reserve(5, big);  // 2000 left
    CHECK(index.next_fit(0, big) == 66);
    CHECK(index.headroom(5)[0] == 2000);
    const int64_t other[] = {0, 1001};  // second resource: nobody has room
    CHECK(index.next_fit(0, other) == 70);
}

TEST_CASE("capacity: target index skips whole groups of full targets and sees a group's room change", "[capacity]") {
    PoolState st;
    st.reset(1);
    std::vector<uint32_t> targets;
    // 2,500 targets (three groups of 1,024): room 100 everywhere but targets 1,500 and 2,400.
    for (int t = 0; t < 2500; ++t) {
        size_t i = st.add_node(nullptr, nullptr);
        st.vec(i, PoolState::kHigh)[0] = t == 1500 ? 5000 : t == 2400 ? 3000 : 100;
        targets.push_back(static_cast<uint32_t>(i));
    }
    TargetIndex index;
    index.build(st, targets, false, 1);
    const int64_t some[] = {50}, big[] = {2500}, bigger[] = {4000};
    CHECK(index.next_fit(0, some) == 0);
    CHECK(index.next_fit(0, big) == 1500);
    CHECK(index.next_fit(1501, big) == 2400);
    CHECK(index.next_fit(0, bigger) == 1500);
    index.reserve(1500, big);  // 2500 left there: the group's maximum follows
    CHECK(index.next_fit(0, bigger) == 2500);
    CHECK(index.next_fit(0, big) == 1500);
    index.reserve(1500, big);  // 0 left
    CHECK(index.next_fit(0, big) == 2400);
    const int64_t refund[] = {-4500};  // a negative usage gives room back, past the old maximum
    index.reserve(7, refund);
    CHECK(index.next_fit(0, bigger) == 7);
}

TEST_CASE("eviction: one pod from the overloaded node, with the exact reason", "[eviction]") {
    Cluster c = standard();
    FakeHost host;
    auto plugin = host.instantiate<LowNodeLoad>(kArgs);
    plugin.balance(c.b.build());
    // 80 % → 70 %: no longer strictly over, the node stops.
    CHECK(requested(host) == std::vector<std::string>{"default/hot-1"});
    CHECK(reasons(host) == std::vector<std::string>{"node is overutilized, node cpu usage(80.00%)>threshold(70.00%)"});
    CHECK(host.evictions()[0].plugin == "LowNodeLoad");
}

TEST_CASE("eviction: reasons list every over-threshold resource", "[eviction]") {
    Cluster c;
    c.node("n1", "3");
    for (int i = 1; i <= 5; ++i) c.pod("n1", "hot-" + std::to_string(i), "500m", "15Gi");  // 2.5 of 3 cpu, 75Gi
    c.node("n2");
    c.pods("n2", "cold-", 1, "1");
    FakeHost host;
    auto plugin = host.instantiate<LowNodeLoad>(
        R"({"lowThresholds": {"cpu": 30, "memory": 30}, "highThresholds": {"cpu": 70.5, "memory": 70},
            "anomalyCondition": {"consecutiveAbnormalities": 1}})");
    plugin.balance(c.b.build());
    // One pod brings cpu to 66.67 % and memory to 60 %: nothing is over any more.
    CHECK(reasons(host) == std::vector<std::string>{"node is overutilized, node cpu usage(83.33%)>threshold(70.50%), "
                                                    "node memory usage(75.00%)>threshold(70.00%)"});
}

TEST_CASE("eviction: the reason follows the usage left after earlier evictions", "[eviction]") {
    Cluster c = standard(10);
    FakeHost host;
    auto plugin = host.instantiate<LowNodeLoad>(kArgs);
    plugin.balance(c.b.build());
    CHECK(reasons(host) == std::vector<std::string>{"node is overutilized, node cpu usage(100.00%)>threshold(70.00%)",
                                                    "node is overutilized, node cpu usage(90.00%)>threshold(70.00%)",
                                                    "node is overutilized, node cpu usage(80.00%)>threshold(70.00%)"});
}

TEST_CASE("eviction: the prod phase evicts prod pods towards prod targets", "[eviction]") {
    Cluster c = standard();
    c.pod("n1", "be-1", "10m").with_qos(KD_QOS_BEST_EFFORT);  // batch: not a prod candidate
    FakeHost host;
    auto plugin = host.instantiate<LowNodeLoad>(
        R"({"lowThresholds": {"cpu": 30}, "highThresholds": {"cpu": 90},
            "prodLowThresholds": {"cpu": 20}, "prodHighThresholds": {"cpu": 50},
            "anomalyCondition": {"consecutiveAbnormalities": 1}})");
    plugin.balance(c.b.build());
    // n1: 80.1 % (not over 90 %) but prod 80 % > 50 %. n2 (prod 10 %) takes up to 4 cpu of prod.
    CHECK(requested(host) == std::vector<std::string>{"default/hot-1", "default/hot-2", "default/hot-3"});
    CHECK(reasons(host) == std::vector<std::string>{"node is overutilized, prod cpu usage(80.00%)>threshold(50.00%)",
                                                    "node is overutilized, prod cpu usage(70.00%)>threshold(50.00%)",
                                                    "node is overutilized, prod cpu usage(60.00%)>threshold(50.00%)"});
}

TEST_CASE("eviction: capacity of the targets runs out", "[eviction]") {
    // high 35 %: n2 (10 %) has 2.5 cpu of room; n1 (90 %) would need 6 pods to get down.
    Cluster c = standard(9);
    const std::string args = R"({"lowThresholds": {"cpu": 30}, "highThresholds": {"cpu": 35},
        "anomalyCondition": {"consecutiveAbnormalities": 1}, "nodeFit": )";
    SECTION("nodeFit false: evict until the total available drops to 0 or below") {
        FakeHost host;
        auto plugin = host.instantiate<LowNodeLoad>(args + "false}");
        plugin.balance(c.b.build());
        // 2.5 → 1.5 → 0.5 → -0.5: the third eviction goes through, then the budget stops it.
        CHECK(requested(host) == std::vector<std::string>{"default/hot-1", "default/hot-2", "default/hot-3"});
    }
    SECTION("nodeFit true: only pods that fit under the target's high threshold") {
        FakeHost host;
        auto plugin = host.instantiate<LowNodeLoad>(args + "true}");
        plugin.balance(c.b.build());
        CHECK(requested(host) == std::vector<std::string>{"default/hot-1", "default/hot-2"});
    }
}

TEST_CASE("eviction: fitCheck reserves room even for pods that are not evicted [quirk]", "[eviction]") {
    // n2 (10 %, high 60 %) has 5 cpu of room; n1 has four 2-cpu pods (80 %); every eviction fails.
    Cluster c;
    c.node("n1");
    for (int i = 1; i <= 4; ++i) c.pod("n1", "hot-" + std::to_string(i), "2");
    c.node("n2");
    c.pods("n2", "cold-", 1, "1");
    const std::string args = R"({"lowThresholds": {"cpu": 30}, "highThresholds": {"cpu": 60},
        "anomalyCondition": {"consecutiveAbnormalities": 1}, "nodeFit": )";
    SECTION("nodeFit true: the first two pods take the room, the others are never candidates") {
        FakeHost host;
        host.on_evict = [](const kd::Pod&) { return kd::EvictOutcome::failed("refused"); };
        auto plugin = host.instantiate<LowNodeLoad>(args + "true}");
        plugin.balance(c.b.build());
        CHECK(requested(host) == std::vector<std::string>{"default/hot-1", "default/hot-2"});
    }
    SECTION("nodeFit false: every pod is tried") {
        FakeHost host;
        host.on_evict = [](const kd::Pod&) { return kd::EvictOutcome::failed("refused"); };
        auto plugin = host.instantiate<LowNodeLoad>(args + "false}");
        plugin.balance(c.b.build());
        CHECK(requested(host) ==
              std::vector<std::string>{"default/hot-1", "default/hot-2", "default/hot-3", "default/hot-4"});
    }
}

TEST_CASE("eviction: NodeFit skips targets the pod cannot go to", "[eviction]") {
    // t1 (empty, 6 cpu of room) comes first but may be tainted; t2 has 3.5 cpu of room.
    auto run = [](bool taint, bool tolerate) {
        Cluster c;
        c.node("src", "20");
        c.metric("src").system_usage("cpu", "9");
        for (int i = 1; i <= 6; ++i) {
            auto& p = c.pod("src", "p" + std::to_string(i), "1");
            if (tolerate) p.tolerate("dedicated", "Exists", "", "NoSchedule");
        }
        auto& t1 = c.node("t1");
        if (taint) t1.taint("dedicated", "x", "NoSchedule");
        c.node("t2");
        c.metric("t2").system_usage("cpu", "2500m");
        FakeHost host;
        host.on_evict = [](const kd::Pod&) { return kd::EvictOutcome::failed("refused"); };
        auto plugin = host.instantiate<LowNodeLoad>(R"({"lowThresholds": {"cpu": 30}, "highThresholds": {"cpu": 60},
            "anomalyCondition": {"consecutiveAbnormalities": 1}})");
        plugin.balance(c.b.build());
        return requested(host).size();
    };
    CHECK(run(false, false) == 6);
    CHECK(run(true, false) == 3);  // only t2's room counts
    CHECK(run(true, true) == 6);
}

TEST_CASE("eviction: pods without a PodMetric", "[eviction]") {
    SECTION("nodeFit true: never a candidate") {
        Cluster c = standard(7);
        c.metric("n1").system_usage("cpu", "2");  // 90 %
        c.b.pod("default", "no-metric").on("n1").owner("ReplicaSet", "x").created(c.b.now_ms());
        FakeHost host;
        auto plugin = host.instantiate<LowNodeLoad>(kArgs);
        plugin.balance(c.b.build());
        CHECK(requested(host) == std::vector<std::string>{"default/hot-1", "default/hot-2"});
    }
    SECTION("nodeFit false: a candidate after the pods with a metric, evicted without accounting") {
        Cluster c;
        c.node("n1");
        c.metric("n1").system_usage("cpu", "3");  // stays over 20 % whatever is evicted
        c.pods("n1", "hot-", 7, "1");
        // The newest pod, but without a metric it sorts after every pod that has one.
        c.b.pod("default", "no-metric").on("n1").owner("ReplicaSet", "x").created(c.b.now_ms());
        c.node("n2", "100");
        c.pods("n2", "cold-", 1, "1");
        FakeHost host;
        auto plugin = host.instantiate<LowNodeLoad>(R"({"lowThresholds": {"cpu": 10}, "highThresholds": {"cpu": 20},
            "nodeFit": false, "anomalyCondition": {"consecutiveAbnormalities": 1}})");
        plugin.balance(c.b.build());
        auto got = requested(host);
        REQUIRE(got.size() == 8);
        CHECK(got.back() == "default/no-metric");
    }
}

TEST_CASE("eviction: plugin dryRun logs instead of evicting, and still accounts", "[eviction]") {
    Cluster c = standard(9);  // 90 %: two pods bring it to 70 %
    FakeHost host;
    auto plugin = host.instantiate<LowNodeLoad>(
        R"({"dryRun": true, "lowThresholds": {"cpu": 30}, "highThresholds": {"cpu": 70},
            "anomalyCondition": {"consecutiveAbnormalities": 1}})");
    plugin.balance(c.b.build());
    CHECK(host.evictions().empty());
    CHECK(logs_with(host, "Evict pod in dry run mode") ==
          std::vector<std::string>{
              R"(Evict pod in dry run mode pod="default/hot-1" node="n1" nodePool="__default_node_pool__")",
              R"(Evict pod in dry run mode pod="default/hot-2" node="n1" nodePool="__default_node_pool__")"});
}

TEST_CASE("eviction: framework dry run goes through the Evictor and counts as evicted", "[eviction]") {
    Cluster c = standard(9);
    FakeHost host;
    host.dry_run = true;
    auto plugin = host.instantiate<LowNodeLoad>(kArgs);
    plugin.balance(c.b.build());
    CHECK(requested(host) == std::vector<std::string>{"default/hot-1", "default/hot-2"});
    CHECK(host.evictions()[0].outcome.code == KD_EVICT_DRY_RUN);
}

TEST_CASE("eviction: filtered and failed pods are skipped without accounting", "[eviction]") {
    Cluster c = standard(9);
    FakeHost host;
    host.on_filter = [](const kd::Pod& p) {
        return p.name() == "hot-1" ? kd::Verdict::reject("DaemonSetPod") : kd::Verdict::allow();
    };
    host.on_evict = [](const kd::Pod& p) {
        return p.name() == "hot-2" ? kd::EvictOutcome::failed("PDB") : kd::EvictOutcome::accepted();
    };
    auto plugin = host.instantiate<LowNodeLoad>(kArgs);
    plugin.balance(c.b.build());
    // hot-1 is never asked for; hot-2 fails (no accounting), hot-3 and hot-4 bring 90 % to 70 %.
    CHECK(requested(host) == std::vector<std::string>{"default/hot-2", "default/hot-3", "default/hot-4"});
    CHECK(host.evicted() == std::vector<std::string>{"default/hot-3", "default/hot-4"});
}

TEST_CASE("eviction: the filter is asked again right before evicting", "[eviction]") {
    Cluster c = standard(9);
    FakeHost host;
    int calls = 0;
    host.on_filter = [&](const kd::Pod& p) {
        // Candidate selection asks first (9 pods), then the eviction loop asks again.
        ++calls;
        return p.name() == "hot-1" && calls > 9 ? kd::Verdict::reject("changed") : kd::Verdict::allow();
    };
    auto plugin = host.instantiate<LowNodeLoad>(kArgs);
    plugin.balance(c.b.build());
    CHECK(requested(host) == std::vector<std::string>{"default/hot-2", "default/hot-3"});
}

TEST_CASE("eviction: limit-reached outcomes stop the requests they rule out", "[eviction]") {
    // Sources n1 (90 %) then n4 (85 %); targets n2 and n5 with 6 cpu of room each.
    auto cluster = [] {
        Cluster c;
        c.node("n1");
        c.pods("n1", "a-", 9, "1");
        c.node("n2");
        c.pods("n2", "b-", 1, "1");
        c.node("n4");
        c.pods("n4", "d-", 8, "1");
        c.metric("n4").system_usage("cpu", "500m");
        c.node("n5");
        c.pods("n5", "e-", 1, "1");
        return c;
    };
    SECTION("no limit") {
        Cluster c = cluster();
        FakeHost host;
        auto plugin = host.instantiate<LowNodeLoad>(kArgs);
        plugin.balance(c.b.build());
        CHECK(requested(host) == std::vector<std::string>{"default/a-1", "default/a-2", "default/d-1", "default/d-2"});
    }
    SECTION("total: nothing more is asked in this Balance") {
        Cluster c = cluster();
        FakeHost host;
        host.limits.total = 0;
        auto plugin = host.instantiate<LowNodeLoad>(kArgs);
        plugin.balance(c.b.build());
        CHECK(requested(host) == std::vector<std::string>{"default/a-1"});
        // The next cycle starts with fresh limits.
        plugin.balance(c.b.build());
        CHECK(requested(host) == std::vector<std::string>{"default/a-1", "default/a-1"});
    }
    SECTION("node: the rest of that node is skipped, other nodes go on") {
        Cluster c = cluster();
        FakeHost host;
        host.on_limits = [](const kd::Pod& p) {
            return p.node_name() == "n1" ? KD_EVICT_LIMIT_NODE : KD_EVICT_ACCEPTED;
        };
        auto plugin = host.instantiate<LowNodeLoad>(kArgs);
        plugin.balance(c.b.build());
        CHECK(requested(host) == std::vector<std::string>{"default/a-1", "default/d-1", "default/d-2"});
    }
    SECTION("namespace: later pods of that namespace are skipped") {
        Cluster c;
        c.node("n1");
        c.metric("n1").system_usage("cpu", "5");
        c.pod("n1", "p1", "1", "1Gi", "a");
        c.pod("n1", "p2", "1", "1Gi", "a");
        c.pod("n1", "p3", "1", "1Gi", "b");
        c.pod("n1", "p4", "1", "1Gi", "b");
        c.node("n2");
        FakeHost host;
        host.on_limits = [](const kd::Pod& p) { return p.ns() == "a" ? KD_EVICT_LIMIT_NAMESPACE : KD_EVICT_ACCEPTED; };
        auto plugin = host.instantiate<LowNodeLoad>(kArgs);
        plugin.balance(c.b.build());
        CHECK(requested(host) == std::vector<std::string>{"a/p1", "b/p3", "b/p4"});
    }
}
