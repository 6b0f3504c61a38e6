// The simulation report as JSON: field names fixed by the contract, stable key order,
// two decimals for percentages, so equal runs print equal bytes.
#include "simulator/simulation_report.hpp"

#include "cluster/rfc3339.hpp"

#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/prettywriter.h>

#include <ctime>
#include <ostream>

namespace kd::core {

namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::OStreamWrapper>;

void field(Writer& w, const char* key, const std::string& value) {
    w.Key(key);
    w.String(value.c_str(), static_cast<rapidjson::SizeType>(value.size()));
}

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
    size_t evictions = 0, accepted = 0, moved = 0, unplaced = 0;
    for (const auto& c : report.cycles) {
        w.StartObject();
        w.Key("cycle");
        w.Uint64(c.cycle);
        field(w, "time", format_rfc3339(c.time_ms));
        if (!c.error.empty()) field(w, "error", c.error);
        w.Key("nodes");
        w.StartArray();
        for (const auto& n : c.nodes) {
            w.StartObject();
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
            w.EndObject();
        }
        w.EndArray();
        w.Key("evictions");
        w.StartArray();
        for (const auto& e : c.evictions) {
            ++evictions;
            if (e.result == "accepted" || e.result == "dry-run") ++accepted;
            w.StartObject();
            field(w, "pod", e.pod);
            field(w, "node", e.node);
            field(w, "plugin", e.plugin);
            field(w, "reason", e.reason);
            field(w, "result", e.result);
            if (!e.decided_by.empty()) field(w, "decidedBy", e.decided_by);
            if (!e.detail.empty()) field(w, "detail", e.detail);
            w.EndObject();
        }
        w.EndArray();
        w.Key("migrationJobs");
        w.StartArray();
        for (const auto& j : c.migration_jobs) {
            w.StartObject();
            field(w, "name", j.name);
            field(w, "pod", j.pod);
            field(w, "phase", j.phase);
            field(w, "reason", j.reason);
            field(w, "message", j.message);
            field(w, "sourceNode", j.source_node);
            field(w, "targetNode", j.target_node);
            w.Key("passedArbitration");
            w.Bool(j.passed_arbitration);
            w.EndObject();
        }
        w.EndArray();
        w.Key("moves");
        w.StartArray();
        for (const auto& m : c.moves) {
            if (!m.to.empty())
                ++moved;
            else if (!m.replacement.empty())
                ++unplaced;
            w.StartObject();
            field(w, "pod", m.pod);
            field(w, "from", m.from);
            field(w, "replacement", m.replacement);
            field(w, "to", m.to);
            w.EndObject();
        }
        w.EndArray();
        w.Key("events");
        w.StartArray();
        for (const auto& e : c.events) {
            w.StartObject();
            field(w, "kind", e.kind);
            field(w, "namespace", e.ns);
            field(w, "name", e.name);
            field(w, "type", e.type);
            field(w, "reason", e.reason);
            field(w, "action", e.action);
            field(w, "message", e.message);
            field(w, "reportingPlugin", e.plugin);
            w.EndObject();
        }
        w.EndArray();
        if (report.explain) {
            w.Key("explain");
            w.StartArray();
            for (const auto& e : c.explain) {
                w.StartObject();
                field(w, "pod", e.pod);
                field(w, "plugin", e.plugin);
                field(w, "reason", e.reason);
                w.EndObject();
            }
            w.EndArray();
        }
        w.EndObject();
    }
    w.EndArray();
    w.Key("summary");
    w.StartObject();
    w.Key("cycles");
    w.Uint64(report.cycles.size());
    w.Key("evictionRequests");
    w.Uint64(evictions);
    w.Key("evicted");
    w.Uint64(accepted);
    w.Key("podsMoved");
    w.Uint64(moved);
    w.Key("podsUnplaced");
    w.Uint64(unplaced);
    w.EndObject();
    w.EndObject();
    out << "\n";
}

}  // namespace kd::core
