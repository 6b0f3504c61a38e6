#include "cli/upstream_run_flags.hpp"

#include "config/leader_election_checks.hpp"

#include <kdesched/decode.hpp>

#include <map>

namespace kd::cli {

namespace {

// "" when `text` is empty (not given) or a Go duration stored into `out`; else the problem.
std::string duration_flag(const std::string& flag, const std::string& text, kd::Duration& out, bool zero_ok) {
    if (text.empty()) return "";
    auto d = kd::parse_duration(text);
    if (!d || d->value.count() < 0 || (!zero_ok && d->value.count() == 0))
        return flag + ": invalid duration \"" + text + "\": use a Go duration such as " +
               (zero_ok ? "5m, 1h30m or 0 (one cycle)" : "15s or 2m");
    out = *d;
    return "";
}

}  // namespace

void add_upstream_run_flags(CLI::App& cmd, UpstreamRunFlags& f) {
    cmd.add_flag("--dry-run", f.dry_run,
                 "Evict nothing and write nothing, only log what would be done (overrides the file's dryRun; "
                 "kubernetes-sigs/descheduler's flag)");
    cmd.add_option("--descheduling-interval", f.interval,
                   "Time between cycles, a Go duration such as 5m; 0 runs one cycle and exits (overrides the file's "
                   "deschedulingInterval; kubernetes-sigs/descheduler's flag)");
    f.leader_elect_option = cmd.add_flag("--leader-elect", f.leader_elect,
                                         "Elect a leader among the replicas (--leader-elect=false: do not; overrides "
                                         "the file's leaderElection.leaderElect; component-base's flag)");
    const std::map<std::string, std::string*> le = {{"--leader-elect-lease-duration", &f.lease_duration},
                                                    {"--leader-elect-renew-deadline", &f.renew_deadline},
                                                    {"--leader-elect-retry-period", &f.retry_period},
                                                    {"--leader-elect-resource-lock", &f.resource_lock},
                                                    {"--leader-elect-resource-name", &f.resource_name},
                                                    {"--leader-elect-resource-namespace", &f.resource_namespace}};
    for (const auto& [flag, target] : le)
        cmd.add_option(flag, *target,
                       "leaderElection." + flag.substr(std::string("--leader-elect-").size()) +
                           " (component-base's flag; overrides the file)");
}

std::string apply_upstream_run_flags(const UpstreamRunFlags& f, core::DeschedulerConfiguration& cfg) {
    if (f.dry_run) cfg.dryRun = true;
    if (auto e = duration_flag("--descheduling-interval", f.interval, cfg.deschedulingInterval, true); !e.empty())
        return e;
    core::LeaderElection& le = cfg.leaderElection;
    if (f.leader_elect_option && f.leader_elect_option->count() > 0) le.leaderElect = f.leader_elect;
    for (auto [flag, text, target] : {std::tuple{"--leader-elect-lease-duration", &f.lease_duration, &le.leaseDuration},
                                      std::tuple{"--leader-elect-renew-deadline", &f.renew_deadline, &le.renewDeadline},
                                      std::tuple{"--leader-elect-retry-period", &f.retry_period, &le.retryPeriod}})
        if (auto e = duration_flag(flag, *text, *target, false); !e.empty()) return e;
    if (!f.resource_lock.empty()) le.resourceLock = f.resource_lock;
    if (!f.resource_name.empty()) le.resourceName = f.resource_name;
    if (!f.resource_namespace.empty()) le.resourceNamespace = f.resource_namespace;
    static const std::map<std::string, std::string> flag_of = {{"leaseDuration", "--leader-elect-lease-duration"},
                                                               {"renewDeadline", "--leader-elect-renew-deadline"},
                                                               {"retryPeriod", "--leader-elect-retry-period"},
                                                               {"resourceLock", "--leader-elect-resource-lock"}};
    auto problems = core::leader_election_problems(le);
    if (!problems.empty())
        return flag_of.at(problems[0].first) + " (with the file's leaderElection): " + problems[0].second;
    return "";
}

}  // namespace kd::cli
