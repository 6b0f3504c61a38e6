// Checks each write of a simulated run against the model it was made on, and counts what it saw:
//  - no protected pod is evicted or gets a migration job (scenario.hpp labels them);
//  - no pod is evicted twice;
//  - with MigrationController as the evictor, a pod is evicted only by a migration job that was
//    admitted, and in ReservationFirst only once a Reservation for it is scheduled on another node;
//  - per workload, a migration is admitted only within maxMigratingPerWorkload and
//    maxUnavailablePerWorkload (Koordinator's filterMaxMigratingOrUnavailablePerWorkload in
//    pkg/descheduler/controllers/migration/arbitrator/filter.go, with GetMaxMigrating and
//    GetMaxUnavailable of .../migration/util/util.go), and the workload's admitted migrations never
//    exceed its budget.
// The rules are written from Koordinator's behaviour, not from the plugin's code. Where it leaves a count
// open (a job whose pod is gone), the auditor counts the least, so what it reports is a violation
// under any reading.
#pragma once

#include "scenario.hpp"

#include "cluster/cluster_model.hpp"
#include "simulator/simulated_backend.hpp"

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace kd::safety {

struct AuditCounts {
    size_t evictions = 0, jobs_created = 0, admissions = 0, reservation_checks = 0, protected_evictable = 0;
};

class SafetyAuditor {
public:
    explicit SafetyAuditor(ScenarioRules rules) : rules_(std::move(rules)) {}

    void audit(const core::ClusterModel& model, const core::CycleWrites& writes, int64_t now_ms);

    const AuditCounts& counts() const { return counts_; }
    // "kind: what, which pod, when", in the order found.
    const std::vector<std::string>& violations() const { return violations_; }
    // Violations by kind.
    const std::map<std::string, size_t>& violation_kinds() const { return kinds_; }

private:
    void violation(const std::string& kind, const std::string& what, int64_t now_ms);
    void audit_job(const core::ClusterModel& model, const core::PodMigrationJob& job, int64_t now_ms);
    void audit_eviction(const core::ClusterModel& model, const core::QueuedEviction& e, int64_t now_ms);
    void audit_budgets(const core::ClusterModel& model, int64_t now_ms);

    ScenarioRules rules_;
    AuditCounts counts_;
    std::vector<std::string> violations_;
    std::map<std::string, size_t> kinds_;
    std::set<std::string> evicted_;                      // pod UIDs
    std::map<std::string, core::PodMigrationJob> jobs_;  // by name: the model's, then this call's writes
};

}  // namespace kd::safety
