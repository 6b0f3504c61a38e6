#include "simulator/simulation.hpp"

#include "cluster/rfc3339.hpp"

#include "runtime/descheduler.hpp"
#include "runtime/driver.hpp"
#include "simulator/cluster_actors.hpp"
#include "simulator/simulated_backend.hpp"

#include <kdesched/plugin.hpp>
#include <kdesched/view.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <tuple>
#include <utility>

namespace kd::core {

namespace {

constexpr int64_t kDefaultIntervalMs = 10'000;
constexpr int64_t kEpoch2026Ms = 1'767'225'600'000;  // 2026-01-01T00:00:00Z

// A counter's label sets and values as report rows {label..., value}, sorted by labels.
template <class Row, size_t N>
std::vector<Row> rows(const std::map<std::array<std::string, N>, uint64_t>& counts) {
    std::vector<Row> out;
    for (const auto& entry : counts)  // (not a structured binding: clang 14 cannot capture one)
        std::apply([&](const auto&... label) { out.push_back(Row{label..., entry.second}); }, entry.first);
    return out;
}

// Collects one cycle's eviction outcomes and plugin reports into the CycleReport being built.
class SimulationObserver : public RunObserver {
public:
    explicit SimulationObserver(bool explain) : explain_(explain) {}
    // The previous cycle is finish()ed first: adding a cycle to the report may move the others.
    void begin(CycleReport* cycle) {
        cycle_ = cycle;
        node_facts_.clear();
    }
    // The cycle's explain lines into its report (its ticks' refusals included).
    void finish() {
        if (cycle_ && explain_) cycle_->explain = explained_.rows();
        explained_.clear();
        cycle_ = nullptr;
    }
    void on_eviction(const EvictionRecord& r) override {
        kd::Pod pod(r.pod);
        cycle_->evictions.push_back({pod.key(), std::string(pod.node_name()), std::string(r.requested_by),
                                     std::string(r.reason), kd::evict_code_name(r.code), std::string(r.decided_by),
                                     std::string(r.detail)});
        if (explain_) explained_.record(r);
    }
    void on_filter_rejection(std::string_view, std::string_view, const kd_pod& pod, std::string_view filter,
                             std::string_view reason) override {
        if (explain_) explained_.record_rejection(pod, filter, reason);
    }
    void on_report(std::string_view, std::string_view plugin, std::string_view kind, std::string_view subject,
                   std::string_view key, std::string_view value) override {
        if (kind == "node") node_facts_[std::string(subject)][std::string(key)] = std::string(value);  // pool, class
        if (explain_) explained_.record_report(plugin, kind, subject, key, value);
    }
    void on_pods_evicted(std::string_view, const kd_pod& pod, std::string_view result, std::string_view strategy,
                         bool) override {
        kd::Pod p(&pod);
        ++pods_evicted_[{std::string(result), std::string(strategy), std::string(p.ns()), std::string(p.node_name())}];
    }
    void on_pod_picker_request(std::string_view profile, std::string_view plugin, std::string_view result) override {
        ++picker_requests_[{std::string(profile), std::string(plugin), std::string(result)}];
    }
    std::vector<PickerCounter> pod_picker_requests() const { return rows<PickerCounter>(picker_requests_); }
    std::vector<EvictedCounter> pods_evicted() const { return rows<EvictedCounter>(pods_evicted_); }
    const std::map<std::string, std::map<std::string, std::string>>& node_facts() const { return node_facts_; }

private:
    bool explain_;
    CycleReport* cycle_ = nullptr;
    std::map<std::string, std::map<std::string, std::string>> node_facts_;
    ExplainTable explained_;                                          // this cycle's, with --explain
    std::map<std::array<std::string, 4>, uint64_t> pods_evicted_;     // result, strategy, namespace, node
    std::map<std::array<std::string, 3>, uint64_t> picker_requests_;  // profile, plugin, result
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

// A job the controller has not looked at yet has no phase: it is Pending.
std::string phase_of(const PodMigrationJob& j) {
    return j.phase.empty() ? "Pending" : j.phase;
}

// Follows the migration jobs through the run: the node each pod left (it is gone once evicted)
// and every phase change seen after a cycle or a controller tick.
class JobTracker {
public:
    void observe(const ClusterModel& model, int64_t now_ms) {
        for (const auto& [uid, j] : model.migration_jobs()) {
            Track& t = tracks_[j.name];
            if (t.source_node.empty())
                if (const kd_pod* p = model.pod_by_name(j.pod_ref.ns, j.pod_ref.name))
                    t.source_node = kd::sv(p->node_name);
            std::string phase = phase_of(j);
            if (t.history.empty() || t.history.back().phase != phase) t.history.push_back({now_ms, phase, j.reason});
        }
    }
    std::vector<MigrationJobReport> reports(const ClusterModel& model) const {
        std::vector<MigrationJobReport> out;
        for (const auto& [uid, j] : model.migration_jobs()) {
            MigrationJobReport r;
            r.name = j.name;
            r.pod = j.pod_ref.ns + "/" + j.pod_ref.name;
            r.phase = phase_of(j);
            r.reason = j.reason;
            r.message = j.message;
            if (auto t = tracks_.find(j.name); t != tracks_.end()) {
                r.source_node = t->second.source_node;
                r.history = t->second.history;
            }
            r.target_node = j.node_name;
            auto passed = j.annotations.find("descheduler.koordinator.sh/passed-arbitration");
            r.passed_arbitration = passed != j.annotations.end() && passed->second == "true";
            out.push_back(std::move(r));
        }
        std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
        return out;
    }

private:
    struct Track {
        std::string source_node;
        std::vector<JobPhaseChange> history;
    };
    std::map<std::string, Track> tracks_;  // by job name
};

// Virtual time: waiting is a jump.
class VirtualClock : public Clock {
public:
    explicit VirtualClock(int64_t start_ms) : now_(start_ms) {}
    int64_t now_ms() override { return now_; }
    bool wait_until(int64_t t_ms) override {
        now_ = std::max(now_, t_ms);
        return true;
    }

private:
    int64_t now_;
};

// The rest of the cluster around each hook call, and the report: koordlet and the schedulers
// before a call, the API server and the workload controllers (the call's writes) after it.
class SimulationEnvironment : public DriverEnvironment {
public:
    SimulationEnvironment(ClusterModel& model, SimulatedBackend& backend, SimulationObserver& observer,
                          SimulationReport& report, WriteAudit audit)
        : model_(model),
          backend_(backend),
          observer_(observer),
          report_(report),
          audit_(std::move(audit)),
          actors_(model) {}

