// The arbitrator (as koord's MigrationController arbitrates): every interval, the PodMigrationJobs
// waiting for admission are sorted (newest first, then by the pod order, Job-owned pods grouped,
// busiest Job first) and admitted one by one, each seeing the ones admitted before it in its
// limits.
#pragma once

#include "filters.hpp"
#include "migrations.hpp"

#include <kdesched/plugin.hpp>

#include <string>
#include <vector>

namespace kd::plugins::migrationcontroller {

// The waiting jobs in admission order.
std::vector<Job*> arbitration_order(const kd::Snapshot& snap, std::vector<Job*> waiting, const Migrations& jobs);

class Arbitrator {
public:
    explicit Arbitrator(const MigrationFilters& filters) : filters_(filters) {}

    // Admits what it can among `waiting`: a job whose pod is gone or passes both filters is
    // annotated passed-arbitration and written back; one failing the non-retryable filter fails
    // (ForbiddenMigratePod); one failing the retryable filter waits for the next round.
    // Returns how many jobs still wait.
    size_t arbitrate(kd::Cycle& cycle, const std::vector<Job*>& waiting, const Migrations& jobs);

private:
    const MigrationFilters& filters_;
};

}  // namespace kd::plugins::migrationcontroller
