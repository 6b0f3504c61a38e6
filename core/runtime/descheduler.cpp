#include "runtime/descheduler.hpp"

#include "error.hpp"

#include <spdlog/spdlog.h>

namespace kd::core {

Descheduler::Descheduler(const DeschedulerConfiguration& config, const PluginCatalog& catalog, ClusterBackend* backend,
                         RunObserver* observer)
    : config_(config),
      limiter_(config.maxNoOfPodsToEvictPerNode, config.maxNoOfPodsToEvictPerNamespace,
               config.maxNoOfPodsToEvictTotal) {
    ctx_.backend = backend;
    ctx_.observer = observer;
    ctx_.limiter = &limiter_;
    ctx_.dry_run = config.dryRun;
    ctx_.eviction_failure_events = config.evictionFailureEventNotification;
    ctx_.descheduling_interval_ms = config.deschedulingInterval.ms();
    // Replicas of one deployment share the lease, so they share the identity: a new leader
    // resumes what the old one started.
    ctx_.instance_id = config.leaderElection.resourceNamespace + "/" + config.leaderElection.resourceName;
    ctx_.metrics_sources = config.kubernetesMetrics ? uint32_t(KD_METRICS_KUBERNETES) : 0u;
    std::vector<std::string> problems;
    for (const auto& p : config_.profiles) {
        try {
            profiles_.push_back(std::make_unique<ProfileRuntime>(p, catalog, ctx_));
        } catch (const Error& e) {
            problems.push_back(e.what());
        }
    }
    if (!problems.empty()) throw Error(config_.sourceFile + ": the profiles cannot run:", problems);
}

kd_snapshot Descheduler::selected(const kd_snapshot& cluster, std::vector<const kd_node*>& nodes) const {
    nodes = select_nodes(cluster.all_nodes, cluster.all_node_count, config_.nodeSelector,
                         config_.nodeSelectorText ? &config_.nodeSelectorText->selector : nullptr);
    kd_snapshot view = cluster;
    view.nodes = nodes.data();
    view.node_count = nodes.size();
    return view;
}

namespace {

// Errors of several profiles as one message ("; " between them); nullopt when there are none.
std::optional<std::string> joined(const std::vector<std::string>& errors) {
    if (errors.empty()) return std::nullopt;
    std::string out = errors.front();
    for (size_t i = 1; i < errors.size(); ++i) out += "; " + errors[i];
    return out;
}

}  // namespace

std::optional<std::string> Descheduler::run_cycle(const kd_snapshot& cluster) {
    ++cycle_;
    std::vector<const kd_node*> nodes;
    kd_snapshot view = selected(cluster, nodes);
    if (nodes.size() <= 1)
        return "the cluster size is 0 or 1 (" + std::to_string(nodes.size()) + " ready node(s) selected)";
    limiter_.reset();
    // As koord's runProfiles: a profile whose plugin fails is reported and the others still run.
    std::vector<std::string> errors;
    for (auto& p : profiles_)
        if (auto err = p->deschedule(view, cycle_))
            errors.push_back("profile \"" + p->name() + "\" deschedule: " + *err);
    for (auto& p : profiles_)
        if (auto err = p->balance(view, cycle_)) errors.push_back("profile \"" + p->name() + "\" balance: " + *err);
    return joined(errors);
}

Descheduler::TickResult Descheduler::tick(const kd_snapshot& cluster) {
    TickResult out;
    std::vector<const kd_node*> nodes;
    kd_snapshot view = selected(cluster, nodes);
    std::vector<std::string> errors;
    for (auto& p : profiles_) {
        int64_t next = 0;
        if (auto err = p->tick(view, cycle_, next)) errors.push_back("profile \"" + p->name() + "\" tick: " + *err);
        if (next > 0 && (out.next_ms == 0 || next < out.next_ms)) out.next_ms = next;
    }
    out.error = joined(errors);
    return out;
}

}  // namespace kd::core
