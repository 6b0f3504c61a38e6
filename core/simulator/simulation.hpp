// `kdesched simulate`: the descheduler's cycles on a cluster model, with a virtual clock that
// advances by deschedulingInterval (10s when the profile leaves it 0) and the rest of the cluster
// (controllers, scheduler, koordlet) played between cycles. Same input, same output, byte for byte.
#pragma once

#include "cluster/cluster_model.hpp"
#include "config/configuration.hpp"
#include "loader/plugin_catalog.hpp"
#include "simulator/simulated_backend.hpp"
#include "simulator/simulation_report.hpp"

#include <cstdint>
#include <functional>

namespace kd::core {

// After every hook call, before the cluster takes in its writes: the model the call saw, what it
// wrote and the virtual time. For checking every write against the state it was made on
// (tests/safety); the simulation does not depend on it.
using WriteAudit = std::function<void(const ClusterModel& model, const CycleWrites& writes, int64_t now_ms)>;

struct SimulationOptions {
    uint64_t cycles = 10;
    bool explain = false;
    SimulatedBackend::SecretSource secrets;  // set when the cluster is a live one: Secrets by GET
    WriteAudit audit;
    // The virtual clock's start in Unix ms; 0: simulation_start_ms(model). A live cluster read
    // once starts now, so that ages (PodLifeTime, minPodAge) are what the daemon would see.
    int64_t start_ms = 0;
};

// Runs the cycles; throws Error when the profiles cannot be built. A cycle that stops early
// (e.g. fewer than two ready nodes) is reported in its CycleReport, and the simulation goes on.
SimulationReport simulate(const DeschedulerConfiguration& config, const PluginCatalog& catalog, ClusterModel& model,
                          const SimulationOptions& options);

// The virtual clock's start: the latest timestamp in the model (NodeMetric update, pod
// creation), rounded up to a whole second; 2026-01-01T00:00:00Z for a model without any.
int64_t simulation_start_ms(const ClusterModel& model);

}  // namespace kd::core
