// The simulation report as JSON: field names fixed by the contract, stable key order,
// two decimals for percentages, so equal runs print equal bytes.
#include "simulator/simulation_report.hpp"

#include "cluster/rfc3339.hpp"
#include "text/json_writer.hpp"

#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/prettywriter.h>

#include <ctime>
#include <ostream>

namespace kd::core {

namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::OStreamWrapper>;

using json::field;
using json::object_array;

void usage(Writer& w, double pct) {
    if (pct < 0)
        w.Null();
    else
        w.Double(static_cast<double>(static_cast<int64_t>(pct * 100 + 0.5)) / 100);
}

}  // namespace

void write_json(std::ostream& out, const SimulationReport& report) {
    rapidjson::OStreamWrapper os(out);
    Writer w(os);
    w.SetIndent(' ', 2);
    w.StartObject();
    field(w, "config", report.config);
    field(w, "startTime", report.start_time);
    w.Key("intervalSeconds");
    w.Double(static_cast<double>(report.interval_ms) / 1000.0);
    w.Key("cycles");
    w.StartArray();
    for (const auto& c : report.cycles) {
        w.StartObject();
        field(w, "cycle", c.cycle);
        field(w, "time", format_rfc3339(c.time_ms));
        if (!c.error.empty()) field(w, "error", c.error);
        if (!c.tick_errors.empty()) {
            json::string_array(w, "tickErrors", c.tick_errors);
        }
        object_array(w, "nodes", c.nodes, [&](const NodeReport& n) {
            field(w, "name", n.name);
            field(w, "pool", n.pool);
            field(w, "class", n.klass);
            w.Key("usage");
            w.StartObject();
            w.Key("cpu");
            usage(w, n.cpu_pct);
            w.Key("memory");
            usage(w, n.memory_pct);
            w.EndObject();
        });
        object_array(w, "evictions", c.evictions, [&](const EvictionReport& e) {
            field(w, "pod", e.pod);
            field(w, "node", e.node);
            field(w, "plugin", e.plugin);
            field(w, "reason", e.reason);
            field(w, "result", e.result);
            if (!e.decided_by.empty()) field(w, "decidedBy", e.decided_by);
            if (!e.detail.empty()) field(w, "detail", e.detail);
        });
        object_array(w, "migrationJobs", c.migration_jobs, [&](const MigrationJobReport& j) {
            field(w, "name", j.name);
            field(w, "pod", j.pod);
            field(w, "phase", j.phase);
            field(w, "reason", j.reason);
            field(w, "message", j.message);
            field(w, "sourceNode", j.source_node);
            field(w, "targetNode", j.target_node);
            w.Key("passedArbitration");
            w.Bool(j.passed_arbitration);
            object_array(w, "history", j.history, [&](const JobPhaseChange& h) {
                field(w, "time", format_rfc3339(h.time_ms));
                field(w, "phase", h.phase);
                field(w, "reason", h.reason);
            });
        });
        object_array(w, "moves", c.moves, [&](const PodMove& m) {
            field(w, "pod", m.pod);
            field(w, "from", m.from);
            field(w, "replacement", m.replacement);
            field(w, "to", m.to);
        });
        object_array(w, "events", c.events, [&](const EventReport& e) {
            field(w, "kind", e.kind);
            field(w, "namespace", e.ns);
            field(w, "name", e.name);
            field(w, "type", e.type);
            field(w, "reason", e.reason);
            field(w, "action", e.action);
            field(w, "message", e.message);
            field(w, "reportingPlugin", e.plugin);
        });
        if (report.explain)
            object_array(w, "explain", c.explain, [&](const ExplainEntry& e) {
                field(w, "pod", e.pod);
                field(w, "stage", e.stage);
                field(w, "plugin", e.plugin);
                field(w, "reason", e.reason);
            });
        w.EndObject();
    }
    w.EndArray();
    SimulationSummary sum = summarize(report);
    w.Key("summary");
    w.StartObject();
    field(w, "cycles", report.cycles.size());
    field(w, "evictionRequests", sum.requests);
    field(w, "evicted", sum.evicted);
    field(w, "podsMoved", sum.moved);
    field(w, "podsUnplaced", sum.unplaced);
    field(w, "podsEvicted", sum.pods_evicted);
    object_array(w, "podsEvictedMetric", report.pods_evicted, [&](const EvictedCounter& m) {
        field(w, "result", m.result);
        field(w, "strategy", m.strategy);
        field(w, "namespace", m.ns);
        field(w, "node", m.node);
        field(w, "value", m.value);
    });
    object_array(w, "podPickerMetric", report.pod_picker_requests, [&](const PickerCounter& m) {
        field(w, "profile", m.profile);
        field(w, "plugin", m.plugin);
        field(w, "result", m.result);
        field(w, "value", m.value);
    });
    w.EndObject();
    w.EndObject();
    out << "\n";
}

}  // namespace kd::core
