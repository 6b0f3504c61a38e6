// What every profile's plugins share during a run: the cluster back end they write through, the
// global eviction limiter, the framework dry-run switch and whoever watches the outcomes.
#pragma once

#include "runtime/cluster_backend.hpp"
#include "runtime/eviction_limiter.hpp"
#include "runtime/run_observer.hpp"

#include <cstdint>
#include <string>

namespace kd::core {

struct HostContext {
    ClusterBackend* backend = nullptr;
    RunObserver* observer = nullptr;
    EvictionLimiter* limiter = nullptr;
    bool dry_run = false;
    bool eviction_failure_events = false;  // a Warning Event for each eviction stopped or failed
    int64_t descheduling_interval_ms = 0;
    // Stable identity of this descheduler (the leader-election lease); plugins get it plus "/<profile>".
    std::string instance_id;
    // kd_metrics_source bits the run collects (kd_create_info.metrics_sources, API 1.8).
    uint32_t metrics_sources = 0;
};

}  // namespace kd::core
