// The daemon's Prometheus metrics, by the names users of kubernetes-sigs/descheduler already
// scrape (and their deprecated twins, which dashboards still query), plus the API client, the
// reflectors, the model, leadership and the process. Updated from any thread; the registry is
// serialized for /metrics on the health server's thread.
#pragma once

#include "cluster/cluster_model.hpp"
#include "kube/client/api_client.hpp"
#include "kube/watch/cluster_sync.hpp"
#include "kube/watch/model_feeder.hpp"
#include "runtime/host_context.hpp"

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace kd::core::daemon {

class DaemonMetrics : public RunObserver {
public:
    explicit DaemonMetrics(std::string lease_name);

    // RunObserver (control thread).
    void on_pods_evicted(std::string_view profile, const kd_pod& pod, std::string_view result,
                         std::string_view strategy, bool dry_run) override;
    void on_pod_picker_request(std::string_view profile, std::string_view plugin, std::string_view result) override;
    void on_plugin_call(std::string_view profile, std::string_view plugin, std::string_view point,
                        double seconds) override;
    void on_filter_rejection(std::string_view profile, std::string_view requested_by, const kd_pod& pod,
                             std::string_view filter, std::string_view reason) override;

    void loop_duration(double seconds);
    void api_request(const kube::RequestRecord& r);  // any thread
    void set_leader(bool leading);
    void dry_run_write(std::string_view write);  // a write dryRun kept from the server
    // Objects in the model by kind, PodMigrationJobs by phase, reflector counters (control thread).
    void refresh(const ClusterModel& model, const kube::ClusterSync& sync, const kube::ModelFeeder& feeder);
    // The Prometheus text exposition of everything (process figures read now).
    std::string text();

    std::shared_ptr<prometheus::Registry> registry() { return registry_; }

private:
    std::shared_ptr<prometheus::Registry> registry_;
    prometheus::Family<prometheus::Counter>& evicted_;
    prometheus::Family<prometheus::Counter>& evicted_deprecated_;
    prometheus::Family<prometheus::Counter>& picker_;
    prometheus::Family<prometheus::Histogram>& loop_;
    prometheus::Family<prometheus::Histogram>& loop_deprecated_;
    prometheus::Family<prometheus::Histogram>& strategy_;
    prometheus::Family<prometheus::Histogram>& strategy_deprecated_;
    prometheus::Family<prometheus::Counter>& requests_;
    prometheus::Family<prometheus::Histogram>& request_latency_;
    prometheus::Family<prometheus::Gauge>& leader_;
    prometheus::Family<prometheus::Counter>& dry_run_;
    prometheus::Family<prometheus::Gauge>& objects_;
    prometheus::Family<prometheus::Gauge>& jobs_;
    prometheus::Family<prometheus::Counter>& relists_;
    prometheus::Family<prometheus::Counter>& watch_events_;
    prometheus::Family<prometheus::Gauge>& resident_;
    prometheus::Family<prometheus::Counter>& cpu_;
    prometheus::Family<prometheus::Gauge>& start_time_;
    prometheus::Family<prometheus::Counter>& rejections_;
    std::string lease_name_;
    // kdesched_filter_rejections_total's series by profile, plugin and reason: found without
    // building a string (a cycle may reject thousands of pods).
    template <class V>
    using ByName = std::map<std::string, V, std::less<>>;
    ByName<ByName<ByName<prometheus::Counter*>>> rejection_series_;
};

// The `reason` label of a filter rejection: the plugin's reason when it is a code (a word of at
// most kMaxReasonLength letters, digits, '_', '-', '.', ':'), "Other" for free text, so that the
// number of series stays bounded whatever a third-party plugin writes.
constexpr size_t kMaxReasonLength = 64;
constexpr size_t kMaxReasonsPerPlugin = 32;  // more distinct codes than this also count as "Other"
std::string_view reason_label(std::string_view reason);

// "list" / "watch" / "get" / "create" / "update" / "patch" / "delete" and the resource
// ("pods", "pods/eviction", "podmigrationjobs/status") of a request, for metric labels.
std::pair<std::string, std::string> verb_and_resource(const kube::RequestRecord& r);

}  // namespace kd::core::daemon
