// The extension-point runtime: building profiles, the evictor proxy's order and limits, the cycle.
#include "config/configuration.hpp"
#include "error.hpp"
#include "loader/plugin_catalog.hpp"
#include "recording_backend.hpp"
#include "runtime/descheduler.hpp"

#include <kdesched/plugin.hpp>
#include <kdesched/testing.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <filesystem>

namespace fs = std::filesystem;
using namespace kd::core;

namespace {

// Everything the in-process plugins below observed, in order.
std::vector<std::string> g_trace;

// Evict plugin that records every pod it is asked to evict; refuses pods named "refuse-*".
class RecordingEvict {
public:
    static constexpr const char* kName = "RecordingEvict";
    static constexpr const char* kVersion = "1.0.0";
    RecordingEvict(kd::Host&, kd::NoArgs) {}
    kd::EvictOutcome evict(kd::Cycle&, const kd::Pod& pod, const kd::EvictRequest& req) {
        g_trace.push_back("evict " + pod.key() + " by " + std::string(req.plugin) + ": " + std::string(req.reason));
        if (pod.name().rfind("refuse", 0) == 0) return kd::EvictOutcome::failed("refused by test");
        return kd::EvictOutcome::accepted();
    }
};

// A second evict plugin, to test "only one evict plugin".
class OtherEvict : public RecordingEvict {
public:
    static constexpr const char* kName = "OtherEvict";
    using RecordingEvict::RecordingEvict;
};

// Filter that rejects pods labelled keep=true and records what it was asked.
class KeepFilter {
public:
    static constexpr const char* kName = "KeepFilter";
    static constexpr const char* kVersion = "1.0.0";
    KeepFilter(kd::Host&, kd::NoArgs) {}
    kd::Verdict filter(kd::Cycle&, const kd::Pod& pod) {
        g_trace.push_back("filter " + pod.key());
        return pod.labels().get("keep") == "true" ? kd::Verdict::reject("KeepLabel") : kd::Verdict::allow();
    }
    kd::Verdict pre_eviction_filter(kd::Cycle&, const kd::Pod& pod) {
        g_trace.push_back("pre-eviction " + pod.key());
        return pod.name() == "nofit" ? kd::Verdict::reject("NodeFit") : kd::Verdict::allow();
    }
};

// Balance plugin that asks to evict every pod on its nodes and records each outcome.
struct EvictAllArgs {
    std::string tag = "a";
    bool skipPreEvictionFilter = false;
    template <class V>
    void fields(V& v) {
        v("tag", tag);
        v("skipPreEvictionFilter", skipPreEvictionFilter);
    }
};
class EvictAll {
public:
    static constexpr const char* kName = "EvictAll";
    static constexpr const char* kVersion = "1.0.0";
    using Args = EvictAllArgs;
    EvictAll(kd::Host& host, Args a)
        : profile_(host.profile()), tag_(a.tag), options_{.pre_eviction_filter = !a.skipPreEvictionFilter} {}
    void balance(kd::Cycle& c) {
        g_trace.push_back("balance " + profile_ + " " + tag_);
        for (auto n : c.snapshot().nodes())
            for (auto p : c.snapshot().pods_on_node(n.name())) {
                auto r = c.evict(p, "because " + tag_, options_);
                g_trace.push_back("outcome " + p.key() + " " + kd::evict_code_name(r.code) +
                                  (r.plugin.empty() ? "" : " " + r.plugin) + (r.reason.empty() ? "" : " " + r.reason));
            }
    }
    void deschedule(kd::Cycle&) { g_trace.push_back("deschedule " + profile_ + " " + tag_); }

private:
    std::string profile_, tag_;
    kd::EvictOptions options_;
};

// Evict plugin with periodic work: records each tick and asks for the next one 500 ms later,
// or throws when the clock reaches 1'000'000.
class Ticker {
public:
    static constexpr const char* kName = "Ticker";
    static constexpr const char* kVersion = "1.0.0";
    Ticker(kd::Host& host, kd::NoArgs) : id_(host.instance_id()) {}
    kd::EvictOutcome evict(kd::Cycle&, const kd::Pod&, const kd::EvictRequest&) { return kd::EvictOutcome::accepted(); }
    int64_t tick(kd::Cycle& c) {
        g_trace.push_back("tick " + id_ + " at " + std::to_string(c.now_ms()) + " on " +
                          std::to_string(c.snapshot().nodes().size()) + " nodes");
        if (c.now_ms() >= 1'000'000) throw std::runtime_error("tick failed at " + std::to_string(c.now_ms()));
        return c.now_ms() + 500;
    }

private:
    std::string id_;
};

// An EvictionRecord kept past the callback (the record's views are not).
struct Recorded {
    std::string profile, requested_by, pod, node, reason;
    kd_evict_code code;
    std::string decided_by, detail;
};

struct RecordingObserver : RunObserver {
    std::vector<Recorded> records;
    std::vector<std::string> counted;  // on_pods_evicted: "<pod> <result> <strategy>"
    void on_pods_evicted(std::string_view, const kd_pod& pod, std::string_view result, std::string_view strategy,
                         bool dry_run) override {
        counted.push_back(kd::Pod(&pod).key() + " " + std::string(result) + " " + std::string(strategy) +
                          (dry_run ? " dry-run" : ""));
    }
    void on_eviction(const EvictionRecord& r) override {
        kd::Pod p(r.pod);
        records.push_back({std::string(r.profile), std::string(r.requested_by), p.key(), std::string(p.node_name()),
                           std::string(r.reason), r.code, std::string(r.decided_by), std::string(r.detail)});
    }
};

PluginCatalog catalog_with_fixtures() {
    PluginCatalog c;
    c.add_in_process(kd::module<RecordingEvict, OtherEvict, KeepFilter, EvictAll, Ticker>("runtime-test"));
    c.load({fs::path(KDESCHED_FIXTURE_PLUGIN_ROOT) / "behaviour"});
    return c;
}

DeschedulerConfiguration config(const std::string& body) {
    return parse_configuration("apiVersion: descheduler/v1alpha2\nkind: DeschedulerConfiguration\n" + body,
                               "test.yaml");
}

std::string build_error(const std::string& body) {
    auto cat = catalog_with_fixtures();
    try {
        Descheduler d(config(body), cat, nullptr, nullptr);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

// Two nodes, pods a..d on n1 (c labelled keep), e on n2.
const kd_snapshot* cluster(kd::testing::SnapshotBuilder& b) {
    b.node("n1").label("pool", "blue");
    b.node("n2").label("pool", "green");
    b.pod("ns1", "a").on("n1");
    b.pod("ns1", "b").on("n1");
    b.pod("ns1", "c").on("n1").label("keep", "true");
    b.pod("ns1", "d").on("n1");
    b.pod("ns2", "e").on("n2");
    return b.build();
}

const char* kEvictAllProfile = R"(profiles:
- name: p
  plugins:
    balance: {enabled: [{name: EvictAll}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: RecordingEvict}]}
    filter: {disabled: [{name: "*"}], enabled: [{name: KeepFilter}]}
)";

}  // namespace

