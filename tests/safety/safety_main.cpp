// kdesched-safety: the randomized safety run. Simulates cycles of random profiles on random
// clusters (scenario.hpp), has every write checked against the state it was made on
// (safety_auditor.hpp), re-runs some scenarios to check that one seed gives byte-identical output,
// and prints what it ran and every violation. Exit 0 only with no violation.
//   kdesched-safety --cycles 10000 --seed 1
//   kdesched-safety --seed 4711 --scenarios 1 --dump /tmp/s   # the scenario's files, to replay with
//                                                            # kdesched simulate
#include "safety_auditor.hpp"
#include "scenario.hpp"

#include "cluster/cluster_model.hpp"
#include "cluster/decode/snapshot_files.hpp"
#include "config/configuration.hpp"
#include "error.hpp"
#include "loader/plugin_catalog.hpp"
#include "simulator/simulation.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace {

using kd::safety::Scenario;

struct Totals {
    uint64_t scenarios = 0, cycles = 0, stopped_cycles = 0, active_scenarios = 0, replays = 0, replay_differences = 0;
    size_t protected_pods = 0, reservation_first = 0, evict_directly = 0, default_evictor = 0;
    kd::safety::AuditCounts audit;
    std::map<std::string, size_t> violations;
};

struct Run {
    std::string report_json;
    kd::safety::AuditCounts counts;
    std::vector<std::string> violations;
    std::map<std::string, size_t> kinds;
    uint64_t cycles = 0, stopped = 0;
};

Run simulate(const Scenario& s, const kd::core::PluginCatalog& catalog, uint64_t cycles) {
    auto config = kd::core::parse_configuration(s.profile_yaml, fmt::format("safety-{}.yaml", s.seed));
    kd::core::ClusterModel model;
    kd::core::load_cluster_text(s.cluster_json, fmt::format("safety-{}.json", s.seed), model);
    kd::safety::SafetyAuditor auditor(s.rules);
    kd::core::SimulationOptions options{
        cycles, false, {}, [&](const auto& m, const auto& w, int64_t now) { auditor.audit(m, w, now); }};
    kd::core::SimulationReport report = kd::core::simulate(config, catalog, model, options);
    Run run;
    std::ostringstream json;
    kd::core::write_json(json, report);
    run.report_json = json.str();
    run.counts = auditor.counts();
    run.violations = auditor.violations();
    run.kinds = auditor.violation_kinds();
    run.cycles = report.cycles.size();
    for (const auto& c : report.cycles) run.stopped += !c.error.empty();
    return run;
}

void add(kd::safety::AuditCounts& to, const kd::safety::AuditCounts& c) {
    to.evictions += c.evictions;
    to.jobs_created += c.jobs_created;
    to.admissions += c.admissions;
    to.reservation_checks += c.reservation_checks;
}

void dump(const Scenario& s, const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    std::ofstream(dir / fmt::format("safety-{}.yaml", s.seed)) << s.profile_yaml;
    std::ofstream(dir / fmt::format("safety-{}.json", s.seed)) << s.cluster_json;
    std::cout << fmt::format("scenario {}: kdesched simulate --config {}/safety-{}.yaml --cluster {}/safety-{}.json\n",
                             s.seed, dir.string(), s.seed, dir.string(), s.seed);
}

}  // namespace

int main(int argc, char** argv) {
    uint64_t total_cycles = 10000, per_scenario = 20, seed = 1, scenarios = 0, replay_every = 10;
    std::string plugin_dir = KDESCHED_PLUGIN_DIR, dump_dir;
    CLI::App app{"kdesched-safety: random profiles on random clusters, every write checked"};
    app.add_option("--cycles", total_cycles, "cycles to run in all (default 10000)");
    app.add_option("--cycles-per-scenario", per_scenario, "cycles of each scenario (default 20)");
    app.add_option("--seed", seed, "the first scenario's seed; the others follow (default 1)");
    app.add_option("--scenarios", scenarios, "run this many scenarios instead of --cycles");
    app.add_option("--replay-every", replay_every, "re-run every Nth scenario to compare its output (default 10)");
    app.add_option("--plugin-dir", plugin_dir, "where the plugins are");
    app.add_option("--dump", dump_dir, "write each scenario's profile and cluster there");
    CLI11_PARSE(app, argc, argv);
    if (per_scenario == 0) per_scenario = 1;
    if (scenarios == 0) scenarios = (total_cycles + per_scenario - 1) / per_scenario;
    spdlog::set_level(spdlog::level::err);

    auto started = std::chrono::steady_clock::now();
    Totals t;
    try {
        kd::core::PluginCatalog catalog;
        catalog.load({plugin_dir});
        for (uint64_t i = 0; i < scenarios; ++i) {
            Scenario s = kd::safety::make_scenario(seed + i);
            if (!dump_dir.empty()) dump(s, dump_dir);
            Run run = simulate(s, catalog, per_scenario);
            ++t.scenarios;
            t.cycles += run.cycles;
            t.stopped_cycles += run.stopped;
            t.active_scenarios += run.counts.evictions > 0;
            t.protected_pods += s.protected_pods;
            (s.rules.migration_controller ? (s.rules.reservation_first ? t.reservation_first : t.evict_directly)
                                          : t.default_evictor)++;
            add(t.audit, run.counts);
            for (const auto& [kind, n] : run.kinds) t.violations[kind] += n;
            for (size_t v = 0; v < run.violations.size() && v < 5; ++v)
                std::cout << fmt::format("VIOLATION scenario {}: {}\n", s.seed, run.violations[v]);
            if (!run.violations.empty() && dump_dir.empty()) dump(s, "safety-failures");
            if (replay_every > 0 && i % replay_every == 0) {
                ++t.replays;
                if (simulate(s, catalog, per_scenario).report_json != run.report_json) {
                    ++t.replay_differences;
                    ++t.violations["not-deterministic"];
                    std::cout << fmt::format("VIOLATION scenario {}: a second run's output differs\n", s.seed);
                }
            }
        }
    } catch (const kd::core::Error& e) {
        std::cerr << "kdesched-safety: " << e.what() << "\n";
        return 2;
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    size_t violations = 0;
    for (const auto& [kind, n] : t.violations) violations += n;
    std::cout << fmt::format(
        "seeds {}..{}: {} scenarios ({} ReservationFirst, {} EvictDirectly, {} DefaultEvictor), {} cycles "
        "({} stopped early), {:.1f} s\n",
        seed, seed + scenarios - 1, t.scenarios, t.reservation_first, t.evict_directly, t.default_evictor, t.cycles,
        t.stopped_cycles, seconds);
    std::cout << fmt::format(
        "checked: {} evictions in {} scenarios, {} migration jobs created, {} admissions against workload budgets, "
        "{} evictions against their Reservation, {} protected pods\n",
        t.audit.evictions, t.active_scenarios, t.audit.jobs_created, t.audit.admissions, t.audit.reservation_checks,
        t.protected_pods);
    std::cout << fmt::format("same seed, same output: {} of {} re-runs identical\n", t.replays - t.replay_differences,
                             t.replays);
    std::cout << "violations: " << violations;
    for (const auto& [kind, n] : t.violations) std::cout << fmt::format(" {}={}", kind, n);
    std::cout << "\n";
    return violations == 0 ? 0 : 1;
}
