// `kdesched snapshot`: what kdesched reads from a live cluster, written as a snapshot file that
// `kdesched simulate --cluster` replays — for bug reports and for replaying a production moment.
// With --digest, the digest of the model it decodes into, to compare with a daemon's /debug/model.
#include "cli/commands.hpp"
#include "cli/live_cluster.hpp"
#include "cluster/model_digest.hpp"
#include "error.hpp"
#include "kube/snapshot_writer.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <fstream>
#include <iostream>

namespace kd::cli {

namespace {

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

}  // namespace

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

}  // namespace kd::cli