TEST_CASE("the evictor proxy runs Filter, PreEvictionFilter, then the evict plugin, and reports who decided",
          "[runtime][proxy]") {
    g_trace.clear();
    auto cat = catalog_with_fixtures();
    RecordingObserver obs;
    Descheduler d(config(kEvictAllProfile), cat, nullptr, &obs);
    kd::testing::SnapshotBuilder b;
    REQUIRE_FALSE(d.run_cycle(*cluster(b)));
    std::vector<std::string> expected = {"balance p a",
                                         "filter ns1/a",
                                         "pre-eviction ns1/a",
                                         "evict ns1/a by EvictAll: because a",
                                         "outcome ns1/a accepted RecordingEvict",
                                         "filter ns1/b",
                                         "pre-eviction ns1/b",
                                         "evict ns1/b by EvictAll: because a",
                                         "outcome ns1/b accepted RecordingEvict",
                                         "filter ns1/c",
                                         "outcome ns1/c filtered KeepFilter KeepLabel",
                                         "filter ns1/d",
                                         "pre-eviction ns1/d",
                                         "evict ns1/d by EvictAll: because a",
                                         "outcome ns1/d accepted RecordingEvict",
                                         "filter ns2/e",
                                         "pre-eviction ns2/e",
                                         "evict ns2/e by EvictAll: because a",
                                         "outcome ns2/e accepted RecordingEvict"};
    CHECK(g_trace == expected);
    REQUIRE(obs.records.size() == 5);
    CHECK(obs.records[2].pod == "ns1/c");
    CHECK(obs.records[2].code == KD_EVICT_FILTERED);
    CHECK(obs.records[2].decided_by == "KeepFilter");
    CHECK(obs.records[2].requested_by == "EvictAll");
    CHECK(obs.records[0].node == "n1");
    CHECK(obs.records[0].reason == "because a");
}

