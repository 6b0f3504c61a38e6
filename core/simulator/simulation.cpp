#include "simulator/simulation.hpp"
#include "cluster/rfc3339.hpp"

#include "runtime/descheduler.hpp"
#include "simulator/cluster_actors.hpp"
#include "simulator/simulated_writer.hpp"

#include <kdesched/plugin.hpp>
#include <kdesched/view.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace kd::core {

namespace {

constexpr int64_t kDefaultIntervalMs = 10'000;
constexpr int64_t kEpoch2026Ms = 1'767'225'600'000;  // 2026-01-01T00:00:00Z

// Collects one cycle's eviction outcomes and plugin reports into the CycleReport being built.
class SimulationObserver : public RunObserver {
public:
    explicit SimulationObserver(bool explain) : explain_(explain) {}
    void begin(CycleReport* cycle) {
        cycle_ = cycle;
        node_facts_.clear();
        explained_.clear();
    }
    void on_eviction(const EvictionRecord& r) override {
        kd::Pod pod(r.pod);
        cycle_->evictions.push_back({pod.key(), std::string(pod.node_name()), std::string(r.requested_by),
                                     std::string(r.reason), kd::evict_code_name(r.code), std::string(r.decided_by),
                                     std::string(r.detail)});
        if (r.code != KD_EVICT_ACCEPTED && r.code != KD_EVICT_DRY_RUN)
            explain(pod.key(), std::string(r.decided_by.empty() ? r.requested_by : r.decided_by),
                    r.detail.empty() ? kd::evict_code_name(r.code) : std::string(r.detail));
    }
    void on_filter_rejection(std::string_view, std::string_view, const kd_pod& pod, std::string_view filter,
                             std::string_view reason) override {
        explain(kd::Pod(&pod).key(), std::string(filter), std::string(reason));
    }
    void on_report(std::string_view, std::string_view plugin, std::string_view kind, std::string_view subject,
                   std::string_view key, std::string_view value) override {
        if (kind == "node") node_facts_[std::string(subject)][std::string(key)] = std::string(value);
        if (kind == "pod" && key == "skipped") explain(std::string(subject), std::string(plugin), std::string(value));
    }
    const std::map<std::string, std::map<std::string, std::string>>& node_facts() const { return node_facts_; }

private:
    void explain(const std::string& pod, const std::string& plugin, const std::string& reason) {
        if (!explain_ || !explained_.insert(pod + "\n" + plugin + "\n" + reason).second) return;
        cycle_->explain.push_back({pod, plugin, reason});
    }
    bool explain_;
    CycleReport* cycle_ = nullptr;
    std::map<std::string, std::map<std::string, std::string>> node_facts_;
    std::set<std::string> explained_;
};

double percent(int64_t used, int64_t alloc) {
    if (alloc <= 0) return 0;
    return double(used) * 100.0 / double(alloc);
}

std::vector<NodeReport> node_reports(const ClusterModel& model, const SimulationObserver& obs) {
    std::vector<NodeReport> out;
    for (const kd_node* n : model.nodes()) {
        kd::Node node(n);
        NodeReport r;
        r.name = node.name();
        if (auto it = obs.node_facts().find(r.name); it != obs.node_facts().end()) {
            if (auto p = it->second.find("pool"); p != it->second.end()) r.pool = p->second;
            if (auto c = it->second.find("class"); c != it->second.end()) r.klass = c->second;
        }
        const kd_node_metric* m = model.node_metric(node.name());
        if (!m || !m->has_node_metric) {
            r.cpu_pct = r.memory_pct = -1;
        } else {
            kd::NodeMetric metric(m);
            int64_t cpu = metric.system_usage().milli("cpu"), mem = metric.system_usage().milli("memory");
            for (auto p : metric.pods()) {
                cpu += p.usage().milli("cpu");
                mem += p.usage().milli("memory");
            }
            r.cpu_pct = percent(cpu, node.raw_allocatable().milli("cpu"));
            r.memory_pct = percent(mem, node.raw_allocatable().milli("memory"));
        }
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<MigrationJobReport> job_reports(const ClusterModel& model) {
    std::vector<MigrationJobReport> out;
    for (const auto& [uid, j] : model.migration_jobs()) {
        MigrationJobReport r;
        r.name = j.name;
        r.pod = j.pod_ref.ns + "/" + j.pod_ref.name;
        r.phase = j.phase.empty() ? "Pending" : j.phase;
        r.reason = j.reason;
        r.message = j.message;
        if (const kd_pod* p = model.pod_by_name(j.pod_ref.ns, j.pod_ref.name)) r.source_node = kd::sv(p->node_name);
        r.target_node = j.node_name;
        auto passed = j.annotations.find("descheduler.koordinator.sh/passed-arbitration");
        r.passed_arbitration = passed != j.annotations.end() && passed->second == "true";
        out.push_back(std::move(r));
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return out;
}

}  // namespace

int64_t simulation_start_ms(const ClusterModel& model) {
    int64_t latest = 0;
    for (const kd_node* n : model.nodes())
        if (const kd_node_metric* m = model.node_metric(kd::sv(n->name))) latest = std::max(latest, m->update_time_ms);
    for (const kd_pod* p : model.pods()) latest = std::max(latest, p->creation_ms);
    if (latest == 0) return kEpoch2026Ms;
    return (latest + 999) / 1000 * 1000;
}

SimulationReport simulate(const DeschedulerConfiguration& config, const PluginCatalog& catalog, ClusterModel& model,
                          const SimulationOptions& options) {
    SimulatedWriter writer(model);
    SimulationObserver observer(options.explain);
    Descheduler descheduler(config, catalog, &writer, &observer);
    ClusterActors actors(model);

    SimulationReport report;
    report.config = config.sourceFile;
    report.explain = options.explain;
    int64_t interval = config.deschedulingInterval.ms() > 0 ? config.deschedulingInterval.ms() : kDefaultIntervalMs;
    report.interval_ms = interval;
    int64_t now = simulation_start_ms(model);
    report.start_time = format_rfc3339(now);
    for (uint64_t c = 1; c <= options.cycles; ++c, now += interval) {
        CycleReport& cycle = report.cycles.emplace_back();
        cycle.cycle = c;
        cycle.time_ms = now;
        observer.begin(&cycle);
        actors.refresh_metrics(now);
        actors.schedule_reservations(now);
        {
            auto snap = model.snapshot(now);
            if (auto err = descheduler.run_cycle(snap->raw())) cycle.error = *err;
        }
        cycle.nodes = node_reports(model, observer);
        CycleWrites writes = writer.take();
        cycle.moves = actors.apply(writes, now);
        cycle.events = std::move(writes.events);
        cycle.migration_jobs = job_reports(model);
    }
    return report;
}

}  // namespace kd::core
