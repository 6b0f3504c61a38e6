// The fake host's eviction pipeline is the host's (core/runtime/evictor_proxy.cpp): Filter →
// PreEvictionFilter (unless skipped) → limits → dry run → the evict plugin; outcomes name the
// filter and its reason. tests/integration/test_fake_matches_host.cpp runs one plugin on both.
#include <kdesched/plugin.hpp>
#include <kdesched/testing.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace {

struct EvictEveryArgs {
    bool skipPreEvictionFilter = false;
    template <class V>
    void fields(V& v) {
        v("skipPreEvictionFilter", skipPreEvictionFilter);
    }
};

// Asks to evict every pod of the snapshot, in order.
class EvictEvery {
public:
    static constexpr const char* kName = "EvictEvery";
    static constexpr const char* kVersion = "1.0.0";
    using Args = EvictEveryArgs;
    EvictEvery(kd::Host&, Args a) : options_{.pre_eviction_filter = !a.skipPreEvictionFilter} {}
    void balance(kd::Cycle& cycle) {
        for (auto pod : cycle.snapshot().pods()) cycle.evict(pod, "every", options_);
    }

private:
    kd::EvictOptions options_;
};

// "ns/name code [plugin] [reason]" of every request, in order.
std::vector<std::string> outcomes(const kd::testing::FakeHost& host) {
    std::vector<std::string> out;
    for (const auto& e : host.evictions()) {
        std::string line = e.pod + " " + kd::evict_code_name(e.outcome.code);
        if (!e.outcome.plugin.empty()) line += " " + e.outcome.plugin;
        if (!e.outcome.reason.empty()) line += " " + e.outcome.reason;
        out.push_back(line);
    }
    return out;
}

kd::testing::SnapshotBuilder four_pods() {
    kd::testing::SnapshotBuilder b;
    b.node("n1");
    b.node("n2");
    b.pod("a", "keep").on("n1");
    b.pod("a", "nofit").on("n1");
    b.pod("a", "p3").on("n1");
    b.pod("b", "p4").on("n2");
    return b;
}

}  // namespace

TEST_CASE("fake host: Filter, then PreEvictionFilter, then the evict plugin, rejections name the filter",
          "[fake-host][evict]") {
    kd::testing::FakeHost host;
    std::vector<std::string> asked;
    host.on_filter = [&](const kd::Pod& p) {
        asked.push_back("filter " + p.key());
        return p.name() == "keep" ? kd::Verdict::reject("KeepLabel") : kd::Verdict::allow();
    };
    host.on_pre_eviction_filter = [&](const kd::Pod& p) {
        asked.push_back("pre-eviction " + p.key());
        return p.name() == "nofit" ? kd::Verdict::reject("NodeFit") : kd::Verdict::allow();
    };
    host.on_evict = [&](const kd::Pod& p) {
        asked.push_back("evict " + p.key());
        return p.name() == "p4" ? kd::EvictOutcome::failed("pdb") : kd::EvictOutcome::accepted();
    };
    auto b = four_pods();
    auto plugin = host.instantiate<EvictEvery>();
    plugin.balance(b.build());
    CHECK(outcomes(host) == std::vector<std::string>{"a/keep filtered DefaultEvictor KeepLabel",
                                                     "a/nofit filtered DefaultEvictor NodeFit", "a/p3 accepted",
                                                     "b/p4 failed pdb"});
    CHECK(asked == std::vector<std::string>{"filter a/keep", "filter a/nofit", "pre-eviction a/nofit", "filter a/p3",
                                            "pre-eviction a/p3", "evict a/p3", "filter b/p4", "pre-eviction b/p4",
                                            "evict b/p4"});
    CHECK(host.evicted() == std::vector<std::string>{"a/p3"});

    SECTION("a request that skips the PreEvictionFilter is not asked it") {
        host.clear();
        asked.clear();
        auto skipping = host.instantiate<EvictEvery>(R"({"skipPreEvictionFilter": true})");
        skipping.balance(b.build());
        CHECK(outcomes(host)[1] == "a/nofit accepted");
        CHECK(std::count(asked.begin(), asked.end(), "pre-eviction a/nofit") == 0);
    }
    SECTION("the filter's name is the profile's") {
        host.clear();
        host.filter_plugin_name = "MyFilter";
        plugin.balance(b.build());
        CHECK(outcomes(host)[0] == "a/keep filtered MyFilter KeepLabel");
    }
}

