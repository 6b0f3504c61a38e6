// The descheduling cycle (Koordinator's pkg/descheduler/descheduler.go) over every profile:
// deschedule for all profiles, then balance for all profiles, with the global eviction limits
// reset per cycle. Profiles run in file order (the anchor's order is random: see
// docs/compatibility.md).
#pragma once

#include "config/configuration.hpp"
#include "loader/plugin_catalog.hpp"
#include "runtime/eviction_limiter.hpp"
#include "runtime/host_context.hpp"
#include "runtime/profile_runtime.hpp"

#include <kdesched/abi.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kd::core {

class Descheduler {
public:
    // Builds every profile's framework; throws one Error listing the problems of all profiles.
    Descheduler(const DeschedulerConfiguration& config, const PluginCatalog& catalog, ClusterBackend* backend,
                RunObserver* observer);

    // One cycle over `cluster` (its all_nodes: every ready node). Returns nullopt, or why the
    // cycle stopped: "the cluster size is 0 or 1", or a profile's error.
    std::optional<std::string> run_cycle(const kd_snapshot& cluster);

    // The periodic work of plugins that have it (controllers), between cycles, on every selected
    // node. Returns the earliest time one asked to be called again (0 = none) and the errors.
    struct TickResult {
        int64_t next_ms = 0;
        std::optional<std::string> error;
    };
    TickResult tick(const kd_snapshot& cluster);

    uint64_t cycles_run() const { return cycle_; }
    const std::vector<std::unique_ptr<ProfileRuntime>>& profiles() const { return profiles_; }
    const DeschedulerConfiguration& config() const { return config_; }

private:
    // `cluster` narrowed to the nodes the top-level nodeSelector picks, which `nodes` holds.
    kd_snapshot selected(const kd_snapshot& cluster, std::vector<const kd_node*>& nodes) const;

    DeschedulerConfiguration config_;
    EvictionLimiter limiter_;
    HostContext ctx_;
    std::vector<std::unique_ptr<ProfileRuntime>> profiles_;
    uint64_t cycle_ = 0;
};

}  // namespace kd::core
