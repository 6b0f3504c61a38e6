// `kdesched simulate`: what a profile would do to a cluster snapshot, cycle by cycle.
#include "cli/commands.hpp"
#include "cluster/cluster_model.hpp"
#include "cluster/decode/cluster_files.hpp"
#include "error.hpp"
#include "kube/secret_reader.hpp"
#include "simulator/simulation.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <iostream>

namespace kd::cli {

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
        return kOk;
    } catch (const core::Error& e) {
        std::cerr << e.what() << "\n";
        return kInvalidInput;
    }
}

}  // namespace kd::cli
