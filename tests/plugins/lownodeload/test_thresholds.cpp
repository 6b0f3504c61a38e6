// Thresholds (koord's `newThresholds`, absolute values), node usage and classification.
#include "classify.hpp"
#include "node_usage.hpp"
#include "pools.hpp"
#include "test_util.hpp"
#include "thresholds.hpp"

#include <catch2/catch.hpp>

#include <deque>
#include <string>
#include <vector>

using namespace lnl_test;
using namespace kd::plugins::lownodeload;

TEST_CASE("thresholds: normalisation fills missing low names and overwrites their high [quirk]", "[thresholds]") {
    auto t = normalise_thresholds(false, {{"cpu", 30}}, {{"cpu", 70}, {"memory", 80}, {"pods", 90}}, {{"cpu", 20}},
                                  {{"cpu", 50}, {"ephemeral-storage", 60}});
    // memory has no low threshold: low = high = 100, the user's 80 is lost; same for pods.
    CHECK(t.low == ResourceThresholds{{"cpu", 30}, {"memory", 100}, {"pods", 100}, {"ephemeral-storage", 100}});
    CHECK(t.high == ResourceThresholds{{"cpu", 70}, {"memory", 100}, {"pods", 100}, {"ephemeral-storage", 100}});
    // prod: independently; the prodHigh 60 of ephemeral-storage is overwritten too.
    CHECK(t.prod_low == ResourceThresholds{{"cpu", 20}, {"memory", 100}, {"pods", 100}, {"ephemeral-storage", 100}});
    CHECK(t.prod_high == ResourceThresholds{{"cpu", 50}, {"memory", 100}, {"pods", 100}, {"ephemeral-storage", 100}});
}

TEST_CASE("thresholds: deviation mode fills with 0, memory is always a name", "[thresholds]") {
    auto t = normalise_thresholds(true, {{"cpu", 10}}, {{"cpu", 10}}, {}, {});
    CHECK(t.low == ResourceThresholds{{"cpu", 10}, {"memory", 0}});
    CHECK(t.high == ResourceThresholds{{"cpu", 10}, {"memory", 0}});
    CHECK(t.prod_low == ResourceThresholds{{"cpu", 0}, {"memory", 0}});
    CHECK(t.prod_high == ResourceThresholds{{"cpu", 0}, {"memory", 0}});
}

TEST_CASE("thresholds: a low without a high reads a 0 % high (Go map zero value)", "[thresholds]") {
    auto t = normalise_thresholds(false, {{"cpu", 30}}, {}, {}, {});
    auto slots = make_slots(t);
    REQUIRE(slots.names == std::vector<std::string>{"cpu", "memory", "pods"});
    CHECK(slots.thresholds == 2);
    CHECK(slots.pods == 2);
    auto pct = slot_percents(t, slots);
    CHECK(pct.high == std::vector<double>{0, 100});
    CHECK(pct.in_high == std::vector<uint8_t>{0, 1});
    // "pods" with a threshold is a threshold slot, not an extra one.
    auto with_pods = make_slots(normalise_thresholds(false, {{"pods", 10}}, {{"pods", 20}}, {}, {}));
    CHECK(with_pods.names == std::vector<std::string>{"memory", "pods"});
    CHECK(with_pods.thresholds == 2);
    CHECK(with_pods.pods == 1);
}

