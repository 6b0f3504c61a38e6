// PodAgeLimit on the SDK's fake host: no cluster, no daemon.
#include "pod_age_limit.hpp"

#include <kdesched/testing.hpp>

#include <catch2/catch.hpp>

TEST_CASE("evicts only pods older than maxPodAge, oldest first, up to maxPerCycle") {
    kd::testing::SnapshotBuilder b;
    const int64_t hour = 3'600'000;
    b.node("n1");
    b.node("n2");
    b.pod("web", "young").on("n1").created(b.now_ms() - 1 * hour);
    b.pod("web", "old").on("n1").created(b.now_ms() - 30 * hour);
    b.pod("web", "older").on("n2").created(b.now_ms() - 40 * hour);
    b.pod("web", "oldest").on("n2").created(b.now_ms() - 50 * hour);
    kd::testing::FakeHost host;
    auto plugin = host.instantiate<example::PodAgeLimit>(R"({"maxPodAge": "24h", "maxPerCycle": 2})");
    plugin.deschedule(b.build());
    CHECK(host.evicted() == std::vector<std::string>{"web/oldest", "web/older"});
    CHECK(host.evictions()[0].reason == "pod is older than 24h0m0s");
}

TEST_CASE("pods a filter rejects are skipped") {
    kd::testing::SnapshotBuilder b;
    b.node("n1");
    b.pod("web", "keep").on("n1").created(0);
    b.pod("web", "go").on("n1").created(1);
    kd::testing::FakeHost host;
    host.on_filter = [](const kd::Pod& p) {
        return p.name() == "keep" ? kd::Verdict::reject("Kept") : kd::Verdict::allow();
    };
    auto plugin = host.instantiate<example::PodAgeLimit>("{}");
    plugin.deschedule(b.build());
    CHECK(host.evicted() == std::vector<std::string>{"web/go"});
}

TEST_CASE("bad args are reported with their field paths") {
    kd::testing::FakeHost host;
    try {
        host.instantiate<example::PodAgeLimit>(R"({"maxPodAge": "0s", "maxPerCycle": 0})");
        FAIL("create should fail");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()) == "maxPodAge: must be > 0\nmaxPerCycle: must be >= 1");
    }
}
