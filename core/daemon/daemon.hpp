// `kdesched run`: the descheduler in a cluster. One control thread runs the Driver on the wall
// clock; reflectors keep the model in step (their changes are applied between hooks and while
// waiting); a leader elector (its own thread) gates cycles, ticks and writes; a health server
// (its own thread) answers probes and scrapes; SIGTERM / SIGINT finish the running hook, release
// the lease and exit 0.
#pragma once

#include "config/configuration.hpp"
#include "daemon/secure_serving.hpp"
#include "kube/client/api_client.hpp"
#include "loader/plugin_catalog.hpp"

#include <chrono>
#include <optional>

namespace kd::core::daemon {

struct DaemonOptions {
    std::chrono::milliseconds sync_timeout{std::chrono::minutes(2)};  // the first sync, every kind
    std::chrono::milliseconds stuck_after{std::chrono::minutes(3)};   // /healthz fails past this
    std::optional<SecureServing> secure;                              // the secure port (HTTPS), off when unset
};

// Blocks SIGTERM and SIGINT in the calling thread and every thread it starts from now on, so that
// only the daemon's signal thread receives them. Call first, before any thread exists.
void block_stop_signals();

// Exit codes as the CLI's: 0 (stopped by a signal, or one cycle done), 3 (the cluster could not
// be synced, the lease was lost, the loop failed).
int run_daemon(const DeschedulerConfiguration& config, const PluginCatalog& catalog, kube::ApiClient& client,
               const DaemonOptions& options = {});

}  // namespace kd::core::daemon
