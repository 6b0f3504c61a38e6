// The daemon's /metrics text as a strict exposition-format reader sees it: each family's type and
// label names, upstream's buckets, the dry-run and limit results of descheduler_pods_evicted_total,
// strategy durations by extension point, build_info from the build. And the reader itself refuses
// what Prometheus would misread, so a pass means something.
#include "cluster/cluster_model.hpp"
#include "daemon/metrics.hpp"
#include "exposition_reader.hpp"
#include "kube/watch/cluster_sync.hpp"
#include "kube/watch/model_feeder.hpp"
#include "runtime/eviction_limiter.hpp"

#include <catch2/catch.hpp>
#include <kdesched/testing.hpp>

#include <set>

using kd::core::daemon::DaemonMetrics;
using kd_test::ExpositionFamily;
using kd_test::ExpositionReader;

namespace {

std::set<std::string> label_names(const ExpositionFamily& f) {
    std::set<std::string> out;
    for (const auto& s : f.samples)
        for (const auto& [k, v] : s.labels) out.insert(k);
    return out;
}

const kd_test::ExpositionSample* find_sample(const ExpositionFamily& f, const std::string& name,
                                             const std::map<std::string, std::string>& labels) {
    for (const auto& s : f.samples) {
        if (s.name != name) continue;
        bool all = true;
        for (const auto& [k, v] : labels) all = all && s.labels.count(k) && s.labels.at(k) == v;
        if (all) return &s;
    }
    return nullptr;
}

double value_of(const ExpositionFamily& f, const std::string& name, const std::map<std::string, std::string>& labels) {
    const auto* s = find_sample(f, name, labels);
    REQUIRE(s);
    return s->value;
}

}  // namespace

