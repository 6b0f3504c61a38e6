// MigrationController (Koordinator's pkg/descheduler/controllers/migration): the evict plugin that
// turns an eviction into a PodMigrationJob, the filter LowNodeLoad consults, and the controller —
// arbitration, reconcile, scavenger — run by the host's periodic hook.
#pragma once

#include "arbitrator.hpp"
#include "args.hpp"
#include "filters.hpp"
#include "migrations.hpp"
#include "object_limiters.hpp"
#include "pod_evictor.hpp"
#include "reconciler.hpp"
#include "repeated_warnings.hpp"

#include <kdesched/plugin.hpp>
#include <kdesched/selector_string.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kd::plugins::migrationcontroller {

class MigrationController {
public:
    static constexpr const char* kName = "MigrationController";
    static constexpr const char* kVersion = "1.0.0";
    static constexpr const char* kDescription =
        "Migrates pods safely through PodMigrationJobs: arbitration, Reservation first, rate limits";
    using Args = MigrationControllerArgs;

    MigrationController(kd::Host& host, Args args);

    kd::Verdict filter(kd::Cycle& cycle, const kd::Pod& pod);
    kd::Verdict pre_eviction_filter(kd::Cycle& cycle, const kd::Pod& pod);
    kd::EvictOutcome evict(kd::Cycle& cycle, const kd::Pod& pod, const kd::EvictRequest& request);
    int64_t tick(kd::Cycle& cycle);

    const Args& args() const { return args_; }
    const std::string& instance_id() const { return instance_id_; }

private:
    // The jobs of the hook's snapshot plus the ones this instance created that it does not show yet.
    // Kept while the snapshots show the same model revision; `fresh` re-reads.
    Migrations& jobs(kd::Cycle& cycle, bool fresh = false);
    void add_created(Job job);
    // A fresh UUID-shaped name, unique per instance, pod and time, and reproducible in simulation.
    std::string new_job_name(const kd::Pod& pod, int64_t now_ms);
    // Jobs this instance runs: its own and those nobody claims (created by hand).
    bool ours(const Job& job) const;
    // Writes what changed of a job; true when it was written. A conflict requeues it for the next
    // tick, another failure after a backoff — and a write the server refuses as invalid or
    // forbidden waits for the next cycle (trying again at once would be refused again).
    bool save(kd::Cycle& cycle, Job& job, std::map<std::string, int64_t>& requeue);

    Args args_;
    std::string instance_id_;
    MigrationFilters filters_;
    ObjectLimiters limiters_;
    PodEvictor evictor_;
    Reconciler reconciler_;
    Arbitrator arbitrator_;
    std::optional<kd::StringLabelSelector> node_selector_;

    struct View {
        uint64_t revision = 0;  // of the snapshot the list was read from (0: none)
        std::vector<Job> list;
        std::unique_ptr<Migrations> index;
    } view_;
    std::vector<Job> created_;                    // created, not yet in a snapshot
    std::map<std::string, int64_t> requeue_at_;   // by job name
    std::map<std::string, uint64_t> refused_in_;  // job name → cycle whose write was refused
    RepeatedWarnings warnings_;
    int64_t next_arbitration_ms_ = 0, next_scavenge_ms_ = 0;
    uint64_t names_made_ = 0;
};

}  // namespace kd::plugins::migrationcontroller
