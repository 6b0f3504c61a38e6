// What the fault soak checks, from the test API server's own record of every request it served
// (who sent it, when, what it answered) and from the objects it holds at the end:
//  - writes only from the replica holding the lease at that moment (its last successful lease
//    write is its own and younger than the lease duration);
//  - no protected pod evicted or given a migration job;
//  - no pod evicted again after an eviction succeeded, no second migration job for a pod while
//    one is running;
//  - per workload, the admitted migrations (Running, or Pending that passed arbitration) never
//    more than maxMigratingPerWorkload, replayed from the jobs' writes; and, at each admission,
//    its unavailable pods (replacements not yet Ready, from the actor's record, with the pods of
//    admitted migrations) never more than maxUnavailablePerWorkload;
//  - at the end, every job in a terminal phase and no Reservation left holding room for a job
//    that ended (or for no job at all).
#pragma once

#include "soak_cluster.hpp"

#include <rapidjson/document.h>

#include <map>
#include <string>
#include <vector>

namespace kd::soak {

struct SoakFindings {
    size_t writes = 0, lease_writes = 0, evictions = 0, eviction_attempts = 0, jobs_created = 0;
    // Admissions replayed, and those that left their workload exactly at maxUnavailablePerWorkload.
    size_t admissions = 0, admissions_at_unavailable_limit = 0;
    std::map<std::string, size_t> violations;  // by kind
    std::vector<std::string> messages;         // the first few of each kind

    void add(const std::string& kind, const std::string& message);
    size_t total() const;
};

struct SoakBudgets {
    double lease_seconds;  // leaseDuration
    int max_migrating_per_workload, max_unavailable_per_workload;
};

// `requests` is the server's {"requests": [...]}.
void check_requests(const rapidjson::Document& requests, const SoakCluster& cluster, const SoakBudgets& budgets,
                    SoakFindings& findings);

// The jobs and Reservations the server holds once the faults stopped and the jobs had time to end.
void check_end_state(const rapidjson::Document& jobs, const rapidjson::Document& reservations, SoakFindings& findings);

}  // namespace kd::soak
