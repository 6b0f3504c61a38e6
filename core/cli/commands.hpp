// The subcommands; each returns an ExitCode and prints its own output.
#pragma once

#include "cli/cli_common.hpp"
#include "cli/live_cluster.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kd::cli {

int run_validate(const CommonOptions& opts, const std::string& config_path);
int run_plugins(const CommonOptions& opts);
int run_plan(const CommonOptions& opts, const std::string& config_path);
int run_version();

struct SimulateOptions {
    std::string config;                 // empty: the embedded default profile
    std::vector<std::string> clusters;  // empty: the embedded example cluster (or the live one)
    ClusterOptions live;                // --kubeconfig / --context: read the live cluster instead
    uint64_t cycles = 10;
    std::string output = "table";
    bool explain = false;
};
int run_simulate(const CommonOptions& opts, const SimulateOptions& sim);

struct SnapshotOptions {
    ClusterOptions cluster;
    std::string output;   // -o; empty: stdout
    std::string config;   // for clientConnection (qps, burst, kubeconfig); empty: the defaults
    bool digest = false;  // --digest: the model's digest (cluster/model_digest.hpp) instead of the objects
};
int run_snapshot(const SnapshotOptions& opts);

struct RunOptions {
    std::string config;      // required: the DeschedulerConfiguration
    ClusterOptions cluster;  // --kubeconfig / --context (default: the profile's, $KUBECONFIG, in-cluster)
    std::string log_format = "text";
};
int run_daemon(const CommonOptions& opts, const RunOptions& run);
// --log-format json: one JSON object per log line.
void set_log_format(const std::string& format);

}  // namespace kd::cli
