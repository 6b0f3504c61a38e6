// kdesched-bench: decode throughput, model memory and one full descheduling cycle on generated
// clusters (default sizes 1,000/30,000, 5,000/150,000 and 10,000/300,000 nodes/pods); with --api,
// the API back end against the test API server (api_bench.hpp); with --envtest, `kdesched run`
// start-up on a real kube-apiserver, JSON vs protobuf (envtest_bench.hpp); with --sigs, each
// kubernetes-sigs plugin's cycle alone (sigs_bench.hpp). Prints figures; asserts nothing.
#include "api_bench.hpp"
#include "cluster/cluster_model.hpp"
#include "cluster/cluster_snapshot.hpp"
#include "cluster/decode/snapshot_files.hpp"
#include "config/configuration.hpp"
#include "envtest_bench.hpp"
#include "error.hpp"
#include "generate/cluster_generator.hpp"
#include "loader/plugin_catalog.hpp"
#include "process_figures.hpp"
#include "runtime/descheduler.hpp"
#include "sigs_bench.hpp"
#include "simulator/simulated_backend.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>
#include <kdesched/view.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

namespace kd::tools {
extern const char* const kEmbeddedBenchProfile;  // tools/bench/bench-profile.yaml
}

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

struct Size {
    uint64_t nodes, pods;
};

// Counts evictions so the figures show the cycle did real work; with `requests_out`, writes each
// request of the first cycle (outcome code and pod) so two builds' decisions can be diffed.
struct CountingObserver : kd::core::RunObserver {
    size_t requests = 0, evicted = 0;
    std::ostream* requests_out = nullptr;
    void on_eviction(const kd::core::EvictionRecord& r) override {
        ++requests;
        if (r.code == KD_EVICT_ACCEPTED || r.code == KD_EVICT_DRY_RUN) ++evicted;
        if (requests_out) *requests_out << int(r.code) << ' ' << kd::Pod(r.pod).key() << '\n';
    }
    void on_plugin_log(std::string_view, std::string_view, int32_t, std::string_view) override {}
};

struct Timing {
    double snapshot_ms = 1e300, cycle_ms = 1e300;
    size_t evicted = 0;
};