namespace {

// A plugin of API 1.3 or older calling kd_host.evict: its kd_evict_options end before `flags`.
const kd_host* g_old_host = nullptr;
kd_plugin_descriptor g_old_plugin;
kd_status old_plugin_balance(kd_plugin_instance*, const kd_call* call, kd_error_sink*) {
    kd::Snapshot snap(call->snapshot);
    for (auto p : snap.pods()) {
        kd_evict_options o{};
        o.struct_size = offsetof(kd_evict_options, flags);
        o.reason = kd::to_kd("old plugin");
        kd_evict_result r{sizeof(kd_evict_result), KD_EVICT_FAILED, {}, {}};
        g_old_host->evict(g_old_host, call, p.raw(), &o, &r);
        g_trace.push_back("outcome " + p.key() + " " + kd::evict_code_name(static_cast<kd_evict_code>(r.code)) + " " +
                          std::string(kd::sv(r.plugin)) + " " + std::string(kd::sv(r.reason)));
    }
    return KD_OK;
}
kd_status old_plugin_create(const kd_host* host, const kd_create_info* info, const char* args, size_t size,
                            kd_plugin_instance** out, kd_error_sink* err) {
    g_old_host = host;
    return kd::descriptor<EvictAll>()->create(host, info, args, size, out, err);
}
const kd_module* old_plugin_module() {
    static const kd_plugin_descriptor* plugins[] = {&g_old_plugin};
    static kd_module m{sizeof(kd_module), {KD_API_VERSION_MAJOR, 3, 0}, "old-plugin", plugins, 1};
    g_old_plugin = *kd::descriptor<EvictAll>();
    g_old_plugin.name = "OldEvictAll";
    g_old_plugin.create = &old_plugin_create;
    g_old_plugin.balance = &old_plugin_balance;
    return &m;
}

std::vector<std::string> pre_eviction_trace(const std::string& balance_plugin, const std::string& args) {
    g_trace.clear();
    auto cat = catalog_with_fixtures();
    cat.add_in_process(old_plugin_module());
    RecordingObserver obs;
    Descheduler d(config(R"(profiles:
- name: p
  pluginConfig: [{name: )" +
                         balance_plugin + ", args: " + args + R"(}]
  plugins:
    balance: {enabled: [{name: )" +
                         balance_plugin + R"(}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: RecordingEvict}]}
    filter: {disabled: [{name: "*"}], enabled: [{name: KeepFilter}]}
)"),
                  cat, nullptr, &obs);
    kd::testing::SnapshotBuilder b;
    b.node("n1");
    b.node("n2");
    b.pod("ns", "nofit").on("n1");
    b.pod("ns", "fits").on("n1");
    REQUIRE_FALSE(d.run_cycle(*b.build()));
    std::vector<std::string> out;
    for (auto& line : g_trace)
        if (line.rfind("outcome", 0) == 0) out.push_back(line);
    return out;
}

}  // namespace

TEST_CASE("evict runs the profile's PreEvictionFilter unless the request skips it (API 1.4)", "[runtime][proxy]") {
    // The default: a pod no other node takes is refused, naming the filter and its reason.
    CHECK(pre_eviction_trace("EvictAll", "{}") ==
          std::vector<std::string>{"outcome ns/nofit filtered KeepFilter NodeFit",
                                   "outcome ns/fits accepted RecordingEvict"});
    CHECK(std::count(g_trace.begin(), g_trace.end(), "pre-eviction ns/nofit") == 1);
    // Skipped on request (a port of a plugin that never calls it): not even asked.
    CHECK(pre_eviction_trace("EvictAll", "{skipPreEvictionFilter: true}") ==
          std::vector<std::string>{"outcome ns/nofit accepted RecordingEvict",
                                   "outcome ns/fits accepted RecordingEvict"});
    CHECK(std::count(g_trace.begin(), g_trace.end(), "pre-eviction ns/nofit") == 0);
    // A plugin built before 1.4 sends no flags: it gets the safe default.
    CHECK(pre_eviction_trace("OldEvictAll", "{}") ==
          std::vector<std::string>{"outcome ns/nofit filtered KeepFilter NodeFit",
                                   "outcome ns/fits accepted RecordingEvict "});
    CHECK(std::count(g_trace.begin(), g_trace.end(), "evict ns/fits by OldEvictAll: old plugin") == 1);
}

TEST_CASE("a profile with its own pre-eviction list (a DeschedulerPolicy's) asks only those plugins before evicting",
          "[runtime][proxy]") {
    auto outcomes = [](std::vector<std::string> filters, std::vector<std::string> pre_eviction) {
        g_trace.clear();
        auto cat = catalog_with_fixtures();
        DeschedulerConfiguration c = config(R"(profiles:
- name: p
  plugins:
    balance: {enabled: [{name: EvictAll}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: RecordingEvict}]}
    filter: {disabled: [{name: "*"}]}
)");
        for (const auto& f : filters) c.profiles[0].plugins.filter.push_back({f, {}});
        c.profiles[0].plugins.preEvictionFilter.emplace();
        for (const auto& f : pre_eviction) c.profiles[0].plugins.preEvictionFilter->push_back({f, {}});
        RecordingObserver obs;
        Descheduler d(c, cat, nullptr, &obs);
        kd::testing::SnapshotBuilder b;
        b.node("n1");
        b.node("n2");
        b.pod("ns", "nofit").on("n1");
        b.pod("ns", "keep").on("n1").label("keep", "true");
        REQUIRE_FALSE(d.run_cycle(*b.build()));
        std::vector<std::string> out;
        for (auto& r : obs.records) out.push_back(r.pod + " " + kd::evict_code_name(r.code));
        return out;
    };
    // Filter only: its Filter refuses "keep"; its PreEvictionFilter is never asked.
    CHECK(outcomes({"KeepFilter"}, {}) == std::vector<std::string>{"ns/nofit accepted", "ns/keep filtered"});
    CHECK(std::count(g_trace.begin(), g_trace.end(), "pre-eviction ns/nofit") == 0);
    // Pre-eviction only: its PreEvictionFilter refuses "nofit"; its Filter is never asked.
    CHECK(outcomes({}, {"KeepFilter"}) == std::vector<std::string>{"ns/nofit filtered", "ns/keep accepted"});
    CHECK(std::count(g_trace.begin(), g_trace.end(), "filter ns/keep") == 0);
}

TEST_CASE("per-node, per-namespace and total limits stop evictions after the filters", "[runtime][proxy]") {
    auto outcomes = [](const std::string& limits) {
        g_trace.clear();
        auto cat = catalog_with_fixtures();
        RecordingObserver obs;
        Descheduler d(config(limits + kEvictAllProfile), cat, nullptr, &obs);
        kd::testing::SnapshotBuilder b;
        REQUIRE_FALSE(d.run_cycle(*cluster(b)));
        std::vector<std::string> out;
        for (auto& r : obs.records) out.push_back(r.pod + " " + kd::evict_code_name(r.code));
        return out;
    };
    CHECK(outcomes("maxNoOfPodsToEvictPerNode: 2\n") == std::vector<std::string>{"ns1/a accepted", "ns1/b accepted",
                                                                                 "ns1/c filtered", "ns1/d limit-node",
                                                                                 "ns2/e accepted"});
    CHECK(outcomes("maxNoOfPodsToEvictPerNamespace: 1\n") ==
          std::vector<std::string>{"ns1/a accepted", "ns1/b limit-namespace", "ns1/c filtered", "ns1/d limit-namespace",
                                   "ns2/e accepted"});
    CHECK(outcomes("maxNoOfPodsToEvictTotal: 2\n") == std::vector<std::string>{"ns1/a accepted", "ns1/b accepted",
                                                                               "ns1/c filtered", "ns1/d limit-total",
                                                                               "ns2/e limit-total"});
}

TEST_CASE("framework dry run counts against the limits but never calls the evict plugin", "[runtime][proxy]") {
    g_trace.clear();
    auto cat = catalog_with_fixtures();
    RecordingObserver obs;
    Descheduler d(config(std::string("dryRun: true\nmaxNoOfPodsToEvictPerNode: 1\n") + kEvictAllProfile), cat, nullptr,
                  &obs);
    kd::testing::SnapshotBuilder b;
    REQUIRE_FALSE(d.run_cycle(*cluster(b)));
    std::vector<std::string> out;
    for (auto& r : obs.records) out.push_back(r.pod + " " + kd::evict_code_name(r.code));
    CHECK(out == std::vector<std::string>{"ns1/a dry-run", "ns1/b limit-node", "ns1/c filtered", "ns1/d limit-node",
                                          "ns2/e dry-run"});
    // The would-be evictions count as successes in descheduler_pods_evicted_total, and the ones a
    // limit stopped under the limit's words, as upstream's; a filtered pod is not counted.
    CHECK(obs.counted ==
          std::vector<std::string>{"ns1/a success EvictAll dry-run",
                                   "ns1/b maximum number of evicted pods per node reached EvictAll dry-run",
                                   "ns1/d maximum number of evicted pods per node reached EvictAll dry-run",
                                   "ns2/e success EvictAll dry-run"});
    for (auto& t : g_trace) CHECK(t.rfind("evict ", 0) != 0);
}

namespace {
// n1 holds refuse-1 (RecordingEvict refuses it) and ok-1, n2 holds ok-2.
kd::testing::SnapshotBuilder& refusal_cluster(kd::testing::SnapshotBuilder& b) {
    b.node("n1");
    b.node("n2");
    b.pod("ns", "refuse-1").on("n1");
    b.pod("ns", "ok-1").on("n1");
    b.pod("ns", "ok-2").on("n2");
    return b;
}
}  // namespace

TEST_CASE("a refused eviction is not counted and limits reset every cycle", "[runtime][proxy]") {
    auto cat = catalog_with_fixtures();
    RecordingObserver obs;
    Descheduler d(config(std::string("maxNoOfPodsToEvictTotal: 1\n") + kEvictAllProfile), cat, nullptr, &obs);
    kd::testing::SnapshotBuilder b;
    const kd_snapshot* s = refusal_cluster(b).build();
    REQUIRE_FALSE(d.run_cycle(*s));
    REQUIRE_FALSE(d.run_cycle(*s));
    std::vector<std::string> out;
    for (auto& r : obs.records) out.push_back(r.pod + " " + kd::evict_code_name(r.code) + " " + r.detail);
    CHECK(out == std::vector<std::string>{"ns/refuse-1 failed refused by test", "ns/ok-1 accepted ",
                                          "ns/ok-2 limit-total limit-total", "ns/refuse-1 failed refused by test",
                                          "ns/ok-1 accepted ", "ns/ok-2 limit-total limit-total"});
}

TEST_CASE("evictionFailureEventNotification: a Warning Event for each eviction a limit stops or that fails",
          "[runtime][proxy]") {
    auto warnings = [](const std::string& head, bool notify) {
        auto cat = catalog_with_fixtures();
        RecordingBackend backend;
        auto c = config(head + "maxNoOfPodsToEvictTotal: 1\n" + kEvictAllProfile);
        c.evictionFailureEventNotification = notify;
        Descheduler d(c, cat, &backend, nullptr);
        kd::testing::SnapshotBuilder b;
        refusal_cluster(b).pod("ns", "keep").on("n2").label("keep", "true");
        REQUIRE_FALSE(d.run_cycle(*b.build()));
        std::vector<std::string> out;
        for (const auto& e : backend.events)
            if (e.rfind("Warning ", 0) == 0) out.push_back(e);
        return out;
    };
    // Upstream's words (pkg/descheduler/evictions/evictions.go@v0.35.1) with kdesched as the actor;
    // a pod a filter keeps is no failure.
    CHECK(warnings("", true) ==
          std::vector<std::string>{
              "Warning EvictionFailed Pod ns/refuse-1: pod eviction from n1 node by kdesched failed: refused by test",
              "Warning EvictionFailed Pod ns/ok-2: pod eviction from n2 node by kdesched failed: total eviction "
              "limit exceeded (1)"});
    CHECK(warnings("", false).empty());
    CHECK(warnings("dryRun: true\n", true).empty());  // upstream's dry run sends its events nowhere
}

TEST_CASE("a cycle runs deschedule for every profile, then balance, in file order", "[runtime][cycle]") {
    g_trace.clear();
    auto cat = catalog_with_fixtures();
    const char* two = R"(profiles:
- name: second-in-name-first-in-file
  plugins:
    deschedule: {enabled: [{name: EvictAll}]}
    balance: {enabled: [{name: EvictAll}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: RecordingEvict}]}
    filter: {disabled: [{name: "*"}]}
- name: another
  plugins:
    deschedule: {enabled: [{name: EvictAll}]}
    balance: {enabled: [{name: EvictAll}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: RecordingEvict}]}
    filter: {disabled: [{name: "*"}]}
)";
    Descheduler d(config(two), cat, nullptr, nullptr);
    kd::testing::SnapshotBuilder b;
    b.node("n1");
    b.node("n2");
    REQUIRE_FALSE(d.run_cycle(*b.build()));
    CHECK(g_trace == std::vector<std::string>{"deschedule second-in-name-first-in-file a", "deschedule another a",
                                              "balance second-in-name-first-in-file a", "balance another a"});
}

