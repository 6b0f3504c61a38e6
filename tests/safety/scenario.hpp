// A random cluster and a random profile for it, from one seed: the input of the randomized safety
// run. The cluster holds pods no profile may evict (DaemonSet, mirror, system-critical, bare; local
// storage, PVC, an excluded namespace or the never-evict cost when the profile's args say so),
// each labelled with why, so the auditor need not re-derive the rules from the args.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace kd::safety {

// Label on every pod a filter must protect in its scenario; the value says why.
inline constexpr const char* kProtectedLabel = "safety.kdesched.io/protected";

// A budget as MigrationController reads it: an int or a percent (IntOrString).
struct Budget {
    bool percent = false;
    int value = 0;
};

// What the auditor needs to know of the profile.
struct ScenarioRules {
    bool migration_controller = false;  // the evictor: MigrationController, else DefaultEvictor
    bool reservation_first = false;     // defaultJobMode
    std::optional<Budget> max_migrating_per_workload, max_unavailable_per_workload;
};

struct Scenario {
    uint64_t seed = 0;
    std::string cluster_json;  // a List of Nodes, NodeMetrics, workloads and Pods
    std::string profile_yaml;  // a DeschedulerConfiguration
    ScenarioRules rules;
    size_t protected_pods = 0;
};

Scenario make_scenario(uint64_t seed);

}  // namespace kd::safety