TEST_CASE("metrics: /metrics reads strictly, every family has upstream's type and labels") {
    kd::testing::SnapshotBuilder b;
    b.node("n1");
    b.pod("shop", "web-1").on("n1");
    const kd_snapshot* snap = b.build();
    const kd_pod& pod = *snap->pods[0];

    DaemonMetrics m("koord-descheduler");
    m.on_pods_evicted("p", pod, "success", "LowNodeLoad", false);
    m.on_pods_evicted("p", pod, "success", "LowNodeLoad", true);
    m.on_pods_evicted("p", pod, "error", "PodLifeTime", false);
    m.on_pods_evicted("p", pod, kd::core::EvictionLimiter::metric_result(KD_EVICT_LIMIT_NODE), "LowNodeLoad", false);
    m.on_pod_picker_request("p", "MigrationController", "success");
    m.on_plugin_call("p", "LowNodeLoad", "balance", 0.0014);
    m.on_plugin_call("p", "MigrationController", "tick", 0.2);
    m.on_plugin_call("p", "MigrationController", "deschedule", 0.02);
    m.loop_duration(0.0014);
    m.api_request({"POST", "/api/v1/namespaces/shop/pods/web-1/eviction", 201, 0.01});
    m.api_request({"GET", "/api/v1/pods?watch=true", 200, 30});
    m.dry_run_write("eviction");
    m.set_leader(true);
    m.on_filter_rejection("p", "LowNodeLoad", pod, "DefaultEvictor", "DaemonSetPod");
    m.on_filter_rejection("p", "LowNodeLoad", pod, "DefaultEvictor", "DaemonSetPod");
    m.on_filter_rejection("p", "LowNodeLoad", pod, "ThirdParty", "pod web-1 is special, says the plugin");

    // What the control loop refreshes before a scrape: the model's objects by kind, the jobs by
    // phase, the reflectors' counters (never started here: a client that is never called).
    using namespace kd::core;
    ClusterModel model;
    PodMigrationJob job;
    job.uid = "job-1";
    job.name = "job-1";
    job.phase = "Running";
    model.on_migration_job(job);
    kube::Connection never_called;
    never_called.server = "http://127.0.0.1:9";
    kube::ApiClient client(never_called, kube::ClientOptions{});
    kube::ClusterSync sync(client);
    kube::ModelFeeder feeder(model);
    m.refresh(model, sync, feeder);

    std::string text = m.text();
    auto families = ExpositionReader::read(text);

    const std::map<std::string, std::string> types{
        {"descheduler_pods_evicted_total", "counter"},
        {"descheduler_pods_evicted", "counter"},
        {"descheduler_pod_picker_requests_total", "counter"},
        {"descheduler_loop_duration_seconds", "histogram"},
        {"descheduler_descheduler_loop_duration_seconds", "histogram"},
        {"descheduler_strategy_duration_seconds", "histogram"},
        {"descheduler_descheduler_strategy_duration_seconds", "histogram"},
        {"descheduler_build_info", "gauge"},
        {"kdesched_api_requests_total", "counter"},
        {"kdesched_api_request_duration_seconds", "histogram"},
        {"leader_election_master_status", "gauge"},
        {"kdesched_dry_run_writes_total", "counter"},
        {"kdesched_model_objects", "gauge"},
        {"kdesched_pod_migration_jobs", "gauge"},
        {"kdesched_watch_relists_total", "counter"},
        {"kdesched_watch_events_total", "counter"},
        {"process_resident_memory_bytes", "gauge"},
        {"process_cpu_seconds_total", "counter"},
        {"process_start_time_seconds", "gauge"},
        {"kdesched_filter_rejections_total", "counter"},
    };
    for (const auto& [name, type] : types) {
        INFO(name);
        REQUIRE(families.count(name));
        CHECK(families.at(name).type == type);
        CHECK_FALSE(families.at(name).help.empty());
        // A counter's name ends in _total, but for upstream's deprecated twin that never had it.
        if (type == "counter" && name != "descheduler_pods_evicted") CHECK(name.substr(name.size() - 6) == "_total");
    }
    CHECK(families.size() == types.size());  // a new family is added to this table, with its type

    using Labels = std::set<std::string>;
    const auto& evicted = families.at("descheduler_pods_evicted_total");
    CHECK(label_names(evicted) == Labels{"dry_run", "namespace", "node", "profile", "result", "strategy"});
    CHECK(label_names(families.at("descheduler_pods_evicted")) == label_names(evicted));
    CHECK(value_of(evicted, evicted.name, {{"result", "success"}, {"dry_run", "false"}, {"node", "n1"}}) == 1);
    CHECK(value_of(evicted, evicted.name, {{"result", "success"}, {"dry_run", "true"}, {"namespace", "shop"}}) == 1);
    CHECK(value_of(evicted, evicted.name,
                   {{"result", "maximum number of evicted pods per node reached"}, {"strategy", "LowNodeLoad"}}) == 1);
    CHECK(value_of(evicted, evicted.name, {{"result", "error"}, {"strategy", "PodLifeTime"}}) == 1);

    const auto& strategy = families.at("descheduler_strategy_duration_seconds");
    CHECK(label_names(strategy) == Labels{"extension_point", "le", "profile", "strategy"});
    CHECK(value_of(strategy, strategy.name + "_count",
                   {{"strategy", "MigrationController"}, {"extension_point", "tick"}}) == 1);
    CHECK(value_of(strategy, strategy.name + "_count",
                   {{"strategy", "MigrationController"}, {"extension_point", "deschedule"}}) == 1);

    // Upstream's loop buckets (metrics/metrics.go@v0.35.1) all present, three finer ones below: a
    // 1.4 ms cycle is told apart from a 9 ms one.
    const auto& loop = families.at("descheduler_loop_duration_seconds");
    CHECK(label_names(loop) == Labels{"le"});
    std::vector<std::string> les;
    for (const auto& s : loop.samples)
        if (s.name == loop.name + "_bucket") les.push_back(s.labels.at("le"));
    CHECK(les == std::vector<std::string>{"0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5",
                                          "1", "2.5", "5", "10", "25", "50", "100", "250", "500", "+Inf"});
    CHECK(value_of(loop, loop.name + "_bucket", {{"le", "0.001"}}) == 0);
    CHECK(value_of(loop, loop.name + "_bucket", {{"le", "0.0025"}}) == 1);
    const auto& strategy_les = families.at("descheduler_descheduler_strategy_duration_seconds");
    CHECK(find_sample(strategy_les, strategy_les.name + "_bucket", {{"le", "100"}}));
    CHECK_FALSE(find_sample(strategy_les, strategy_les.name + "_bucket", {{"le", "250"}}));

    const auto& info = families.at("descheduler_build_info");
    CHECK(label_names(info) ==
          Labels{"AppVersion", "DeschedulerVersion", "GitBranch", "GitSha1", "GoVersion", "Platform"});
    const auto& labels = info.samples.at(0).labels;
    CHECK(labels.at("AppVersion").find('.') != std::string::npos);
    CHECK(labels.at("DeschedulerVersion").rfind("v" + labels.at("AppVersion"), 0) == 0);
    CHECK_FALSE(labels.at("GitSha1").empty());
    CHECK(labels.at("Platform").rfind("linux/", 0) == 0);
    CHECK(labels.at("Platform") != "linux/x86_64");  // Go's spelling: amd64

    const auto& rejections = families.at("kdesched_filter_rejections_total");
    CHECK(label_names(rejections) == Labels{"plugin", "profile", "reason"});
    CHECK(value_of(rejections, rejections.name, {{"plugin", "DefaultEvictor"}, {"reason", "DaemonSetPod"}}) == 2);
    CHECK(value_of(rejections, rejections.name, {{"plugin", "ThirdParty"}, {"reason", "Other"}}) == 1);

    CHECK(label_names(families.at("kdesched_api_requests_total")) == Labels{"code", "resource", "verb"});
    CHECK(label_names(families.at("kdesched_api_request_duration_seconds")) == Labels{"le", "resource", "verb"});
    CHECK(value_of(families.at("leader_election_master_status"), "leader_election_master_status",
                   {{"name", "koord-descheduler"}}) == 1);
    CHECK(value_of(families.at("process_cpu_seconds_total"), "process_cpu_seconds_total", {}) >= 0);
    CHECK(value_of(families.at("kdesched_pod_migration_jobs"), "kdesched_pod_migration_jobs", {{"phase", "Running"}}) ==
          1);
    CHECK(value_of(families.at("kdesched_model_objects"), "kdesched_model_objects", {{"kind", "PodMigrationJob"}}) ==
          1);
    CHECK(value_of(families.at("kdesched_model_objects"), "kdesched_model_objects", {{"kind", "Pod"}}) == 0);
    CHECK(value_of(families.at("kdesched_watch_relists_total"), "kdesched_watch_relists_total", {{"kind", "Pod"}}) ==
          0);
}

