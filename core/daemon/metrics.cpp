#include "daemon/metrics.hpp"

#include "daemon/build_info.hpp"

#include "kube/client/request_attributes.hpp"
#include "kube/client/resources.hpp"

#include <prometheus/text_serializer.h>
#include <kdesched/view.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>

namespace kd::core::daemon {

namespace {

using prometheus::Histogram;

// kubernetes-sigs/descheduler's buckets (metrics/metrics.go@v0.35.1: 0.01 … 500 s for a loop,
// … 100 s for a strategy) with three below them: a kdesched cycle often takes a few milliseconds,
// which upstream's lowest bucket alone cannot tell apart. Upstream's bounds are all kept, so its
// dashboards' quantiles read the same.
const Histogram::BucketBoundaries kLoopBuckets{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                               1,     2.5,    5,     10,   25,    50,   100, 250,  500};
const Histogram::BucketBoundaries kStrategyBuckets{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                                   0.5,   1,      2.5,   5,    10,    25,   50,  100};
const Histogram::BucketBoundaries kRequestBuckets{0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60};

template <class Builder>
auto& family(Builder b, const char* name, const char* help, prometheus::Registry& r) {
    return b.Name(name).Help(help).Register(r);
}

// A counter kept elsewhere as a running total (the reflectors' atomics, the kernel's CPU time):
// moved up to it, never down, so the exported series stays monotonic.
void advance_to(prometheus::Counter& c, double total) {
    double now = c.Value();
    if (total > now) c.Increment(total - now);
}

double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return double(resident) * double(sysconf(_SC_PAGESIZE));
}

}  // namespace

std::pair<std::string, std::string> verb_and_resource(const kube::RequestRecord& r) {
    auto a = kube::request_attributes(r.method, r.target);
    if (!a) return {"get", ""};  // discovery (/apis/policy/v1) and other non-resource paths
    return {a->verb, a->resource};
}

DaemonMetrics::DaemonMetrics(std::string lease_name)
    : registry_(std::make_shared<prometheus::Registry>()),
      evicted_(family(prometheus::BuildCounter(), "descheduler_pods_evicted_total",
                      "Number of evicted pods, by result, strategy, profile, namespace and node", *registry_)),
      evicted_deprecated_(family(prometheus::BuildCounter(), "descheduler_pods_evicted",
                                 "Deprecated: use descheduler_pods_evicted_total", *registry_)),
      picker_(family(prometheus::BuildCounter(), "descheduler_pod_picker_requests_total",
                     "Pod Picker requests, by result", *registry_)),
      loop_(family(prometheus::BuildHistogram(), "descheduler_loop_duration_seconds",
                   "Time taken to complete a full descheduling cycle", *registry_)),
      loop_deprecated_(family(prometheus::BuildHistogram(), "descheduler_descheduler_loop_duration_seconds",
                              "Deprecated: use descheduler_loop_duration_seconds", *registry_)),
      strategy_(family(prometheus::BuildHistogram(), "descheduler_strategy_duration_seconds",
                       "Time taken by each plugin of each profile", *registry_)),
      strategy_deprecated_(family(prometheus::BuildHistogram(), "descheduler_descheduler_strategy_duration_seconds",
                                  "Deprecated: use descheduler_strategy_duration_seconds", *registry_)),
      requests_(family(prometheus::BuildCounter(), "kdesched_api_requests_total",
                       "Requests to the Kubernetes API server, by verb, resource and HTTP code (0: no answer)",
                       *registry_)),
      request_latency_(family(prometheus::BuildHistogram(), "kdesched_api_request_duration_seconds",
                              "Latency of requests to the Kubernetes API server, by verb and resource", *registry_)),
      leader_(family(prometheus::BuildGauge(), "leader_election_master_status",
                     "1 when this replica holds the lease, 0 otherwise", *registry_)),
      dry_run_(family(prometheus::BuildCounter(), "kdesched_dry_run_writes_total",
                      "Writes dryRun kept from the API server, by kind of write", *registry_)),
      objects_(family(prometheus::BuildGauge(), "kdesched_model_objects", "Objects in the cluster model, by kind",
                      *registry_)),
      jobs_(family(prometheus::BuildGauge(), "kdesched_pod_migration_jobs",
                   "PodMigrationJobs in the cluster model, by phase", *registry_)),
      relists_(family(prometheus::BuildCounter(), "kdesched_watch_relists_total",
                      "LISTs after the first (410 Gone, broken lists), by kind", *registry_)),
      watch_events_(family(prometheus::BuildCounter(), "kdesched_watch_events_total",
                           "Watch events received, by kind (bookmarks included)", *registry_)),
      resident_(family(prometheus::BuildGauge(), "process_resident_memory_bytes", "Resident memory size in bytes",
                       *registry_)),
      cpu_(family(prometheus::BuildCounter(), "process_cpu_seconds_total", "Total user and system CPU time in seconds",
                  *registry_)),
      start_time_(family(prometheus::BuildGauge(), "process_start_time_seconds",
                         "Start time of the process since unix epoch in seconds", *registry_)),
      rejections_(family(prometheus::BuildCounter(), "kdesched_filter_rejections_total",
                         "Pods a filter plugin kept from eviction (Filter or PreEvictionFilter), by profile, "
                         "plugin and reason code",
                         *registry_)),
      lease_name_(std::move(lease_name)) {
    // Upstream's labels (GoVersion names the compiler here), filled from the build, and the
    // build's OS/architecture in Go's spelling (earlier kdesched releases exported Platform).
    family(prometheus::BuildGauge(), "descheduler_build_info",
           "Build info about kdesched: compiler, version, git commit and branch, platform", *registry_)
        .Add({{"GoVersion", build_info::kCompiler},
              {"AppVersion", build_info::kMajorMinor},
              {"DeschedulerVersion", std::string("v") + build_info::kVersion},
              {"GitBranch", build_info::kGitBranch},
              {"GitSha1", build_info::kGitSha},
              {"Platform", build_info::kPlatform}})
        .Set(1);
    start_time_.Add({}).Set(double(
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count()));
    set_leader(false);
}

