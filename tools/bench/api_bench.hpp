// kdesched-bench --api: the Kubernetes API back end against the in-repository test API server on
// loopback — full LIST + decode into the model in JSON and in protobuf, a burst of watch events
// applied, RSS after sync.
#pragma once

#include <cstdint>
#include <string>

namespace kd::tools {

struct ApiBenchOptions {
    uint64_t nodes = 5000, pods = 150000;
    uint64_t events = 100000;  // pod MODIFIED events in the watch burst
    double hot_share = 0.1;
    std::string server_script;  // testkit/fake_apiserver.py
    // Then `kdesched run` (this binary, the default profile in dry run) on the same server: its
    // RSS, CPU while idle between cycles, and cycle time. Empty: skipped.
    std::string daemon_binary, default_profile, plugin_dir;
    int daemon_seconds = 60;    // measured after it is ready
    std::string save_pod_list;  // the protobuf pod LIST body, saved for kdesched-bench-protobuf
};

// Prints the figures; returns the process exit code.
int run_api_bench(const ApiBenchOptions& options);

}  // namespace kd::tools