    bool before(const DriverCall& call) override {
        if (call.kind == DriverCall::cycle) {
            observer_.finish();
            CycleReport& cycle = report_.cycles.emplace_back();
            cycle.cycle = call.cycle_number;
            cycle.time_ms = call.now_ms;
            observer_.begin(&cycle);
            actors_.refresh_metrics(call.now_ms);
        }
        actors_.schedule_reservations(call.now_ms);
        return true;
    }
    void after(const DriverCall& call, const std::optional<std::string>& error) override {
        CycleReport& cycle = report_.cycles.back();
        if (call.kind == DriverCall::cycle) {
            if (error) cycle.error = *error;
            cycle.nodes = node_reports(model_, observer_);
        } else if (error) {
            cycle.tick_errors.push_back(format_rfc3339(call.now_ms) + ": " + *error);
        }
        CycleWrites writes = backend_.take();
        if (audit_) audit_(model_, writes, call.now_ms);
        for (auto& m : actors_.apply(writes, call.now_ms)) cycle.moves.push_back(std::move(m));
        for (auto& e : writes.events) cycle.events.push_back(std::move(e));
        jobs_.observe(model_, call.now_ms);
    }
    void interval_done(uint64_t, int64_t) override { report_.cycles.back().migration_jobs = jobs_.reports(model_); }
    void start(int64_t now_ms) { jobs_.observe(model_, now_ms); }

private:
    ClusterModel& model_;
    SimulatedBackend& backend_;
    SimulationObserver& observer_;
    SimulationReport& report_;
    WriteAudit audit_;
    ClusterActors actors_;
    JobTracker jobs_;
};

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
    const int64_t start = std::max(options.start_ms, simulation_start_ms(model));
    admit_loaded_objects(model, start);
    SimulatedBackend backend(model);
    if (options.secrets) backend.set_secret_source(options.secrets);
    SimulationObserver observer(options.explain);
    Descheduler descheduler(config, catalog, &backend, &observer);

    SimulationReport report;
    report.config = config.sourceFile;
    report.explain = options.explain;
    report.interval_ms = config.deschedulingInterval.ms() > 0 ? config.deschedulingInterval.ms() : kDefaultIntervalMs;
    report.start_time = format_rfc3339(start);
    VirtualClock clock(start);
    SimulationEnvironment environment(model, backend, observer, report, options.audit);
    environment.start(start);
    if (options.cycles > 0) Driver(descheduler, model, clock, environment).run({report.interval_ms, options.cycles});
    observer.finish();
    report.pods_evicted = observer.pods_evicted();
    report.pod_picker_requests = observer.pod_picker_requests();
    return report;
}

}  // namespace kd::core