TEST_CASE("a cycle with at most one ready node is skipped", "[runtime][cycle]") {
    g_trace.clear();
    auto cat = catalog_with_fixtures();
    Descheduler d(config(kEvictAllProfile), cat, nullptr, nullptr);
    kd::testing::SnapshotBuilder b;
    b.node("n1");
    b.node("n2").not_ready();
    auto err = d.run_cycle(*b.build());
    REQUIRE(err);
    CHECK(*err == "the cluster size is 0 or 1 (1 ready node(s) selected)");
    CHECK(g_trace.empty());
}

TEST_CASE("profile and global node selectors narrow the nodes a plugin gets", "[runtime][cycle]") {
    g_trace.clear();
    auto cat = catalog_with_fixtures();
    RecordingObserver obs;
    std::string body = std::string(kEvictAllProfile) + "  nodeSelector: {matchLabels: {pool: green}}\n";
    Descheduler d(config(body), cat, nullptr, &obs);
    kd::testing::SnapshotBuilder b;
    REQUIRE_FALSE(d.run_cycle(*cluster(b)));
    REQUIRE(obs.records.size() == 1);
    CHECK(obs.records[0].pod == "ns2/e");
}

TEST_CASE("a DeschedulerPolicy's text node selector narrows the cycle's nodes, numeric comparisons included",
          "[runtime][cycle][policy]") {
    g_trace.clear();
    auto cat = catalog_with_fixtures();
    RecordingObserver obs;
    DeschedulerConfiguration cfg = config(kEvictAllProfile);
    cfg.nodeSelectorText = DeschedulerConfiguration::TextSelector{
        "pool!=blue,cores>4", *kd::StringLabelSelector::parse("pool!=blue,cores>4", nullptr)};
    Descheduler d(cfg, cat, nullptr, &obs);
    kd::testing::SnapshotBuilder b;
    b.node("n1").label("pool", "blue").label("cores", "16");
    b.node("n2").label("pool", "green").label("cores", "8");
    b.node("n3").label("cores", "32");
    b.node("n4").label("pool", "green").label("cores", "2");
    for (const char* n : {"n1", "n2", "n3", "n4"}) b.pod("ns2", std::string("p-") + n).on(n);
    REQUIRE_FALSE(d.run_cycle(*b.build()));
    std::vector<std::string> evicted;
    for (const auto& r : obs.records) evicted.push_back(r.pod);
    CHECK(evicted == std::vector<std::string>{"ns2/p-n2", "ns2/p-n3"});
}