TEST_CASE("thresholds: absolute values truncate like Go", "[thresholds]") {
    CHECK(absolute_threshold("cpu", 70, 4000) == 2800);
    CHECK(absolute_threshold("cpu", 33.3, 1000) == 332);  // 332.99999999999994
    // 29 * 0.01 * 100 = 28.999999999999996 in float64 → 28.
    CHECK(absolute_threshold("cpu", 29, 100) == 28);
    // memory: whole bytes (capacity rounded up), returned in milli-units.
    CHECK(absolute_threshold("memory", 70, 1073741824LL * 1000) == 751619276LL * 1000);
    CHECK(absolute_threshold("memory", 100, 1500) == 2000);  // 1.5 bytes → capacity 2
    CHECK(absolute_threshold("pods", 50, 110'000) == 55'000);
    CHECK(absolute_threshold("cpu", 0, 4000) == 0);
    CHECK(absolute_threshold("cpu", 1e300, 4000) == std::numeric_limits<int64_t>::max());  // saturates
}

namespace {

// A PoolState with hand-set vectors (no snapshot needed).
struct Fixture {
    std::deque<kd_node> nodes;
    PoolState state;
    ResourceSlots slots;
    explicit Fixture(ResourceSlots s) : slots(std::move(s)) { state.reset(slots.size()); }
    size_t add(std::vector<int64_t> usage, std::vector<int64_t> prod_usage, std::vector<int64_t> alloc,
               bool unschedulable = false) {
        kd_node& n = nodes.emplace_back();
        n.struct_size = sizeof(kd_node);
        n.unschedulable = unschedulable;
        size_t i = state.add_node(&n, nullptr);
        state.nodes[i].resolved = true;  // prod usage is given
        std::copy(usage.begin(), usage.end(), state.vec(i, PoolState::kUsage));
        std::copy(prod_usage.begin(), prod_usage.end(), state.vec(i, PoolState::kProdUsage));
        std::copy(alloc.begin(), alloc.end(), state.vec(i, PoolState::kAlloc));
        return i;
    }
    std::vector<int64_t> get(size_t i, PoolState::Vector v) const {
        const int64_t* p = state.vec(i, v);
        return {p, p + slots.thresholds};
    }
};

ResourceSlots cpu_slots() {
    ResourceSlots s;
    s.names = {"cpu", "pods"};
    s.thresholds = 1;
    s.pods = 1;
    return s;
}

SlotPercents cpu_percents(double low, double high, double prod_low = 100, double prod_high = 100) {
    SlotPercents p;
    p.low = {low};
    p.high = {high};
    p.prod_low = {prod_low};
    p.prod_high = {prod_high};
    p.in_high = {1};
    p.in_prod_high = {1};
    return p;
}

}  // namespace

TEST_CASE("thresholds: normal mode per node from raw allocatable", "[thresholds]") {
    Fixture f(cpu_slots());
    f.add({1000, 0}, {0, 0}, {10'000, 110'000});
    f.add({1000, 0}, {0, 0}, {4'000, 110'000});
    compute_node_thresholds(f.state, f.slots, cpu_percents(30, 70, 20, 50), false);
    CHECK(f.get(0, PoolState::kLow) == std::vector<int64_t>{3000});
    CHECK(f.get(0, PoolState::kHigh) == std::vector<int64_t>{7000});
    CHECK(f.get(0, PoolState::kProdLow) == std::vector<int64_t>{2000});
    CHECK(f.get(0, PoolState::kProdHigh) == std::vector<int64_t>{5000});
    CHECK(f.get(1, PoolState::kHigh) == std::vector<int64_t>{2800});
}

TEST_CASE("thresholds: deviation mode around the pool's average", "[thresholds]") {
    Fixture f(cpu_slots());
    f.add({1000, 0}, {0, 0}, {10'000, 0});  // 10 %
    f.add({5000, 0}, {0, 0}, {10'000, 0});  // 50 %
    f.add({9000, 0}, {0, 0}, {10'000, 0});  // 90 %
    f.add({0, 0}, {0, 0}, {0, 0});          // no cpu: adds nothing, still counts → average 37.5 %
    compute_node_thresholds(f.state, f.slots, cpu_percents(10, 20, 0, 0), true);
    CHECK(f.get(0, PoolState::kLow) == std::vector<int64_t>{2750});   // 27.5 %
    CHECK(f.get(0, PoolState::kHigh) == std::vector<int64_t>{5750});  // 57.5 %
    // prodLow 0: the resource is ignored for prod: both thresholds are the full capacity.
    CHECK(f.get(0, PoolState::kProdLow) == std::vector<int64_t>{10'000});
    CHECK(f.get(0, PoolState::kProdHigh) == std::vector<int64_t>{10'000});
    // Clamped to [0, 100].
    Fixture g(cpu_slots());
    g.add({9500, 0}, {0, 0}, {10'000, 0});
    compute_node_thresholds(g.state, g.slots, cpu_percents(99, 20), true);
    CHECK(g.get(0, PoolState::kLow) == std::vector<int64_t>{0});
    CHECK(g.get(0, PoolState::kHigh) == std::vector<int64_t>{10'000});
}

TEST_CASE("classification: five buckets, strict > and unschedulable nodes", "[classify]") {
    struct Case {
        const char* name;
        int64_t usage, prod_usage;
        bool unschedulable;
        Bucket want;
    };
    // low 30 %, high 70 %, prodLow 20 %, prodHigh 50 % of 10 cpu.
    const std::vector<Case> cases = {
        {"under low, prod under prodLow", 2000, 1000, false, Bucket::both_low},
        {"exactly low counts as under (≤)", 3000, 2000, false, Bucket::both_low},
        {"under low, prod between", 3000, 2500, false, Bucket::low},
        {"under low, prod exactly prodHigh", 3000, 3000, false, Bucket::low},
        {"under low but prod over prodHigh", 3000, 5001, false, Bucket::prod_high},
        {"between, prod over prodHigh", 6000, 5001, false, Bucket::prod_high},
        {"between, prod under prodLow", 6000, 2000, false, Bucket::prod_low},
        {"between, prod between", 6000, 3000, false, Bucket::none},
        {"exactly high is not over (strict >)", 7000, 0, false, Bucket::prod_low},
        {"over high", 7001, 0, false, Bucket::high},
        {"over high wins over prod", 9000, 9000, false, Bucket::high},
        {"unschedulable under low is not low", 1000, 0, true, Bucket::none},
        {"unschedulable under low, prod over", 1000, 6000, true, Bucket::prod_high},
        {"unschedulable over high", 8000, 0, true, Bucket::high},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            Fixture f(cpu_slots());
            f.add({c.usage, 0}, {c.prod_usage, 0}, {10'000, 110'000}, c.unschedulable);
            compute_node_thresholds(f.state, f.slots, cpu_percents(30, 70, 20, 50), false);
            Buckets b;
            classify(f.state, f.slots.thresholds, b);
            CHECK(f.state.nodes[0].bucket == c.want);
        }
    }
}

TEST_CASE("classification: the bucket lists keep node order", "[classify]") {
    Fixture f(cpu_slots());
    f.add({8000, 0}, {0, 0}, {10'000, 0});     // high
    f.add({1000, 0}, {0, 0}, {10'000, 0});     // both low
    f.add({9000, 0}, {0, 0}, {10'000, 0});     // high
    f.add({5000, 0}, {6000, 0}, {10'000, 0});  // prod high
    f.add({2000, 0}, {2500, 0}, {10'000, 0});  // low
    compute_node_thresholds(f.state, f.slots, cpu_percents(30, 70, 20, 50), false);
    Buckets b;
    classify(f.state, f.slots.thresholds, b);
    CHECK(b.high == std::vector<uint32_t>{0, 2});
    CHECK(b.both_low == std::vector<uint32_t>{1});
    CHECK(b.prod_high == std::vector<uint32_t>{3});
    CHECK(b.low == std::vector<uint32_t>{4});
    CHECK(b.prod_low.empty());
}

TEST_CASE("node usage: systemUsage + every podsMetric entry, prod pods, pod counts", "[usage]") {
    Cluster c;
    c.node("n1");
    c.metric("n1").system_usage("cpu", "500m").system_usage("memory", "1Gi");
    c.pod("n1", "prod-1", "1", "2Gi");                                // Burstable, unlabeled: prod
    c.pod("n1", "batch-1", "2", "3Gi").with_qos(KD_QOS_BEST_EFFORT);  // BestEffort: batch
    c.pod("n1", "done", "4", "4Gi").in_phase(KD_POD_SUCCEEDED);       // finished: not a pod of the node
    c.metric("n1").pod_usage("default", "ghost", "cpu", "250m");      // metric without a pod: counts
    const kd_snapshot* s = c.b.build();
    auto t = normalise_thresholds(false, {{"cpu", 30}, {"memory", 30}}, {{"cpu", 70}, {"memory", 70}}, {}, {});
    auto slots = make_slots(t);
    PoolState st;
    st.reset(slots.size());
    NodeUsageLoader loader;
    kd::Snapshot snap(s);
    REQUIRE(loader.load(st, snap, *snap.find_node("n1"), slots, snap.now_ms(), 180));
    const int64_t* usage = st.vec(0, PoolState::kUsage);
    const int64_t* prod = st.vec(0, PoolState::kProdUsage);
    // load(): the metric only; the pods are listed and matched by resolve().
    CHECK_FALSE(st.nodes[0].resolved);
    CHECK(usage[0] == 7'750);
    CHECK(st.vec(0, PoolState::kPodSum)[0] == 7'250);
    CHECK(st.pods.empty());
    loader.resolve(st, snap, 0, slots);
    REQUIRE(st.nodes[0].resolved);
    // cpu: 0.5 + 1 + 2 + 4 (the finished pod's metric entry still counts) + 0.25
    CHECK(usage[0] == 7'750);
    CHECK(usage[1] == kd::testing::milli("10Gi"));
    CHECK(usage[2] == 2'000);  // two non-finished pods
    CHECK(prod[0] == 1'000);
    CHECK(prod[1] == kd::testing::milli("2Gi"));
    CHECK(prod[2] == 1'000);
    REQUIRE(st.pods.size() == 2);
    CHECK(st.pods[0].metric == 0);
    CHECK(st.pods[1].metric == 1);
    CHECK(st.pods[0].priority_class == PriorityClass::prod);
    CHECK(st.pods[1].priority_class == PriorityClass::batch);
}

TEST_CASE("node usage: metric entries in any order are matched to their pods", "[usage]") {
    Cluster c;
    c.node("n1");
    c.b.pod("default", "a").on("n1");
    c.b.pod("default", "b").on("n1");
    c.b.pod("other", "a").on("n1");
    c.metric("n1").pod_usage("other", "a", "cpu", "3").pod_usage("default", "b", "cpu", "2");
    c.metric("n1").pod_usage("default", "a", "cpu", "1");
    const kd_snapshot* s = c.b.build();
    auto slots = make_slots(normalise_thresholds(false, {{"cpu", 30}}, {{"cpu", 70}}, {}, {}));
    PoolState st;
    st.reset(slots.size());
    NodeUsageLoader loader;
    kd::Snapshot snap(s);
    REQUIRE(loader.load(st, snap, *snap.find_node("n1"), slots, snap.now_ms(), 180));
    loader.resolve(st, snap, 0, slots);
    CHECK(st.pods[0].metric == 2);  // default/a
    CHECK(st.pods[1].metric == 1);  // default/b
    CHECK(st.pods[2].metric == 0);  // other/a
}

TEST_CASE("node usage: the pod count is read at load when \"pods\" has a threshold", "[usage]") {
    Cluster c;
    c.node("n1");
    c.pods("n1", "p", 3, "1");
    c.b.pod("default", "done").on("n1").in_phase(KD_POD_FAILED);
    const kd_snapshot* s = c.b.build();
    auto slots = make_slots(normalise_thresholds(false, {{"pods", 10}}, {{"pods", 20}}, {}, {}));
    PoolState st;
    st.reset(slots.size());
    NodeUsageLoader loader;
    kd::Snapshot snap(s);
    REQUIRE(loader.load(st, snap, *snap.find_node("n1"), slots, snap.now_ms(), 180));
    CHECK_FALSE(st.nodes[0].resolved);
    CHECK(st.vec(0, PoolState::kUsage)[slots.pods] == 3'000);
    CHECK(st.vec(0, PoolState::kPodSum)[slots.pods] == 3'000);
}

TEST_CASE("node usage: prod usage bounds settle the classification of most nodes", "[usage]") {
    Fixture f(cpu_slots());
    size_t a = f.add({5000, 0}, {0, 0}, {10'000, 0});
    f.state.vec(a, PoolState::kPodSum)[0] = 1500;  // ≤ prodLow 2000 and prodHigh 5000
    size_t b = f.add({5000, 0}, {0, 0}, {10'000, 0});
    f.state.vec(b, PoolState::kPodSum)[0] = 2500;  // might be over prodLow
    size_t c = f.add({5000, 0}, {0, 0}, {10'000, 0});
    f.state.vec(c, PoolState::kPodSum)[0] = 100;
    f.state.nodes[c].non_negative = false;  // a negative quantity: the bounds do not hold
    compute_node_thresholds(f.state, f.slots, cpu_percents(30, 70, 20, 50), false);
    CHECK(prod_settled_by_bounds(f.state, a, 1));
    CHECK_FALSE(prod_settled_by_bounds(f.state, b, 1));
    CHECK_FALSE(prod_settled_by_bounds(f.state, c, 1));
}

TEST_CASE("node usage: nodes without a usable NodeMetric are skipped", "[usage]") {
    struct Case {
        const char* name;
        std::function<void(Cluster&)> setup;
        bool loaded;
    };
    const int64_t now = SnapshotBuilder().now_ms();
    const std::vector<Case> cases = {
        {"fresh", [](Cluster&) {}, true},
        {"179 s old", [&](Cluster& c) { c.metric("n1").updated(now - 179 * kSecond); }, true},
        {"exactly 180 s old (≥ expires)", [&](Cluster& c) { c.metric("n1").updated(now - 180 * kSecond); }, false},
        {"no updateTime", [](Cluster& c) { c.metric("n1").updated(0); }, false},
        {"no status.nodeMetric", [](Cluster& c) { c.metric("n1").without_node_metric(); }, false},
    };
    for (const auto& k : cases) {
        SECTION(k.name) {
            Cluster c;
            c.node("n1");
            k.setup(c);
            const kd_snapshot* s = c.b.build();
            auto slots = make_slots(normalise_thresholds(false, {{"cpu", 30}}, {{"cpu", 70}}, {}, {}));
            PoolState st;
            st.reset(slots.size());
            NodeUsageLoader loader;
            kd::Snapshot snap(s);
            CHECK(loader.load(st, snap, *snap.find_node("n1"), slots, snap.now_ms(), 180) == k.loaded);
            CHECK(st.nodes.size() == (k.loaded ? 1u : 0u));
        }
    }
    SECTION("no NodeMetric at all") {
        SnapshotBuilder b;
        b.node("n1").allocatable("cpu", "10");
        const kd_snapshot* s = b.build();
        auto slots = make_slots(normalise_thresholds(false, {{"cpu", 30}}, {{"cpu", 70}}, {}, {}));
        PoolState st;
        st.reset(slots.size());
        NodeUsageLoader loader;
        kd::Snapshot snap(s);
        CHECK_FALSE(loader.load(st, snap, *snap.find_node("n1"), slots, snap.now_ms(), 180));
    }
}
