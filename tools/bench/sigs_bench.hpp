// kdesched-bench --sigs: each kubernetes-sigs/descheduler plugin alone, in the DeschedulerPolicy an
// operator of that project would write (issue 28's figures: each plugin's cycle at 1k/30k, 5k/150k
// and 10k/300k).
#pragma once

#include <string>
#include <vector>

namespace kd::tools {

struct SigsBenchPlugin {
    std::string name;
    std::string point;  // deschedule | balance
    std::string args;   // a YAML flow mapping
};

// The ten plugins, with args that give them work on a generated cluster whose pods carry the
// fields they read (GeneratorOptions::descheduler_fields).
const std::vector<SigsBenchPlugin>& sigs_bench_plugins();

// A DeschedulerPolicy enabling `plugin` alone (DefaultEvictor as upstream adds it).
std::string sigs_bench_policy(const SigsBenchPlugin& plugin);

}  // namespace kd::tools
