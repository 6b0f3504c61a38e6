// The Driver: when cycles and ticks run (a tick after every cycle, again at the time a plugin asks
// for, time always moving on, at most kMaxTicksPerInterval per interval), what the environment
// sees around each call, and how a run stops.
#include "cluster/cluster_model.hpp"
#include "config/configuration.hpp"
#include "loader/plugin_catalog.hpp"
#include "runtime/driver.hpp"

#include <kdesched/plugin.hpp>

#include <catch2/catch.hpp>

#include <functional>

using namespace kd::core;

namespace {

constexpr int64_t kT0 = 1'000'000;

// How the ticking plugin answers: the time it asks for next, given the time it runs at.
std::function<int64_t(int64_t)> g_ask;
std::vector<std::string> g_hooks;  // "cycle@t" / "tick@t", as the plugin saw them

class Paced {
public:
    static constexpr const char* kName = "Paced";
    static constexpr const char* kVersion = "1.0.0";
    Paced(kd::Host&, kd::NoArgs) {}
    void balance(kd::Cycle& c) { g_hooks.push_back("cycle@" + std::to_string(c.now_ms() - kT0)); }
    kd::EvictOutcome evict(kd::Cycle&, const kd::Pod&, const kd::EvictRequest&) { return kd::EvictOutcome::accepted(); }
    int64_t tick(kd::Cycle& c) {
        g_hooks.push_back("tick@" + std::to_string(c.now_ms() - kT0));
        return g_ask(c.now_ms());
    }
};

// A clock the test moves: waiting jumps, unless the run is to stop at `stop_at`.
struct TestClock : Clock {
    int64_t now = kT0;
    int64_t stop_at = INT64_MAX;
    int64_t now_ms() override { return now; }
    bool wait_until(int64_t t) override {
        if (t >= stop_at) return false;
        now = std::max(now, t);
        return true;
    }
};

// Records the calls; may skip them or let time pass during a call.
struct TestEnvironment : DriverEnvironment {
    std::vector<std::string> calls;
    bool run_hooks = true;
    TestClock* clock = nullptr;
    int64_t cycle_takes_ms = 0;
    bool before(const DriverCall& c) override {
        calls.push_back(std::string(c.kind == DriverCall::cycle ? "before cycle " : "before tick ") +
                        std::to_string(c.cycle_number) + "@" + std::to_string(c.now_ms - kT0));
        return run_hooks;
    }
    void after(const DriverCall& c, const std::optional<std::string>& error) override {
        calls.push_back(std::string("after") + (error ? " error " + *error : ""));
        if (c.kind == DriverCall::cycle) clock->now += cycle_takes_ms;
    }
    void interval_done(uint64_t n, int64_t now) override {
        calls.push_back("interval " + std::to_string(n) + " done@" + std::to_string(now - kT0));
    }
};

struct Setup {
    ClusterModel model;
    PluginCatalog catalog;
    std::unique_ptr<Descheduler> descheduler;
    TestClock clock;
    TestEnvironment env;
    Setup() {
        g_hooks.clear();
        catalog.add_in_process(kd::module<Paced>("driver-test"));
        for (const char* name : {"n1", "n2"}) {
            NodeDraft n;
            n.meta.name = name;
            model.on_node(n);
        }
        descheduler = std::make_unique<Descheduler>(parse_configuration(R"(apiVersion: descheduler/v1alpha2
kind: DeschedulerConfiguration
profiles:
- name: p
  plugins:
    balance: {enabled: [{name: Paced}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: Paced}]}
    filter: {disabled: [{name: "*"}]}
)",
                                                                        "driver.yaml"),
                                                    catalog, nullptr, nullptr);
        env.clock = &clock;
    }
    uint64_t run(DriverOptions options) { return Driver(*descheduler, model, clock, env).run(options); }
};

}  // namespace

TEST_CASE("driver: a tick after every cycle, then at the times the plugin asks for, until the next cycle", "[driver]") {
    Setup s;
    g_ask = [](int64_t now) { return now - kT0 < 1000 ? now + 500 : 0; };  // twice more, then nothing
    CHECK(s.run({10'000, 2}) == 2);
    CHECK(g_hooks ==
          std::vector<std::string>{"cycle@0", "tick@0", "tick@500", "tick@1000", "cycle@10000", "tick@10000"});
    CHECK(s.env.calls == std::vector<std::string>{"before cycle 1@0", "after", "before tick 1@0", "after",
                                                  "before tick 1@500", "after", "before tick 1@1000", "after",
                                                  "interval 1 done@1000", "before cycle 2@10000", "after",
                                                  "before tick 2@10000", "after", "interval 2 done@10000"});
}

TEST_CASE("driver: a plugin that keeps asking for now cannot stall time", "[driver]") {
    Setup s;
    g_ask = [](int64_t now) { return now; };
    CHECK(s.run({10'000, 1}) == 1);
    REQUIRE(g_hooks.size() == 1 + Driver::kMaxTicksPerInterval);
    CHECK(g_hooks[1] == "tick@0");
    CHECK(g_hooks[2] == "tick@1");  // 1 ms on at least
    CHECK(g_hooks.back() == "tick@" + std::to_string(Driver::kMaxTicksPerInterval - 1));
}

TEST_CASE("driver: an ask at or after the next cycle waits for the cycle", "[driver]") {
    Setup s;
    g_ask = [](int64_t now) { return now + 10'000; };
    CHECK(s.run({10'000, 3}) == 3);
    CHECK(g_hooks ==
          std::vector<std::string>{"cycle@0", "tick@0", "cycle@10000", "tick@10000", "cycle@20000", "tick@20000"});
}

TEST_CASE("driver: the clock ends the run — skipped calls run no hook", "[driver]") {
    Setup s;
    g_ask = [](int64_t) { return 0; };
    s.clock.stop_at = kT0 + 25'000;  // a shutdown before the third cycle
    CHECK(s.run({10'000, std::nullopt}) == 3);
    CHECK(g_hooks ==
          std::vector<std::string>{"cycle@0", "tick@0", "cycle@10000", "tick@10000", "cycle@20000", "tick@20000"});

    Setup standby;
    standby.env.run_hooks = false;  // no leadership: the model is kept, no plugin runs
    standby.clock.stop_at = kT0 + 15'000;
    CHECK(standby.run({10'000, std::nullopt}) == 2);
    CHECK(g_hooks.empty());
    CHECK(standby.env.calls.size() == 6);  // before cycle, before tick, interval done — twice
}

TEST_CASE("driver: a cycle that overruns its interval is followed at once by the next", "[driver]") {
    Setup s;
    g_ask = [](int64_t) { return 0; };
    s.env.cycle_takes_ms = 12'000;
    CHECK(s.run({10'000, 3}) == 3);
    // Cycle 1 ends at 12 s: cycle 2 starts then (not at 20 s), and the schedule goes on from there.
    CHECK(g_hooks ==
          std::vector<std::string>{"cycle@0", "tick@12000", "cycle@12000", "tick@24000", "cycle@24000", "tick@36000"});
}
