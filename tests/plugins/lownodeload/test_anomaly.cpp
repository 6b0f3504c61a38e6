// The anomaly detector (koord's `BasicDetector`): its state machine, the detector cache TTL, and
// the gating of overloaded nodes across cycles through the plugin.
#include "anomaly.hpp"
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace lnl_test;
using kd::plugins::lownodeload::AnomalyDetector;
using kd::plugins::lownodeload::AnomalyOptions;
using kd::plugins::lownodeload::DetectorCache;
using State = AnomalyDetector::State;

TEST_CASE("anomaly: Anomaly needs strictly more than consecutiveAbnormalities marks", "[anomaly]") {
    AnomalyDetector d({5, 3, 60'000});
    for (int i = 1; i <= 5; ++i) CHECK(d.mark(false, i) == State::ok);
    CHECK(d.counts().consecutive_abnormalities == 5);
    CHECK(d.mark(false, 6) == State::anomaly);
    CHECK(d.counts().consecutive_abnormalities == 0);  // a new generation
    CHECK(d.generation() == 1);

    AnomalyDetector one({1, 3, 60'000});
    CHECK(one.mark(false, 0) == State::ok);
    CHECK(one.mark(false, 0) == State::anomaly);
}

TEST_CASE("anomaly: a normal mark breaks the abnormal streak", "[anomaly]") {
    AnomalyDetector d({2, 3, 60'000});
    d.mark(false, 0);
    d.mark(false, 0);
    d.mark(true, 0);
    CHECK(d.counts().consecutive_abnormalities == 0);
    CHECK(d.mark(false, 0) == State::ok);
    CHECK(d.mark(false, 0) == State::ok);
    CHECK(d.mark(false, 0) == State::anomaly);
}

TEST_CASE("anomaly: back to OK after more than consecutiveNormalities normal marks", "[anomaly]") {
    AnomalyDetector d({1, 3, 60'000});
    d.mark(false, 0);
    REQUIRE(d.mark(false, 0) == State::anomaly);
    for (int i = 0; i < 3; ++i) CHECK(d.mark(true, 1) == State::anomaly);
    CHECK(d.mark(true, 1) == State::ok);
    CHECK(d.counts().total == 0);  // cleared by the switch
}

TEST_CASE("anomaly: Anomaly expires after the timeout and is not extended by abnormal marks", "[anomaly]") {
    AnomalyDetector d({1, 3, 30'000});
    d.mark(false, 0);
    REQUIRE(d.mark(false, 1000) == State::anomaly);  // expires at 31 000
    CHECK(d.mark(false, 20'000) == State::anomaly);
    CHECK(d.state(31'000) == State::anomaly);  // not yet: expiration must be strictly in the past
    CHECK(d.state(31'001) == State::ok);
    CHECK(d.counts().total == 0);
    // After expiry, marking starts a new count.
    CHECK(d.mark(false, 31'002) == State::ok);
    CHECK(d.mark(false, 31'003) == State::anomaly);
}

TEST_CASE("anomaly: a timeout of 0 or less means 60 s", "[anomaly]") {
    for (int64_t timeout : {int64_t{0}, int64_t{-5}}) {
        AnomalyDetector d({1, 3, timeout});
        d.mark(false, 0);
        REQUIRE(d.mark(false, 0) == State::anomaly);
        CHECK(d.state(60'000) == State::anomaly);
        CHECK(d.state(60'001) == State::ok);
    }
}

TEST_CASE("anomaly: reset clears counters only when it changes the state", "[anomaly]") {
    AnomalyDetector ok({5, 3, 60'000});
    ok.mark(false, 0);
    ok.mark(false, 0);
    ok.reset(0);
    // Already OK: same generation, the abnormal streak survives (Koordinator's setState no-op).
    CHECK(ok.counts().consecutive_abnormalities == 2);
    CHECK(ok.generation() == 0);

    AnomalyDetector bad({1, 3, 60'000});
    bad.mark(false, 0);
    bad.mark(false, 0);
    bad.mark(false, 0);
    REQUIRE(bad.state(0) == State::anomaly);
    bad.reset(0);
    CHECK(bad.state(0) == State::ok);
    CHECK(bad.counts().total == 0);
}

TEST_CASE("anomaly: detector cache TTL", "[anomaly]") {
    DetectorCache cache(300'000);
    AnomalyDetector& d = cache.get_or_create("n1", {5, 3, 0}, 1000);
    d.mark(false, 1000);
    CHECK(cache.find("n1", 301'000) != nullptr);  // stored at 1000: alive until now > 301 000
    CHECK(cache.find("n1", 301'001) == nullptr);
    cache.touch("n1", 100'000);
    CHECK(cache.find("n1", 400'000) != nullptr);
    // An expired entry is replaced by a fresh detector.
    AnomalyDetector& fresh = cache.get_or_create("n1", {5, 3, 0}, 400'001);
    CHECK(fresh.counts().total == 0);
    cache.sweep(2'000'000);
    CHECK(cache.size() == 0);
    // TTL ≤ 0: never expires.
    DetectorCache forever(0);
    forever.get_or_create("n1", {5, 3, 0}, 0);
    CHECK(forever.find("n1", int64_t{1} << 60) != nullptr);
}

namespace {

// n1: 80 % cpu (over high 70 %), n2: 10 % (low), n3: 50 %.
struct Scenario {
    Cluster c;
    int64_t t0;
    Scenario() : t0(c.b.now_ms()) {
        c.node("n1");
        c.pods("n1", "hot-", 8, "1");
        c.node("n2");
        c.pods("n2", "cold-", 1, "1");
        c.node("n3");
        c.pods("n3", "mid-", 5, "1");
    }
    // Runs one cycle every `step` ms from t0 + first; returns the eviction requests of each.
    std::vector<size_t> run(FakeHost& host, FakeHost::Handle& plugin, int cycles, int64_t step = 10 * kSecond,
                            int64_t first = 0) {
        std::vector<size_t> out;
        for (int i = 0; i < cycles; ++i) {
            size_t before = host.evictions().size();
            plugin.balance(c.at(t0 + first + i * step));
            out.push_back(host.evictions().size() - before);
        }
        return out;
    }
};

std::string gated(int abnormalities, const std::string& extra = "") {
    return R"({"lowThresholds": {"cpu": 30, "memory": 30}, "highThresholds": {"cpu": 70, "memory": 70},
               "anomalyCondition": {"consecutiveAbnormalities": )" +
           std::to_string(abnormalities) + extra + "}}";
}

}  // namespace

TEST_CASE("gating: default condition → first eviction on the 6th overloaded cycle", "[anomaly][balance]") {
    Scenario s;
    FakeHost host;
    auto plugin = host.instantiate<LowNodeLoad>(
        R"({"lowThresholds": {"cpu": 30, "memory": 30}, "highThresholds": {"cpu": 70, "memory": 70}})");
    // The 6th cycle evicts one pod (80 % → 70 %); the node is no longer over, so its detector is
    // reset and the count starts over: the next eviction is 6 cycles later.
    CHECK(s.run(host, plugin, 12) == std::vector<size_t>{0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1});
}

TEST_CASE("gating: consecutiveAbnormalities 1 acts at once, 2 on the 3rd cycle", "[anomaly][balance]") {
    SECTION("1") {
        Scenario s;
        FakeHost host;
        auto plugin = host.instantiate<LowNodeLoad>(gated(1));
        CHECK(s.run(host, plugin, 3) == std::vector<size_t>{1, 1, 1});
    }
    SECTION("2") {
        Scenario s;
        FakeHost host;
        auto plugin = host.instantiate<LowNodeLoad>(gated(2));
        CHECK(s.run(host, plugin, 6) == std::vector<size_t>{0, 0, 1, 0, 0, 1});
    }
}

TEST_CASE("gating: Anomaly lasts until its timeout while the node stays overloaded", "[anomaly][balance]") {
    Scenario s;
    FakeHost host;
    // Every eviction fails: the node stays over, so nothing resets the detector.
    host.on_evict = [](const kd::Pod&) { return kd::EvictOutcome::failed("refused"); };
    auto plugin = host.instantiate<LowNodeLoad>(gated(2, R"(, "timeout": "30s")"));
    // Anomaly from the 3rd cycle (t=20 s) until 50 s; at 60 s it has expired and counting restarts.
    // Each anomalous cycle asks for the 6 pods that fit n2's 6 free cpu.
    CHECK(s.run(host, plugin, 9) == std::vector<size_t>{0, 0, 6, 6, 6, 6, 0, 0, 6});
}

TEST_CASE("gating: the detector cache TTL forgets a node not seen for longer", "[anomaly][balance]") {
    for (bool expired : {false, true}) {
        SECTION(expired ? "expired" : "alive") {
            Scenario s;
            FakeHost host;
            auto plugin = host.instantiate<LowNodeLoad>(gated(5));  // TTL 5m (interval 0)
            CHECK(s.run(host, plugin, 3) == std::vector<size_t>{0, 0, 0});
            // Last stored at t=20 s; gone once now > 320 s.
            int64_t resume = 20 * kSecond + 5 * kMinute + (expired ? 1 : 0);
            auto after = s.run(host, plugin, 6, 10 * kSecond, resume);
            if (expired)
                CHECK(after == std::vector<size_t>{0, 0, 0, 0, 0, 1});
            else
                CHECK(after == std::vector<size_t>{0, 0, 1, 0, 0, 0});
        }
    }
}

TEST_CASE("gating: nodes are marked even when a later step stops the pool", "[anomaly][balance]") {
    Scenario s;
    s.c.metric("n2").system_usage("cpu", "4");  // n2 at 50 %: no low node at all
    FakeHost host;
    // prodLow 5 %: no node is a prod target either, so the pool stops at "no low nodes" (step 5).
    auto plugin = host.instantiate<LowNodeLoad>(
        R"({"lowThresholds": {"cpu": 30, "memory": 30}, "highThresholds": {"cpu": 70, "memory": 70},
            "prodLowThresholds": {"cpu": 5, "memory": 5}, "prodHighThresholds": {"cpu": 70, "memory": 70},
            "anomalyCondition": {"consecutiveAbnormalities": 2}})");
    CHECK(s.run(host, plugin, 3) == std::vector<size_t>{0, 0, 0});
    // n1's detector reached Anomaly in the 3rd cycle anyway; once n2 is low it acts at once.
    s.c.metric("n2").system.clear();
    CHECK(s.run(host, plugin, 1, 10 * kSecond, 30 * kSecond) == std::vector<size_t>{1});
}
