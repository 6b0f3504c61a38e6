// Scoring and sorting (koord's `ResourceUsageScorer`, pod order) and the Koordinator pod classes
// (apis/extension).
#include "pod_class.hpp"
#include "scoring.hpp"
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

using namespace lnl_test;
using namespace kd::plugins::lownodeload;

namespace {

ResourceSlots slots_of(std::vector<std::string> names, size_t thresholds) {
    ResourceSlots s;
    s.names = std::move(names);
    s.thresholds = thresholds;
    s.pods = s.names.size() - 1;
    return s;
}

}  // namespace

TEST_CASE("scoring: node usage score", "[scoring]") {
    auto slots = slots_of({"cpu", "memory", "pods"}, 2);
    const int64_t alloc[] = {10'000, 100'000, 110'000};  // 10 cpu, 100 bytes, 110 pods
    SECTION("weighted mean of per-mille usage, integer division") {
        const int64_t used[] = {8'000, 50'000, 10'000};  // 800, 500, 90
        CHECK(node_usage_score(used, alloc, slots, {1, 1, 0}) == 650);
        CHECK(node_usage_score(used, alloc, slots, {2, 1, 0}) == 700);
        CHECK(node_usage_score(used, alloc, slots, {1, 1, 1}) == (800 + 500 + 90) / 3);
        CHECK(node_usage_score(used, alloc, slots, {0, 0, 0}) == 0);
    }
    SECTION("usage above capacity counts as capacity; zero capacity scores 0") {
        const int64_t used[] = {20'000, 50'000, 0};
        const int64_t no_cpu[] = {0, 100'000, 110'000};
        CHECK(node_usage_score(used, alloc, slots, {1, 0, 0}) == 1000);
        CHECK(node_usage_score(used, no_cpu, slots, {1, 1, 0}) == 250);
    }
    SECTION("memory in whole units, rounded up") {
        const int64_t used[] = {0, 1'500, 0};  // 1.5 bytes → 2
        CHECK(node_usage_score(used, alloc, slots, {0, 1, 0}) == 20);
    }
}

TEST_CASE("scoring: source nodes sorted by score, highest first, ties kept in order", "[scoring]") {
    auto slots = slots_of({"cpu", "pods"}, 1);
    PoolState st;
    st.reset(slots.size());
    for (int64_t cpu : {7'000, 9'000, 8'000, 9'000}) {
        size_t i = st.add_node(nullptr, nullptr);
        st.vec(i, PoolState::kUsage)[0] = cpu;
        st.vec(i, PoolState::kAlloc)[0] = 10'000;
    }
    std::vector<uint32_t> nodes{0, 1, 2, 3};
    sort_nodes_by_usage(nodes, st, PoolState::kUsage, slots, {1, 0});
    CHECK(nodes == std::vector<uint32_t>{1, 3, 2, 0});
}

TEST_CASE("scoring: pod usage score against the node's excess", "[scoring]") {
    auto slots = slots_of({"cpu", "memory", "pods"}, 2);
    const int64_t used[] = {9'000, 50'000};
    const int64_t high[] = {7'000, 70'000};  // cpu over by 2000m, memory not over
    // The pod's metric per slot (cpu, memory, pods) and which resources it names.
    auto score = [&](std::vector<int64_t> usage, std::vector<uint8_t> present, std::vector<int64_t> w = {1, 1, 0}) {
        return pod_usage_score(usage.data(), present.data(), used, high, slots, w);
    };
    CHECK(score({1'000, 0, 0}, {1, 0, 0}) == Approx(0.5));  // ratio 0.5
    CHECK(score({2'000, 0, 0}, {1, 0, 0}) == Approx(2.0));  // equal to the excess
    CHECK(score({4'000, 0, 0}, {1, 0, 0}) == Approx(1.5));  // ratio 2 → 1/2 + 1
    // memory is not over: weight 0, it does not dilute the score.
    CHECK(score({1'000, 99'000, 0}, {1, 1, 0}) == Approx(0.5));
    CHECK(score({0, 1'000, 0}, {0, 1, 0}) == 0);             // nothing over in the pod's metric
    CHECK(score({1'000, 0, 0}, {1, 0, 0}, {0, 1, 0}) == 0);  // cpu weighs nothing
    // A resource the metric names with 0 usage still counts (ratio 0, weight 1).
    CHECK(score({0, 0, 0}, {1, 0, 0}) == 0);
}

TEST_CASE("sorting: one comparator at a time, each after ties on the previous ones", "[scoring]") {
    // `a` and `b` tie on every earlier key; `a` must come first because of this comparator.
    struct Case {
        const char* name;
        std::function<int(const PodOrderKey&, const PodOrderKey&)> cmp;
        std::function<void(PodOrderKey& a, PodOrderKey& b)> differ;
    };
    const std::vector<Case> cases = {
        {"priority class: free < batch < mid < prod < none", compare_priority_class,
         [](PodOrderKey& a, PodOrderKey& b) { a.class_rank = 1, b.class_rank = 4; }},
        {"spec.priority ascending", compare_priority,
         [](PodOrderKey& a, PodOrderKey& b) { a.priority = -5, b.priority = 0; }},
        {"Kubernetes QoS: BestEffort < Burstable < Guaranteed", compare_k8s_qos,
         [](PodOrderKey& a, PodOrderKey& b) { a.k8s_qos = KD_QOS_BURSTABLE, b.k8s_qos = KD_QOS_GUARANTEED; }},
        {"Koordinator QoS: BE < LS < LSR < LSE = SYSTEM < none", compare_koord_qos,
         [](PodOrderKey& a, PodOrderKey& b) { a.koord_qos_rank = 3, b.koord_qos_rank = 4; }},
        {"pod-deletion-cost ascending", compare_deletion_cost,
         [](PodOrderKey& a, PodOrderKey& b) { a.deletion_cost = -1, b.deletion_cost = 0; }},
        {"eviction-cost ascending", compare_eviction_cost,
         [](PodOrderKey& a, PodOrderKey& b) { a.eviction_cost = 10, b.eviction_cost = 11; }},
        {"usage score descending", compare_usage,
         [](PodOrderKey& a, PodOrderKey& b) {
             a.has_metric = b.has_metric = true, a.usage_score = 1.5, b.usage_score = 0.4;
         }},
        {"a pod with a metric before one without, whatever the score", compare_usage,
         [](PodOrderKey& a, PodOrderKey& b) {
             a.has_metric = true, a.usage_score = 0, b.has_metric = false, b.usage_score = 9;
         }},
        {"creation: newer first", compare_creation,
         [](PodOrderKey& a, PodOrderKey& b) { a.creation_ms = 2000, b.creation_ms = 1000; }},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            PodOrderKey a, b;
            a.pod = 0, b.pod = 1;
            c.differ(a, b);
            CHECK(c.cmp(a, b) < 0);
            CHECK(c.cmp(b, a) > 0);
            CHECK(pod_evicted_before(a, b));
            CHECK_FALSE(pod_evicted_before(b, a));
            std::vector<PodOrderKey> keys{b, a};
            sort_pods(keys);
            CHECK(keys[0].pod == 0);
        }
    }
    SECTION("an earlier comparator wins over later ones") {
        PodOrderKey a, b;
        a.class_rank = 2, a.creation_ms = 0;  // batch, older
        b.class_rank = 4, b.creation_ms = 9;  // prod, newer
        CHECK(pod_evicted_before(a, b));
    }
    SECTION("full ties keep the input order") {
        std::vector<PodOrderKey> keys(5);
        for (uint32_t i = 0; i < 5; ++i) keys[i].pod = i;
        sort_pods(keys);
        for (uint32_t i = 0; i < 5; ++i) CHECK(keys[i].pod == i);
    }
}

TEST_CASE("pod class: Koordinator priority class and QoS", "[scoring]") {
    struct Case {
        const char* name;
        std::function<void(PodSpec&)> setup;
        PriorityClass priority_class;
        KoordQoS qos;
    };
    const std::vector<Case> cases = {
        {"unlabeled Burstable without priority is prod", [](PodSpec&) {}, PriorityClass::prod, KoordQoS::ls},
        {"unlabeled BestEffort is batch", [](PodSpec& p) { p.with_qos(KD_QOS_BEST_EFFORT); }, PriorityClass::batch,
         KoordQoS::be},
        {"Guaranteed is LSR, prod", [](PodSpec& p) { p.with_qos(KD_QOS_GUARANTEED); }, PriorityClass::prod,
         KoordQoS::lsr},
        {"label wins over priority",
         [](PodSpec& p) { p.label("koordinator.sh/priority-class", "koord-free").with_priority(9500); },
         PriorityClass::free, KoordQoS::ls},
        {"unknown label value → from QoS",
         [](PodSpec& p) { p.label("koordinator.sh/priority-class", "gold").with_priority(3500); }, PriorityClass::prod,
         KoordQoS::ls},
        {"priority 9000 prod", [](PodSpec& p) { p.with_priority(9000).with_qos(KD_QOS_BEST_EFFORT); },
         PriorityClass::prod, KoordQoS::be},
        {"priority 7999 mid", [](PodSpec& p) { p.with_priority(7999); }, PriorityClass::mid, KoordQoS::ls},
        {"priority 5000 batch", [](PodSpec& p) { p.with_priority(5000); }, PriorityClass::batch, KoordQoS::ls},
        {"priority 3999 free", [](PodSpec& p) { p.with_priority(3999); }, PriorityClass::free, KoordQoS::ls},
        {"priority 8500 (no range) → from QoS", [](PodSpec& p) { p.with_priority(8500).with_qos(KD_QOS_BEST_EFFORT); },
         PriorityClass::batch, KoordQoS::be},
        {"QoS label BE on a Guaranteed pod",
         [](PodSpec& p) { p.label("koordinator.sh/qosClass", "BE").with_qos(KD_QOS_GUARANTEED); }, PriorityClass::batch,
         KoordQoS::be},
        {"QoS label SYSTEM", [](PodSpec& p) { p.label("koordinator.sh/qosClass", "SYSTEM"); }, PriorityClass::prod,
         KoordQoS::system},
        {"unknown QoS label → Kubernetes QoS",
         [](PodSpec& p) { p.label("koordinator.sh/qosClass", "XX").with_qos(KD_QOS_BEST_EFFORT); },
         PriorityClass::batch, KoordQoS::be},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            SnapshotBuilder b;
            auto& p = b.pod("default", "p");
            c.setup(p);
            const kd_snapshot* s = b.build();
            kd::Pod pod = *kd::Snapshot(s).find_pod("default", "p");
            CHECK(priority_class(pod) == c.priority_class);
            CHECK(koord_qos(pod) == c.qos);
        }
    }
    CHECK(priority_class_rank(PriorityClass::free) < priority_class_rank(PriorityClass::batch));
    CHECK(priority_class_rank(PriorityClass::batch) < priority_class_rank(PriorityClass::mid));
    CHECK(priority_class_rank(PriorityClass::mid) < priority_class_rank(PriorityClass::prod));
    CHECK(priority_class_rank(PriorityClass::prod) < priority_class_rank(PriorityClass::none));
    CHECK(koord_qos_rank(KoordQoS::be) < koord_qos_rank(KoordQoS::ls));
    CHECK(koord_qos_rank(KoordQoS::ls) < koord_qos_rank(KoordQoS::lsr));
    CHECK(koord_qos_rank(KoordQoS::lsr) < koord_qos_rank(KoordQoS::lse));
    CHECK(koord_qos_rank(KoordQoS::lse) == koord_qos_rank(KoordQoS::system));
    CHECK(koord_qos_rank(KoordQoS::system) < koord_qos_rank(KoordQoS::none));
}

TEST_CASE("pod class: cost annotations parse like pod-deletion-cost", "[scoring]") {
    const std::vector<std::pair<std::string, int32_t>> cases = {
        {"5", 5},
        {"0", 0},
        {"-3", -3},
        {"+5", 0},
        {"007", 0},
        {"-007", -7},
        {"abc", 0},
        {"", 0},
        {"-", 0},
        {"1.5", 0},
        {"2147483647", 2147483647},
        {"2147483648", 0},
        {"-2147483648", -2147483647 - 1},
        {"-2147483649", 0},
    };
    for (const auto& [text, want] : cases) {
        INFO(text);
        SnapshotBuilder b;
        b.pod("default", "p").annotation("controller.kubernetes.io/pod-deletion-cost", text);
        const kd_snapshot* s = b.build();
        kd::Pod pod = *kd::Snapshot(s).find_pod("default", "p");
        CHECK(cost_annotation(pod, kPodDeletionCostAnnotation) == want);
        CHECK(cost_annotation(pod, kEvictionCostAnnotation) == 0);
    }
}

TEST_CASE("sorting: the eviction order through Balance", "[scoring][balance]") {
    Cluster c;
    // One big target; the source stays over its threshold whatever is evicted (system usage).
    c.node("src");
    c.metric("src").system_usage("cpu", "9");
    c.node("dst", "1000");
    const int64_t now = c.b.now_ms();
    c.pod("src", "prod-old", "100m").created(now - 5000);
    c.pod("src", "prod-new", "100m").created(now - 1000);
    c.pod("src", "prod-big", "2");  // a bigger share of the node's excess: a higher usage score
    c.pod("src", "prod-cost", "100m").annotation("controller.kubernetes.io/pod-deletion-cost", "-10");
    c.pod("src", "prod-ecost", "100m").annotation("scheduling.koordinator.sh/eviction-cost", "-1");
    c.pod("src", "be", "100m").with_qos(KD_QOS_BEST_EFFORT);  // batch class
    c.pod("src", "free", "100m").label("koordinator.sh/priority-class", "koord-free");
    c.pod("src", "mid-low", "100m").with_priority(7000);
    c.pod("src", "mid-high", "100m").with_priority(7500);
    c.pod("src", "guaranteed", "100m").with_qos(KD_QOS_GUARANTEED);      // prod, k8s QoS 3
    c.b.pod("default", "no-metric").on("src").owner("ReplicaSet", "x");  // no podsMetric entry
    FakeHost host;
    auto plugin = host.instantiate<LowNodeLoad>(R"({"lowThresholds": {"cpu": 40}, "highThresholds": {"cpu": 50},
        "nodeFit": false, "anomalyCondition": {"consecutiveAbnormalities": 1}})");
    plugin.balance(c.b.build());
    CHECK(requested(host) == std::vector<std::string>{"default/free", "default/be", "default/mid-low",
                                                      "default/mid-high", "default/prod-cost", "default/prod-ecost",
                                                      "default/prod-big", "default/prod-new", "default/prod-old",
                                                      "default/no-metric", "default/guaranteed"});
}