TEST_CASE("profile problems are collected with their locations", "[runtime][build]") {
    SECTION("unknown plugin") {
        auto msg = build_error(R"(profiles:
- name: p
  plugins:
    balance: {enabled: [{name: NoSuchPlugin}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: RecordingEvict}]}
    filter: {disabled: [{name: "*"}]}
)");
        CHECK_THAT(msg, Catch::Contains("test.yaml:6:25: profile \"p\": plugin \"NoSuchPlugin\" does not exist"));
    }
    SECTION("hook missing for an enabled point") {
        auto msg = build_error(R"(profiles:
- name: p
  plugins:
    balance: {enabled: [{name: FilterOnly}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: RecordingEvict}]}
    filter: {disabled: [{name: "*"}]}
)");
        CHECK_THAT(msg, Catch::Contains("plugin \"FilterOnly\" does not extend balance (it implements filter)"));
    }
    SECTION("same plugin twice at one point") {
        auto msg = build_error(R"(profiles:
- name: p
  plugins:
    balance: {enabled: [{name: EvictAll}, {name: EvictAll}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: RecordingEvict}]}
    filter: {disabled: [{name: "*"}]}
)");
        CHECK_THAT(msg, Catch::Contains("plugin \"EvictAll\" already registered at balance"));
    }
    SECTION("no evict plugin, and two evict plugins, in two profiles at once") {
        auto msg = build_error(R"(profiles:
- name: none
  plugins:
    evict: {disabled: [{name: "*"}]}
    filter: {disabled: [{name: "*"}]}
- name: two
  plugins:
    evict: {disabled: [{name: "*"}], enabled: [{name: RecordingEvict}, {name: OtherEvict}]}
    filter: {disabled: [{name: "*"}]}
)");
        CHECK_THAT(msg, Catch::Contains("profile \"none\": no evict plugin is enabled"));
        CHECK_THAT(msg, Catch::Contains("profile \"two\": only one evict plugin can be enabled (found 2)"));
    }
    SECTION("create fails: the plugin's field-path message points at the args line") {
        auto msg = build_error(R"(profiles:
- name: p
  plugins:
    balance: {enabled: [{name: CreateFails}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: RecordingEvict}]}
    filter: {disabled: [{name: "*"}]}
  pluginConfig:
  - name: CreateFails
    args:
      threshold: 0
)");
        CHECK_THAT(msg,
                   Catch::Contains(
                       "test.yaml:12:18: profile \"p\": plugin \"CreateFails\" args: threshold: must be > 0 (got 0)"));
    }
    SECTION("args the plugin does not know") {
        auto msg = build_error(R"(profiles:
- name: p
  plugins:
    balance: {enabled: [{name: EvictAll}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: RecordingEvict}]}
    filter: {disabled: [{name: "*"}]}
  pluginConfig:
  - name: EvictAll
    args:
      tga: x
)");
        CHECK_THAT(msg, Catch::Contains(
                            "plugin \"EvictAll\" args: tga: unknown field (known fields: tag, skipPreEvictionFilter)"));
    }
}