TEST_CASE("metrics: a filter's reasons become at most kMaxReasonsPerPlugin codes, the rest Other") {
    using kd::core::daemon::kMaxReasonsPerPlugin;
    using kd::core::daemon::reason_label;
    CHECK(reason_label("MaxMigratingPerNode") == "MaxMigratingPerNode");
    CHECK(reason_label("node-fit:cpu") == "node-fit:cpu");
    CHECK(reason_label("") == "Other");
    CHECK(reason_label("has spaces") == "Other");
    CHECK(reason_label(std::string(kd::core::daemon::kMaxReasonLength + 1, 'a')) == "Other");

    kd::testing::SnapshotBuilder b;
    b.pod("ns", "p");
    const kd_snapshot* snap = b.build();
    DaemonMetrics m("l");
    for (size_t i = 0; i < kMaxReasonsPerPlugin + 10; ++i)
        m.on_filter_rejection("p", "X", *snap->pods[0], "F", "Code" + std::to_string(i));
    auto families = ExpositionReader::read(m.text());
    const auto& f = families.at("kdesched_filter_rejections_total");
    CHECK(f.samples.size() == kMaxReasonsPerPlugin + 1);
    CHECK(value_of(f, f.name, {{"reason", "Other"}}) == 10);
    CHECK(value_of(f, f.name, {{"reason", "Code0"}}) == 1);
}

TEST_CASE("metrics: process_cpu_seconds_total only rises between scrapes") {
    DaemonMetrics m("l");
    double first = 0;
    for (int i = 0; i < 3; ++i) {
        volatile double spin = 0;
        for (int k = 0; k < 2000000; ++k) spin = spin + k;
        auto families = ExpositionReader::read(m.text());
        double now = families.at("process_cpu_seconds_total").samples.at(0).value;
        CHECK(now >= first);
        first = now;
    }
    CHECK(first > 0);
}

TEST_CASE("metrics: the exposition reader refuses what a scrape would misread") {
    auto refused = [](const std::string& text) {
        try {
            ExpositionReader::read(text);
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(refused("# TYPE a counter\na 1\n").empty());
    CHECK_THAT(refused("a 1\n"), Catch::Contains("line 1: sample a has no # TYPE line"));
    CHECK_THAT(refused("# TYPE a counter\na 1\na 2\n"), Catch::Contains("line 3: series a appears twice"));
    CHECK_THAT(refused("# TYPE a counter\na -1\n"), Catch::Contains("negative"));
    CHECK_THAT(refused("# TYPE a gauge\na{x=\"1\\t\"} 1\n"), Catch::Contains("no escape"));
    CHECK_THAT(refused("# TYPE a gauge\na{x=1} 1\n"), Catch::Contains("not quoted"));
    CHECK_THAT(refused("# TYPE a gauge\na 1\n# TYPE b gauge\nb 1\na{x=\"1\"} 2\n"),
               Catch::Contains("line 5: sample a does not belong"));
    CHECK_THAT(refused("# TYPE a gauge\na 1\n# TYPE a gauge\n"), Catch::Contains("a second TYPE"));
    CHECK_THAT(refused("# TYPE a gauge\na one\n"), Catch::Contains("not a sample value"));
    CHECK_THAT(refused("# TYPE a gauge\na 1"), Catch::Contains("does not end with a newline"));
    const std::string h = "# TYPE h histogram\n";
    CHECK(refused(h + "h_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_sum 3\nh_count 2\n").empty());
    CHECK_THAT(refused(h + "h_bucket{le=\"1\"} 3\nh_bucket{le=\"+Inf\"} 2\nh_sum 3\nh_count 2\n"),
               Catch::Contains("do not rise"));
    CHECK_THAT(refused(h + "h_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_sum 3\nh_count 5\n"),
               Catch::Contains("+Inf holding _count"));
    CHECK_THAT(refused(h + "h_bucket{le=\"+Inf\"} 2\nh_count 2\n"), Catch::Contains("lacks buckets, _sum or _count"));
    CHECK_THAT(refused(h + "h 1\n"), Catch::Contains("does not belong to the histogram family h"));
}