TEST_CASE("fake host: the per-node, per-namespace and total limits, counted per cycle, dry runs included",
          "[fake-host][evict]") {
    auto run = [](kd::testing::EvictionLimits limits, bool dry_run = false) {
        kd::testing::FakeHost host;
        host.limits = limits;
        host.dry_run = dry_run;
        auto b = four_pods();
        auto plugin = host.instantiate<EvictEvery>();
        plugin.balance(b.build());
        return outcomes(host);
    };
    CHECK(run({.per_node = 2}) == std::vector<std::string>{"a/keep accepted", "a/nofit accepted",
                                                           "a/p3 limit-node limit-node", "b/p4 accepted"});
    CHECK(run({.per_namespace = 1}) ==
          std::vector<std::string>{"a/keep accepted", "a/nofit limit-namespace limit-namespace",
                                   "a/p3 limit-namespace limit-namespace", "b/p4 accepted"});
    CHECK(run({.total = 3}) == std::vector<std::string>{"a/keep accepted", "a/nofit accepted", "a/p3 accepted",
                                                        "b/p4 limit-total limit-total"});
    CHECK(run({.total = 1}, true) ==
          std::vector<std::string>{"a/keep dry-run framework dry run", "a/nofit limit-total limit-total",
                                   "a/p3 limit-total limit-total", "b/p4 limit-total limit-total"});

    SECTION("a new cycle starts with fresh counts") {
        kd::testing::FakeHost host;
        host.limits.total = 1;
        auto b = four_pods();
        auto plugin = host.instantiate<EvictEvery>();
        plugin.balance(b.build());
        plugin.balance(b.build());
        CHECK(host.evicted() == std::vector<std::string>{"a/keep", "a/keep"});
    }
    SECTION("an evict plugin cannot answer with a limit: it counts as a failure, as on the host") {
        kd::testing::FakeHost host;
        host.on_evict = [](const kd::Pod&) { return kd::EvictOutcome{KD_EVICT_LIMIT_TOTAL, {}, "made up"}; };
        auto b = four_pods();
        host.instantiate<EvictEvery>().balance(b.build());
        CHECK(outcomes(host)[0] == "a/keep failed made up");
    }
}

TEST_CASE("fake host of API 1.3: the SDK asks the PreEvictionFilter itself before evict", "[fake-host][evict]") {
    kd::testing::FakeHost host(3);
    std::vector<std::string> asked;
    host.on_pre_eviction_filter = [&](const kd::Pod& p) {
        asked.push_back(p.key());
        return p.name() == "nofit" ? kd::Verdict::reject("NodeFit") : kd::Verdict::allow();
    };
    auto b = four_pods();
    host.instantiate<EvictEvery>().balance(b.build());
    // Rejected before the request reaches the host: the fake records no request for it.
    CHECK(outcomes(host) == std::vector<std::string>{"a/keep accepted", "a/p3 accepted", "b/p4 accepted"});
    CHECK(asked == std::vector<std::string>{"a/keep", "a/nofit", "a/p3", "b/p4"});
    asked.clear();
    host.instantiate<EvictEvery>(R"({"skipPreEvictionFilter": true})").balance(b.build());
    CHECK(asked.empty());
}

TEST_CASE("fake host: a shipped filter plugin from its library joins the profile", "[fake-host][evict][library]") {
    const std::string lib_path = std::string(KDESCHED_PLUGIN_DIR) + "/kdesched_defaultevictor.so";
    kd::testing::PluginLibrary lib(lib_path);
    CHECK_THROWS_WITH(lib.descriptor("Nope"), Catch::Contains("has no plugin \"Nope\" (it has: DefaultEvictor)"));
    CHECK_THROWS_WITH(kd::testing::PluginLibrary("/nonexistent/x.so"),
                      Catch::Contains("cannot load plugin library /nonexistent/x.so"));

    kd::testing::FakeHost host;
    auto evictor = host.instantiate(lib.descriptor("DefaultEvictor"), R"({"nodeFit": true})", "test");
    host.add_filter_plugin(evictor);
    kd::testing::SnapshotBuilder b;
    b.node("n1").label("zone", "a").allocatable("cpu", "4").allocatable("memory", "8Gi").allocatable("pods", "10");
    b.node("n2").label("zone", "b").allocatable("cpu", "4").allocatable("memory", "8Gi").allocatable("pods", "10");
    b.pod("a", "pinned").on("n1").request("cpu", "1").owner("ReplicaSet", "rs").select_node("zone", "a");
    b.pod("a", "free").on("n1").request("cpu", "1").owner("ReplicaSet", "rs");
    b.pod("a", "bare").on("n1").request("cpu", "1");
    host.instantiate<EvictEvery>().balance(b.build());
    auto out = outcomes(host);
    REQUIRE(out.size() == 3);
    CHECK(out[0].rfind("a/pinned filtered DefaultEvictor ", 0) == 0);  // no other node in zone a
    CHECK(out[1] == "a/free accepted");
    CHECK(out[2].rfind("a/bare filtered DefaultEvictor ", 0) == 0);  // no controller
}