TEST_CASE("a hook that throws fails its profile's cycle with the message — later plugins still run",
          "[runtime][hooks]") {
    g_trace.clear();
    auto cat = catalog_with_fixtures();
    Descheduler d(config(R"(profiles:
- name: p
  plugins:
    balance: {enabled: [{name: ThrowsInHook}, {name: EvictAll}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: RecordingEvict}]}
    filter: {disabled: [{name: "*"}]}
)"),
                  cat, nullptr, nullptr);
    kd::testing::SnapshotBuilder b;
    b.node("n1");
    b.node("n2");
    auto err = d.run_cycle(*b.build());
    REQUIRE(err);
    CHECK(*err == "profile \"p\" balance: ThrowsInHook: balance exploded");
    CHECK(g_trace == std::vector<std::string>{"balance p a"});
}

TEST_CASE("a filter that throws rejects the pod (fail closed) and says why", "[runtime][hooks]") {
    auto cat = catalog_with_fixtures();
    RecordingObserver obs;
    Descheduler d(config(R"(profiles:
- name: p
  plugins:
    balance: {enabled: [{name: EvictAll}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: RecordingEvict}]}
    filter: {disabled: [{name: "*"}], enabled: [{name: ThrowsInHook}]}
)"),
                  cat, nullptr, &obs);
    kd::testing::SnapshotBuilder b;
    b.node("n1");
    b.node("n2");
    b.pod("ns", "explode").on("n1");
    b.pod("ns", "fine").on("n2");
    REQUIRE_FALSE(d.run_cycle(*b.build()));
    REQUIRE(obs.records.size() == 2);
    CHECK(obs.records[0].code == KD_EVICT_FILTERED);
    CHECK(obs.records[0].decided_by == "ThrowsInHook");
    CHECK(obs.records[0].detail == "error: filter exploded");
    // The other pod passes Filter; evict() then runs the PreEvictionFilter (API 1.4), which throws
    // (42, not a std::exception): rejected too, saying so.
    CHECK(obs.records[1].code == KD_EVICT_FILTERED);
    CHECK(obs.records[1].decided_by == "ThrowsInHook");
    CHECK(obs.records[1].detail == "error: unknown exception (not derived from std::exception)");
}