void DaemonMetrics::on_pods_evicted(std::string_view profile, const kd_pod& pod, std::string_view result,
                                    std::string_view strategy, bool dry_run) {
    kd::Pod p(&pod);
    // `dry_run` beside upstream's labels: a shadow kdesched's would-be evictions stay apart from
    // real ones when both are summed.
    std::map<std::string, std::string> labels{
        {"result", std::string(result)},     {"dry_run", dry_run ? "true" : "false"},
        {"strategy", std::string(strategy)}, {"profile", std::string(profile)},
        {"namespace", std::string(p.ns())},  {"node", std::string(p.node_name())}};
    evicted_.Add(labels).Increment();
    evicted_deprecated_.Add(labels).Increment();
}

void DaemonMetrics::on_pod_picker_request(std::string_view, std::string_view, std::string_view result) {
    picker_.Add({{"result", std::string(result)}}).Increment();
}

void DaemonMetrics::on_plugin_call(std::string_view profile, std::string_view plugin, std::string_view point,
                                   double seconds) {
    // By extension point too: one plugin's deschedule, balance and tick calls differ in cost.
    std::map<std::string, std::string> labels{
        {"strategy", std::string(plugin)}, {"profile", std::string(profile)}, {"extension_point", std::string(point)}};
    strategy_.Add(labels, kStrategyBuckets).Observe(seconds);
    strategy_deprecated_.Add(labels, kStrategyBuckets).Observe(seconds);
}

std::string_view reason_label(std::string_view reason) {
    auto code_char = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
               c == '.' || c == ':';
    };
    if (reason.empty() || reason.size() > kMaxReasonLength) return "Other";
    for (char c : reason)
        if (!code_char(c)) return "Other";
    return reason;
}

void DaemonMetrics::on_filter_rejection(std::string_view profile, std::string_view, const kd_pod&,
                                        std::string_view filter, std::string_view reason) {
    auto pr = rejection_series_.find(profile);
    if (pr == rejection_series_.end())
        pr = rejection_series_.emplace(std::string(profile), ByName<ByName<prometheus::Counter*>>{}).first;
    auto& by_plugin = pr->second;
    auto p = by_plugin.find(filter);
    if (p == by_plugin.end()) p = by_plugin.emplace(std::string(filter), ByName<prometheus::Counter*>{}).first;
    auto& by_reason = p->second;
    std::string_view label = reason_label(reason);
    auto r = by_reason.find(label);
    if (r == by_reason.end()) {
        if (by_reason.size() >= kMaxReasonsPerPlugin) label = "Other";
        r = by_reason.find(label);
        if (r == by_reason.end())
            r = by_reason
                    .emplace(std::string(label), &rejections_.Add({{"profile", std::string(profile)},
                                                                   {"plugin", std::string(filter)},
                                                                   {"reason", std::string(label)}}))
                    .first;
    }
    r->second->Increment();
}

void DaemonMetrics::loop_duration(double seconds) {
    loop_.Add({}, kLoopBuckets).Observe(seconds);
    loop_deprecated_.Add({}, kLoopBuckets).Observe(seconds);
}

void DaemonMetrics::api_request(const kube::RequestRecord& r) {
    auto [verb, resource] = verb_and_resource(r);
    requests_.Add({{"verb", verb}, {"resource", resource}, {"code", std::to_string(r.code)}}).Increment();
    if (verb != "watch")
        request_latency_.Add({{"verb", verb}, {"resource", resource}}, kRequestBuckets).Observe(r.seconds);
}

void DaemonMetrics::dry_run_write(std::string_view write) {
    dry_run_.Add({{"write", std::string(write)}}).Increment();
}

void DaemonMetrics::set_leader(bool leading) {
    leader_.Add({{"name", lease_name_}}).Set(leading ? 1 : 0);
}

void DaemonMetrics::refresh(const ClusterModel& model, const kube::ClusterSync& sync, const kube::ModelFeeder&) {
    for (const auto& r : sync.reflectors()) {
        std::string kind(r->resource().kind);
        // Pods and nodes by their counts: listing 150,000 keys a second is what an idle daemon spent.
        size_t n = r->kind() == ObjectKind::pod    ? model.pod_count()
                   : r->kind() == ObjectKind::node ? model.node_count()
                                                   : model.keys_of(r->kind()).size();
        objects_.Add({{"kind", kind}}).Set(double(n));
        advance_to(relists_.Add({{"kind", kind}}), double(r->stats().relists.load()));
        advance_to(watch_events_.Add({{"kind", kind}}), double(r->stats().events.load()));
    }
    std::map<std::string, int> phases{{"Pending", 0}, {"Running", 0}, {"Succeeded", 0}, {"Failed", 0}};
    for (const auto& [key, job] : model.migration_jobs()) ++phases[job.phase.empty() ? "Pending" : job.phase];
    for (const auto& [phase, n] : phases) jobs_.Add({{"phase", phase}}).Set(n);
}

std::string DaemonMetrics::text() {
    resident_.Add({}).Set(resident_bytes());
    advance_to(cpu_.Add({}), cpu_seconds());
    return prometheus::TextSerializer().Serialize(registry_->Collect());
}

}  // namespace kd::core::daemon
