// `kdesched simulate`: what a profile would do to a cluster snapshot, cycle by cycle.
#include "cli/live_cluster.hpp"
#include "cli/subcommand.hpp"
#include "cluster/cluster_model.hpp"
#include "cluster/decode/snapshot_files.hpp"
#include "daemon/wall_clock.hpp"
#include "error.hpp"
#include "kube/client/secret_reader.hpp"
#include "simulator/simulation.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <iostream>

namespace kd::cli {

namespace {

struct SimulateOptions {
    std::string config;                 // empty: the embedded default profile
    std::vector<std::string> clusters;  // empty: the embedded example cluster (or the live one)
    ClusterOptions live;                // --kubeconfig / --context: read the live cluster instead
    uint64_t cycles = 10;
    std::string output = "table";
    bool explain = false;
};

int run_simulate(const CommonOptions& opts, const SimulateOptions& sim) {
    try {
        core::DeschedulerConfiguration cfg = load_config(sim.config);
        core::PluginCatalog catalog = load_plugins(opts);
        core::ClusterModel model;
        core::SimulationOptions options{sim.cycles, sim.explain, {}, {}};
        std::unique_ptr<core::kube::ApiClient> client;
        std::unique_ptr<core::kube::SecretReader> secrets;
        if (sim.live.given()) {
            if (!sim.clusters.empty())
                throw core::Error("--cluster", "give either --cluster or --kubeconfig/--context, not both");
            client = connect(sim.live, cfg);
            if (std::string failure = read_cluster_model(*client, model); !failure.empty()) {
                std::cerr << failure << "\n";
                return kRuntimeFailure;
            }
            options.start_ms = core::daemon::unix_ms_now();
            secrets = std::make_unique<core::kube::SecretReader>(*client);
            options.secrets = [&](std::string_view ns, std::string_view name, std::map<std::string, std::string>& d) {
                return secrets->read(ns, name, d);
            };
        } else {
            std::vector<std::filesystem::path> inputs(sim.clusters.begin(), sim.clusters.end());
            core::LoadReport loaded = inputs.empty()
                                          ? core::load_cluster_text(kEmbeddedDefaultCluster,
                                                                    "<embedded examples/clusters/hotspot.json>", model)
                                          : core::load_cluster_files(inputs, model);
            for (const auto& note : loaded.notes) spdlog::info("{}", note);
        }
        core::SimulationReport report = core::simulate(cfg, catalog, model, options);
        if (client)
            report.config += " on the cluster at " + client->connection().server;
        else if (sim.clusters.empty())
            report.config += " on <embedded examples/clusters/hotspot.json>";
        if (sim.output == "json")
            core::write_json(std::cout, report);
        else
            core::write_table(std::cout, report);
        // The report is complete either way; the exit code says whether every cycle ran through
        // (as `kdesched run` counts a failed cycle), so a script can tell.
        size_t failed = 0;
        for (const core::CycleReport& c : report.cycles) {
            if (!c.error.empty()) std::cerr << "cycle " << c.cycle << " stopped early: " << c.error << "\n";
            for (const std::string& e : c.tick_errors)
                std::cerr << "cycle " << c.cycle << ", periodic work: " << e << "\n";
            failed += !c.error.empty() || !c.tick_errors.empty();
        }
        if (failed > 0) {
            std::cerr << failed << " of " << report.cycles.size()
                      << " cycles failed (the report above shows each); fix the plugin or its args named there\n";
            return kRuntimeFailure;
        }
        return kOk;
    } catch (const core::Error& e) {
        std::cerr << e.what() << "\n";
        return kInvalidInput;
    }
}

const SubcommandRegistration simulate_registration(
    {40, [](CLI::App& app, CommonOptions& common) -> SubcommandRun {
         auto* cmd = app.add_subcommand(
             "simulate",
             "Run the profile's cycles on a cluster snapshot offline; a simulated scheduler, workload controllers and "
             "koordlet play the rest of the cluster. Without --config/--cluster: the embedded default profile on the "
             "embedded example cluster");
         auto sim = std::make_shared<SimulateOptions>();
         cmd->add_option("--config", sim->config,
                         "DeschedulerConfiguration or DeschedulerPolicy YAML; default: the embedded default profile");
         cmd->add_option("--cluster", sim->clusters,
                         "Snapshot file or directory (kubectl get -o json|yaml output, a List, multi-document YAML); "
                         "repeatable. Dump large clusters with -o json: YAML is ~100x slower to read");
         cmd->add_option("--cycles", sim->cycles, "Number of descheduling cycles")
             ->check(CLI::PositiveNumber)
             ->capture_default_str();
         cmd->add_option("--output", sim->output, "table or json")
             ->check(CLI::IsMember({"table", "json"}))
             ->capture_default_str();
         cmd->add_option("--kubeconfig", sim->live.kubeconfig,
                         "Simulate on the live cluster this kubeconfig reaches (one LIST per kind, nothing written), "
                         "instead of --cluster");
         cmd->add_option("--context", sim->live.context, "The kubeconfig context (default: its current-context)");
         cmd->add_flag("--explain", sim->explain,
                       "List every considered pod that was not evicted, one line per pod and cycle: how far it got "
                       "(filtered: a filter said no when the plugin asked; skipped: the plugin's own reason; "
                       "refused: the eviction request was refused), the plugin and the reason code of the last word "
                       "about it");
         add_plugin_dir_options(*cmd, common);
         add_log_level_option(*cmd, common.log_level);
         return [&common, sim] { return run_simulate(common, *sim); };
     }});

}  // namespace

}  // namespace kd::cli