TEST_CASE("periodic work: only plugins with a tick hook run, with a stable identity, and the earliest ask wins",
          "[runtime][tick]") {
    g_trace.clear();
    auto cat = catalog_with_fixtures();
    Descheduler d(config(R"(leaderElection:
  resourceNamespace: ops
  resourceName: desched
profiles:
- name: first
  plugins:
    evict: {disabled: [{name: "*"}], enabled: [{name: Ticker}]}
    filter: {disabled: [{name: "*"}]}
- name: second
  plugins:
    evict: {disabled: [{name: "*"}], enabled: [{name: RecordingEvict}]}
    filter: {disabled: [{name: "*"}]}
)"),
                  cat, nullptr, nullptr);
    kd::testing::SnapshotBuilder b(4'000);
    Descheduler::TickResult r = d.tick(*cluster(b));
    CHECK_FALSE(r.error);
    CHECK(r.next_ms == 4'500);
    CHECK(g_trace == std::vector<std::string>{"tick ops/desched/first at 4000 on 2 nodes"});

    g_trace.clear();
    kd::testing::SnapshotBuilder late(1'000'000);
    r = d.tick(*cluster(late));
    REQUIRE(r.error);
    CHECK(*r.error == "profile \"first\" tick: Ticker: tick failed at 1000000");
    CHECK(r.next_ms == 0);
}

namespace {

// What kd_create_info.metrics_sources a plugin received (API 1.8); 99 = not created.
uint32_t g_metrics_sources = 99;
kd_plugin_descriptor g_metrics_probe;
kd_status metrics_probe_create(const kd_host* host, const kd_create_info* info, const char* args, size_t size,
                               kd_plugin_instance** out, kd_error_sink* err) {
    g_metrics_sources = kd::Host(host, info).collects_kubernetes_metrics() ? KD_METRICS_KUBERNETES : 0;
    return kd::descriptor<EvictAll>()->create(host, info, args, size, out, err);
}
const kd_module* metrics_probe_module() {
    static const kd_plugin_descriptor* plugins[] = {&g_metrics_probe};
    static kd_module m{sizeof(kd_module), {KD_API_VERSION_MAJOR, KD_API_VERSION_MINOR, 0}, "metrics-probe", plugins, 1};
    g_metrics_probe = *kd::descriptor<EvictAll>();
    g_metrics_probe.name = "MetricsProbe";
    g_metrics_probe.create = &metrics_probe_create;
    return &m;
}

}  // namespace

TEST_CASE("plugins learn at creation whether the run keeps metrics.k8s.io usage (API 1.8)", "[runtime][metrics]") {
    for (bool collected : {false, true}) {
        auto cat = catalog_with_fixtures();
        cat.add_in_process(metrics_probe_module());
        DeschedulerConfiguration c = config(R"(profiles:
- name: p
  pluginConfig: [{name: MetricsProbe, args: {}}]
  plugins:
    balance: {enabled: [{name: MetricsProbe}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: RecordingEvict}]}
    filter: {disabled: [{name: "*"}], enabled: [{name: KeepFilter}]}
)");
        c.kubernetesMetrics = collected;
        g_metrics_sources = 99;
        Descheduler d(c, cat, nullptr, nullptr);
        CHECK(g_metrics_sources == (collected ? uint32_t(KD_METRICS_KUBERNETES) : 0u));
    }
}
