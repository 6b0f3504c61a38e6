// `kdesched snapshot`: what kdesched reads from a live cluster, written as a snapshot file that
// `kdesched simulate --cluster` replays — for bug reports and for replaying a production moment.
// With --digest, the digest of the model it decodes into, to compare with a daemon's /debug/model.
// metrics-server's NodeMetrics and PodMetrics go in too when the server serves them: the usage
// LowNodeUtilization's metricsUtilization measures by.
#include "cli/live_cluster.hpp"
#include "cli/subcommand.hpp"
#include "cluster/model_digest.hpp"
#include "error.hpp"
#include "kube/watch/snapshot_writer.hpp"
#include "kube/watch/usage_metrics_list.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <fstream>
#include <iostream>

namespace kd::cli {

namespace {

struct SnapshotOptions {
    ClusterOptions cluster;
    std::string output;   // -o; empty: stdout
    std::string config;   // for clientConnection (qps, burst, kubeconfig); empty: the defaults
    bool digest = false;  // --digest: the model's digest (cluster/model_digest.hpp) instead of the objects
};

// The model read as a daemon reads it (the profile's encodings), digested.
int write_digest(const SnapshotOptions& opts, core::kube::ApiClient& client) {
    core::ClusterModel model;
    if (std::string failure = read_cluster_model(client, model); !failure.empty()) {
        std::cerr << failure << "\n";
        return kRuntimeFailure;
    }
    std::string json = core::digest_json(core::digest_model(model)) + "\n";
    if (opts.output.empty()) {
        std::cout << json;
    } else if (!(std::ofstream(opts.output, std::ios::binary | std::ios::trunc) << json)) {
        throw core::Error(opts.output, "cannot write the digest", "check the folder exists");
    }
    return kOk;
}

// metrics-server's usage, listed once, both kinds or neither (the daemon's poller takes pods only
// with nodes, too). Without it the snapshot is still useful: one line on stderr says so.
void add_usage_metrics(core::kube::ApiClient& client, core::kube::SnapshotWriter& writer) {
    core::kube::UsageMetricsList nodes = core::kube::list_usage_metrics(client, "nodes");
    std::string problem = nodes.problem;
    if (nodes.listed()) {
        core::kube::UsageMetricsList pods = core::kube::list_usage_metrics(client, "pods");
        if (pods.listed()) {
            writer.add_listed(core::kMetricsApiVersion, core::kNodeMetricsKind, nodes.items());
            writer.add_listed(core::kMetricsApiVersion, core::kPodMetricsKind, pods.items());
            return;
        }
        problem = pods.problem;
    }
    std::cerr << "warning: the snapshot has no NodeMetrics or PodMetrics: " << problem
              << " LowNodeUtilization with metricsUtilization cannot run on this snapshot (`kdesched simulate` "
                 "fails its runs for want of node usage); everything else is written\n";
}

int run_snapshot(const SnapshotOptions& opts) {
    try {
        core::DeschedulerConfiguration cfg = load_config(opts.config);
        if (opts.digest) {
            auto client = connect(opts.cluster, cfg);
            return write_digest(opts, *client);
        }
        auto client = connect(opts.cluster, cfg, Encodings::json_only);
        // Written next to the target, then renamed: a failed run leaves no half file.
        std::string tmp = opts.output.empty() ? "" : opts.output + ".partial";
        std::ofstream file;
        if (!tmp.empty()) {
            file.open(tmp, std::ios::binary | std::ios::trunc);
            if (!file) throw core::Error(opts.output, "cannot write the snapshot file", "check the folder exists");
        }
        std::ostream& out = tmp.empty() ? std::cout : file;
        core::kube::SnapshotWriter writer(out);
        std::string failure = read_cluster_once(*client, [&](auto& changes) { writer.consume(changes); });
        if (!failure.empty()) {
            if (!tmp.empty()) std::remove(tmp.c_str());
            std::cerr << failure << "\n";
            return kRuntimeFailure;
        }
        add_usage_metrics(*client, writer);
        auto counts = writer.finish();
        if (!tmp.empty()) {
            file.close();
            if (!file || std::rename(tmp.c_str(), opts.output.c_str()) != 0)
                throw core::Error(opts.output, "cannot write the snapshot file");
        }
        std::string summary;
        for (const auto& [kind, n] : counts) summary += (summary.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
        std::cerr << (opts.output.empty() ? "snapshot" : opts.output) << ": "
                  << (summary.empty() ? "no objects" : summary) << "\n";
        return kOk;
    } catch (const core::Error& e) {
        std::cerr << e.what() << "\n";
        return kInvalidInput;
    }
}

const SubcommandRegistration snapshot_registration(
    {50, [](CLI::App& app, CommonOptions& common) -> SubcommandRun {
         auto* cmd = app.add_subcommand(
             "snapshot",
             "Read what kdesched reads from a live cluster (one LIST per kind) and write it as a snapshot file that "
             "`kdesched simulate --cluster` replays");
         auto snap = std::make_shared<SnapshotOptions>();
         cmd->add_option("--kubeconfig", snap->cluster.kubeconfig,
                         "kubeconfig file (default: $KUBECONFIG, ~/.kube/config, or the pod's service account)");
         cmd->add_option("--context", snap->cluster.context, "The kubeconfig context (default: its current-context)");
         cmd->add_option("-o,--output", snap->output, "Snapshot file to write (default: stdout)");
         cmd->add_flag("--digest", snap->digest,
                       "Write instead the digest of what was read, kind by kind (count and a hash of every field "
                       "kdesched keeps): equal to a running daemon's GET /debug/model when its model is up to date");
         cmd->add_option("--config", snap->config,
                         "Profile whose clientConnection (kubeconfig, qps, burst) to use; default: the embedded one");
         add_log_level_option(*cmd, common.log_level);
         return [snap] { return run_snapshot(*snap); };
     }});

}  // namespace

}  // namespace kd::cli
