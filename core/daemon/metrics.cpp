#include "daemon/metrics.hpp"

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

// kubernetes-sigs/descheduler's buckets (0.01 … 500 s for a loop, … 100 s for a strategy).
const Histogram::BucketBoundaries kLoopBuckets{0.01, 0.1, 1, 5, 10, 20, 30, 40, 50, 100, 200, 500};
const Histogram::BucketBoundaries kStrategyBuckets{0.01, 0.1, 1, 5, 10, 20, 30, 40, 50, 100};
const Histogram::BucketBoundaries kRequestBuckets{0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60};

template <class Builder>
auto& family(Builder b, const char* name, const char* help, prometheus::Registry& r) {
    return b.Name(name).Help(help).Register(r);
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
      relists_(family(prometheus::BuildGauge(), "kdesched_watch_relists",
                      "LISTs after the first (410 Gone, broken lists), by kind", *registry_)),
      watch_events_(family(prometheus::BuildGauge(), "kdesched_watch_events",
                           "Watch events received, by kind (bookmarks included)", *registry_)),
      resident_(family(prometheus::BuildGauge(), "process_resident_memory_bytes", "Resident memory size in bytes",
                       *registry_)),
      cpu_(family(prometheus::BuildGauge(), "process_cpu_seconds_total", "Total user and system CPU time in seconds",
                  *registry_)),
      start_time_(family(prometheus::BuildGauge(), "process_start_time_seconds",
                         "Start time of the process since unix epoch in seconds", *registry_)),
      lease_name_(std::move(lease_name)) {
    family(prometheus::BuildGauge(), "descheduler_build_info", "Build information: version", *registry_)
        .Add({{"AppVersion", KDESCHED_VERSION}, {"Platform", "linux/amd64"}})
        .Set(1);
    start_time_.Add({}).Set(double(
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count()));
    set_leader(false);
}

void DaemonMetrics::on_pods_evicted(std::string_view profile, const kd_pod& pod, std::string_view result,
                                    std::string_view strategy) {
    kd::Pod p(&pod);
    std::map<std::string, std::string> labels{{"result", std::string(result)},
                                              {"strategy", std::string(strategy)},
                                              {"profile", std::string(profile)},
                                              {"namespace", std::string(p.ns())},
                                              {"node", std::string(p.node_name())}};
    evicted_.Add(labels).Increment();
    evicted_deprecated_.Add(labels).Increment();
}

void DaemonMetrics::on_pod_picker_request(std::string_view, std::string_view, std::string_view result) {
    picker_.Add({{"result", std::string(result)}}).Increment();
}

void DaemonMetrics::on_plugin_call(std::string_view profile, std::string_view plugin, std::string_view,
                                   double seconds) {
    std::map<std::string, std::string> labels{{"strategy", std::string(plugin)}, {"profile", std::string(profile)}};
    strategy_.Add(labels, kStrategyBuckets).Observe(seconds);
    strategy_deprecated_.Add(labels, kStrategyBuckets).Observe(seconds);
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
        relists_.Add({{"kind", kind}}).Set(double(r->stats().relists.load()));
        watch_events_.Add({{"kind", kind}}).Set(double(r->stats().events.load()));
    }
    std::map<std::string, int> phases{{"Pending", 0}, {"Running", 0}, {"Succeeded", 0}, {"Failed", 0}};
    for (const auto& [key, job] : model.migration_jobs()) ++phases[job.phase.empty() ? "Pending" : job.phase];
    for (const auto& [phase, n] : phases) jobs_.Add({{"phase", phase}}).Set(n);
}

std::string DaemonMetrics::text() {
    resident_.Add({}).Set(resident_bytes());
    cpu_.Add({}).Set(cpu_seconds());
    return prometheus::TextSerializer().Serialize(registry_->Collect());
}

}  // namespace kd::core::daemon
