// `kdesched run`'s flags from kubernetes-sigs/descheduler's command line (a DeschedulerPolicy holds
// none of them): --dry-run, --descheduling-interval and component-base's --leader-elect*. They
// override the configuration file's values, as upstream's flags are the only source there.
#pragma once

#include "config/configuration.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace kd::cli {

struct UpstreamRunFlags {
    bool dry_run = false;
    std::string interval;
    bool leader_elect = false;  // applied only when given (--leader-elect, --leader-elect=false)
    CLI::Option* leader_elect_option = nullptr;
    std::string lease_duration, renew_deadline, retry_period, resource_lock, resource_name, resource_namespace;
};

void add_upstream_run_flags(CLI::App& cmd, UpstreamRunFlags& flags);

// Applies the flags given to `cfg`; "" or what is wrong, naming the flag and what to write.
std::string apply_upstream_run_flags(const UpstreamRunFlags& flags, core::DeschedulerConfiguration& cfg);

}  // namespace kd::cli
