// The PodMigrationJobs known in one hook call, indexed the way koord's filters count them:
// by pod UID and by pod namespace/name.
#pragma once

#include "job.hpp"

#include <kdesched/view.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kd::plugins::migrationcontroller {

class Migrations {
public:
    // `jobs` must outlive this index and keep its addresses.
    explicit Migrations(std::vector<Job>& jobs);

    // Active (Pending or Running) job of the pod: by podRef UID, else by namespace/name.
    Job* active_job_of(const kd::Pod& pod) const;
    Job* find(std::string_view name) const;
    std::vector<Job>& all() const { return jobs_; }

    // Whether a job counts towards the migrating limits: Running always; Pending only when it
    // passed arbitration, if the counting happens inside arbitration.
    static bool counted(const Job& job, bool arbitrating);

private:
    std::vector<Job>& jobs_;
    std::map<std::string, Job*, std::less<>> by_uid_, by_pod_name_, by_name_;
};

}  // namespace kd::plugins::migrationcontroller
