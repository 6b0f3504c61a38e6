// kdesched-bench --api: the Kubernetes API back end against the in-repository test API server on
// loopback — full LIST + decode into the model, a burst of watch events applied, RSS after sync.
#pragma once

#include <cstdint>
#include <string>

namespace kd::tools {

struct ApiBenchOptions {
    uint64_t nodes = 5000, pods = 150000;
    uint64_t events = 100000;  // pod MODIFIED events in the watch burst
    double hot_share = 0.1;
    std::string server_script;  // tests/support/fake_apiserver.py
};

// Prints the figures; returns the process exit code.
int run_api_bench(const ApiBenchOptions& options);

}  // namespace kd::tools
