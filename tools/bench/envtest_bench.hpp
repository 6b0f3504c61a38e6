// kdesched-bench --envtest DIR: a real kube-apiserver (../shared/envtest) holding a generated
// cluster: its pod LIST received and dropped in each encoding, and `kdesched run` started on it
// twice — reading JSON, then protobuf — with the time from start to ready and to the first cycle.
#pragma once

#include "daemon_bench.hpp"

#include <cstdint>
#include <string>

namespace kd::tools {

struct EnvtestBenchOptions {
    std::string envtest_dir;  // holds start.sh and stop.sh
    std::string crds_dir;     // Koordinator's CRDs to install ("" or missing: none)
    uint64_t nodes = 5000, pods = 150000;
    double hot_share = 0.1;
    int loaders = 8;            // concurrent clients loading pods
    std::string save_pod_list;  // the real server's protobuf pod LIST body, saved for kdesched-bench-protobuf
    DaemonRun daemon;
};

int run_envtest_bench(const EnvtestBenchOptions& options);

}  // namespace kd::tools