// The best of `cycles` cycles of `config` on the model (a fresh snapshot each, as the daemon takes).
Timing time_cycles(const kd::core::DeschedulerConfiguration& config, const kd::core::PluginCatalog& catalog,
                   kd::core::ClusterModel& model, int cycles, std::ostream* requests_out = nullptr) {
    kd::core::SimulatedBackend backend(model);
    CountingObserver observer;
    observer.requests_out = requests_out;
    kd::core::Descheduler descheduler(config, catalog, &backend, &observer);
    Timing best;
    for (int c = 0; c < cycles; ++c) {
        observer.requests = observer.evicted = 0;
        auto t0 = Clock::now();
        auto snap =
            std::make_unique<kd::core::ClusterSnapshot>(model, 1772355600000);  // the generator's NodeMetric time
        double snap_ms = ms_since(t0);
        auto t1 = Clock::now();
        auto err = descheduler.run_cycle(snap->raw());
        double cycle_ms = ms_since(t1);
        if (err) std::cerr << "cycle: " << *err << "\n";
        best.snapshot_ms = std::min(best.snapshot_ms, snap_ms);
        best.cycle_ms = std::min(best.cycle_ms, cycle_ms);
        if (c == 0) best.evicted = observer.evicted;  // later cycles find the same pods already being evicted
        observer.requests_out = nullptr;
    }
    return best;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> sizes_text{"1000x30000", "5000x150000", "10000x300000"};
    std::string profile;
    std::vector<std::string> plugin_dirs;
    int cycles = 3;
    double hot_share = 0.1;
    CLI::App app{"kdesched-bench: decode MB/s, model bytes per pod and cycle time on generated clusters"};
    app.add_option("--sizes", sizes_text, "NODESxPODS, repeatable")->capture_default_str();
    app.add_option("--config", profile,
                   "Profile for the cycle; default: the embedded tools/bench/bench-profile.yaml (LowNodeLoad, "
                   "DefaultEvictor, dry run)");
    app.add_option("--plugin-dir", plugin_dirs, "Plugin directory (default: next to the binary)");
    app.add_option("--cycles", cycles, "Cycles to time; the best is reported")->capture_default_str();
    app.add_option("--hot-share", hot_share, "Share of hot nodes")->capture_default_str();
    bool sigs = false;
    app.add_flag("--sigs", sigs,
                 "Time each kubernetes-sigs plugin alone instead (a DeschedulerPolicy enabling it, DefaultEvictor as "
                 "upstream adds it) on clusters whose pods carry what those plugins read: one row per plugin and size");
    std::vector<std::string> only;
    app.add_option("--only", only,
                   "With --sigs: time only these plugins (comma-separated or repeated names, e.g. "
                   "RemoveDuplicates,PodLifeTime)")
        ->delimiter(',');
    std::string requests_dir;
    app.add_option("--sigs-requests", requests_dir,
                   "With --sigs: write each plugin's eviction requests of the first cycle, in order (code and "
                   "pod), to DIR/PLUGIN-NODES.txt, to diff the decisions of two builds");
    kd::tools::ApiBenchOptions api;
    api.server_script = KD_FAKE_APISERVER;
    bool api_mode = false;
    app.add_flag("--api", api_mode,
                 "Measure the Kubernetes API back end instead: LIST + decode, watch events/s and RSS against the "
                 "test API server (python3) at --api-size");
    std::string api_size = "5000x150000";
    app.add_option("--api-size", api_size, "NODESxPODS for --api")->capture_default_str();
    app.add_option("--api-events", api.events, "Pod events in the --api watch burst")->capture_default_str();
    app.add_option("--api-server", api.server_script, "The test API server script")->capture_default_str();
    app.add_option(
        "--save-pod-list", api.save_pod_list,
        "With --api or --envtest: save the protobuf pod LIST body to this file (input of kdesched-bench-protobuf)");
    bool daemon = false;
    app.add_flag("--daemon", daemon,
                 "With --api: then run `kdesched run` (default profile, dry run) on the same server and report its "
                 "RSS, CPU between cycles and cycle time");
    app.add_option("--daemon-seconds", api.daemon_seconds, "How long the daemon is measured once ready")
        ->capture_default_str();
    kd::tools::EnvtestBenchOptions envtest;
    app.add_option(
        "--envtest", envtest.envtest_dir,
        "Measure `kdesched run` start-up on a real kube-apiserver instead: this envtest folder's start.sh "
        "(../shared/envtest), loaded with a generated cluster of --api-size; JSON and protobuf side by side");
    std::string daemon_log_level = "warn";
    app.add_option("--daemon-log-level", daemon_log_level,
                   "With --envtest: the daemon's --log-level; its log is kept and named when not warn "
                   "(debug shows when each phase of the start-up ended)")
        ->capture_default_str();
    envtest.crds_dir = "../shared/koordinator-data/crds";
    app.add_option("--crds", envtest.crds_dir, "With --envtest: Koordinator's CRDs to install")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    spdlog::set_level(spdlog::level::warn);
    for (const auto& name : only) {
        const auto& known = kd::tools::sigs_bench_plugins();
        if (std::none_of(known.begin(), known.end(), [&](const auto& p) { return p.name == name; })) {
            std::cerr << "--only: \"" << name
                      << "\" is not one of the --sigs plugins (see tools/bench/sigs_bench.cpp)\n";
            return 2;
        }
    }
    if (api_mode || !envtest.envtest_dir.empty()) {
        if (std::sscanf(api_size.c_str(), "%lux%lu", &api.nodes, &api.pods) != 2) {
            std::cerr << "bad --api-size \"" << api_size << "\" (use NODESxPODS, e.g. 5000x150000)\n";
            return 2;
        }
    }
    if (!envtest.envtest_dir.empty()) {
        envtest.nodes = api.nodes;
        envtest.pods = api.pods;
        envtest.hot_share = hot_share;
        envtest.save_pod_list = api.save_pod_list;
        envtest.daemon = {KDESCHED_BINARY, KDESCHED_DEFAULT_PROFILE, KDESCHED_PLUGIN_DIR, "", kd::tools::kJson, 0,
                          daemon_log_level};
        try {
            return kd::tools::run_envtest_bench(envtest);
        } catch (const std::exception& e) {
            std::cerr << "envtest benchmark: " << e.what() << "\n";
            return 1;
        }
    }
    if (api_mode) {
        api.hot_share = hot_share;
        if (daemon) {
            api.daemon_binary = KDESCHED_BINARY;
            api.default_profile = KDESCHED_DEFAULT_PROFILE;
            api.plugin_dir = KDESCHED_PLUGIN_DIR;
        }
        try {
            return kd::tools::run_api_bench(api);
        } catch (const std::exception& e) {
            std::cerr << "api benchmark: " << e.what() << "\n";
            return 1;
        }
    }  // dry-run eviction lines are not part of the measurement

    try {
        kd::core::PluginCatalog catalog;
        std::vector<std::filesystem::path> dirs(plugin_dirs.begin(), plugin_dirs.end());
        if (dirs.empty()) dirs.push_back(kd::core::default_plugin_directory());
        catalog.load(dirs);
        auto config = profile.empty() ? kd::core::parse_configuration(kd::tools::kEmbeddedBenchProfile,
                                                                      "<embedded tools/bench/bench-profile.yaml>")
                                      : kd::core::load_configuration(profile);

        if (sigs)
            std::cout << fmt::format("{:<45} {:>6} {:>8} {:>12} {:>10}\n", "plugin (alone, DeschedulerPolicy)", "nodes",
                                     "pods", "cycle ms", "evictions");
        else
            std::cout << fmt::format("{:>6} {:>8} {:>9} {:>10} {:>11} {:>11} {:>12} {:>12} {:>10}\n", "nodes", "pods",
                                     "JSON MB", "decode MB/s", "model MB", "bytes/pod", "snapshot ms", "cycle ms",
                                     "evictions");
        // --sigs: plugin -> "nodes x pods" -> cycle ms, printed again as one table at the end (issue 28's rows).
        std::vector<std::string> summary_sizes;
        std::vector<std::pair<std::string, std::vector<std::string>>> summary;
        for (const auto& text : sizes_text) {
            Size size{};
            if (std::sscanf(text.c_str(), "%lux%lu", &size.nodes, &size.pods) != 2) {
                std::cerr << "bad --sizes entry \"" << text << "\" (use NODESxPODS, e.g. 1000x30000)\n";
                return 2;
            }
            auto file = std::filesystem::temp_directory_path() /
                        fmt::format("kdesched-bench-{}-{}-{}.json", size.nodes, size.pods, ::getpid());
            {
                std::ofstream out(file, std::ios::binary);
                kd::tools::GeneratorOptions generated{size.nodes, size.pods, 1, hot_share, false, ""};
                generated.descheduler_fields = sigs;
                kd::tools::generate_cluster(out, generated);
            }
            long before = kd::tools::resident_bytes();
            auto model = std::make_unique<kd::core::ClusterModel>();
            kd::core::LoadReport loaded = kd::core::load_cluster_files({file}, *model);
            std::filesystem::remove(file);
            long after = kd::tools::resident_bytes();
            double mb = double(loaded.bytes) / 1e6;

            if (sigs) {
                summary_sizes.push_back(fmt::format("{}/{}", size.nodes, model->pod_count()));
                for (const auto& plugin : kd::tools::sigs_bench_plugins()) {
                    if (!only.empty() && std::find(only.begin(), only.end(), plugin.name) == only.end()) continue;
                    auto row = std::find_if(summary.begin(), summary.end(),
                                            [&](const auto& r) { return r.first == plugin.name; });
                    if (row == summary.end()) row = summary.insert(summary.end(), {plugin.name, {}});
                    row->second.resize(summary_sizes.size() - 1, "-");
                    if (!catalog.find(plugin.name)) {
                        std::cout << fmt::format("{:<45} {:>6} {:>8}  (not in the plugin directory)\n", plugin.name,
                                                 size.nodes, model->pod_count());
                        continue;
                    }
                    auto policy = kd::core::parse_configuration(kd::tools::sigs_bench_policy(plugin),
                                                                "<kdesched-bench --sigs " + plugin.name + ">");
                    std::ofstream requests;
                    if (!requests_dir.empty())
                        requests.open(std::filesystem::path(requests_dir) /
                                      fmt::format("{}-{}.txt", plugin.name, size.nodes));
                    Timing t = time_cycles(policy, catalog, *model, cycles, requests_dir.empty() ? nullptr : &requests);
                    std::cout << fmt::format("{:<45} {:>6} {:>8} {:>12.2f} {:>10}\n", plugin.name, size.nodes,
                                             model->pod_count(), t.cycle_ms, t.evicted);
                    row->second.push_back(fmt::format("{:.1f} ({})", t.cycle_ms, t.evicted));
                }
                continue;
            }
            Timing t = time_cycles(config, catalog, *model, cycles);
            std::cout << fmt::format("{:>6} {:>8} {:>9.1f} {:>10.0f} {:>11.1f} {:>11.0f} {:>12.2f} {:>12.2f} {:>10}\n",
                                     size.nodes, model->pod_count(), mb, mb / loaded.decode_seconds,
                                     double(after - before) / 1e6, double(after - before) / double(model->pod_count()),
                                     t.snapshot_ms, t.cycle_ms, t.evicted);
        }
        if (sigs && !summary.empty()) {
            std::cout << "\ncycle ms (evictions of the first cycle), nodes/pods:\n" << fmt::format("{:<45}", "plugin");
            for (const auto& s : summary_sizes) std::cout << fmt::format(" {:>20}", s);
            std::cout << "\n";
            for (const auto& [name, cells] : summary) {
                std::cout << fmt::format("{:<45}", name);
                for (size_t i = 0; i < summary_sizes.size(); ++i)
                    std::cout << fmt::format(" {:>20}", i < cells.size() ? cells[i] : "-");
                std::cout << "\n";
            }
        }
    } catch (const kd::core::Error& e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
    return 0;
}
