// `kdesched run` measured from outside: the default profile in dry run against a server, reading
// in one encoding — time to ready (every kind synced) and to the first finished cycle, then,
// optionally, RSS, CPU between cycles and cycle time.
#pragma once

#include <string>

namespace kd::tools {

constexpr const char* kJson = "application/json";
constexpr const char* kProtobuf = "application/vnd.kubernetes.protobuf,application/json";

struct DaemonRun {
    std::string binary, default_profile, plugin_dir, kubeconfig;
    const char* accept = kProtobuf;  // clientConnection.acceptContentTypes
    int seconds = 0;                 // measured after the first cycle (0: only the start)
    std::string log_level = "warn";  // the daemon's --log-level (its log is kept when not warn)
};

// Prints one line of figures; returns the process exit code.
int measure_daemon(const DaemonRun& run);

}  // namespace kd::tools
