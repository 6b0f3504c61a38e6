// The simulation report for a terminal: one block per cycle, aligned columns, a closing summary.
#include "cluster/rfc3339.hpp"
#include "simulator/simulation_report.hpp"
#include "text/aligned_rows.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace kd::core {

namespace {

std::string pct(double v) {
    return v < 0 ? "-" : fmt::format("{:.1f}%", v);
}

}  // namespace

void write_table(std::ostream& out, const SimulationReport& report) {
    out << "simulation of " << report.config << ": " << report.cycles.size() << " cycle(s) every "
        << fmt::format("{:g}s", report.interval_ms / 1000.0) << " from " << report.start_time << "\n";
    for (const auto& c : report.cycles) {
        out << "\ncycle " << c.cycle << "  " << format_rfc3339(c.time_ms) << "\n";
        if (!c.error.empty()) out << "  cycle stopped: " << c.error << "\n";
        for (const auto& e : c.tick_errors) out << "  periodic work failed: " << e << "\n";
        std::vector<std::vector<std::string>> rows{{"NODE", "POOL", "CLASS", "CPU", "MEMORY"}};
        for (const auto& n : c.nodes)
            rows.push_back({n.name, n.pool.empty() ? "-" : n.pool, n.klass.empty() ? "-" : n.klass, pct(n.cpu_pct),
                            pct(n.memory_pct)});
        print_rows(out, rows, "  ");
        if (!c.evictions.empty()) {
            out << "  evictions:\n";
            std::vector<std::vector<std::string>> ev;
            for (const auto& e : c.evictions) {
                bool ok = evicted(e);
                std::string why = e.decided_by.empty() ? e.detail : e.decided_by + ": " + e.detail;
                ev.push_back({e.pod, "on " + e.node, e.result + (ok || why.empty() ? "" : " (" + why + ")"),
                              "by " + e.plugin, e.reason});
            }
            print_rows(out, ev, "    ");
        }
        if (!c.moves.empty()) {
            out << "  moves:\n";
            std::vector<std::vector<std::string>> mv;
            for (const auto& m : c.moves) {
                std::string where = m.replacement.empty() ? "deleted (no controller recreates it)"
                                    : m.to.empty()        ? m.replacement + " is Pending: no node fits"
                                                          : m.replacement + " on " + m.to;
                mv.push_back({m.pod, m.from + " ->", where});
            }
            print_rows(out, mv, "    ");
        }
        if (!c.migration_jobs.empty()) {
            out << "  migration jobs:\n";
            std::vector<std::vector<std::string>> jobs;
            for (const auto& j : c.migration_jobs) {
                // The phases the job went through so far: Pending -> Running -> Succeeded.
                std::string phases;
                for (const auto& h : j.history) phases += (phases.empty() ? "" : " -> ") + h.phase;
                jobs.push_back({j.name, j.pod, phases.empty() ? j.phase : phases, j.reason.empty() ? "-" : j.reason,
                                j.source_node + " -> " + (j.target_node.empty() ? "?" : j.target_node),
                                j.passed_arbitration ? "passed arbitration" : "", j.message});
            }
            print_rows(out, jobs, "    ");
        }
        if (!c.events.empty()) {
            out << "  events:\n";
            std::vector<std::vector<std::string>> ev;
            for (const auto& e : c.events)
                ev.push_back({e.type, e.reason, e.kind + " " + (e.ns.empty() ? "" : e.ns + "/") + e.name, e.message});
            print_rows(out, ev, "    ");
        }
        if (report.explain && !c.explain.empty()) {
            out << "  not evicted (--explain):\n";
            print_explain(out, c.explain, "    ");
        }
    }
    SimulationSummary sum = summarize(report);
    out << "\nsummary: " << sum.evicted << " evicted, " << sum.requests - sum.evicted
        << " eviction request(s) refused, " << sum.pods_evicted << " pod(s) taken off their node, " << sum.moved
        << " pod(s) moved, " << sum.unplaced << " left Pending\n";
}

}  // namespace kd::core
