#include "migrations.hpp"

namespace kd::plugins::migrationcontroller {

Migrations::Migrations(std::vector<Job>& jobs) : jobs_(jobs) {
    for (Job& j : jobs_) {
        by_name_[std::string(j.name())] = &j;
        if (!j.active()) continue;
        if (!j.pod_uid().empty()) by_uid_.emplace(std::string(j.pod_uid()), &j);
        by_pod_name_.emplace(std::string(j.pod_namespace()) + "/" + std::string(j.pod_name()), &j);
    }
}

Job* Migrations::active_job_of(const kd::Pod& pod) const {
    if (auto it = by_uid_.find(pod.uid()); it != by_uid_.end()) return it->second;
    if (auto it = by_pod_name_.find(pod.key()); it != by_pod_name_.end()) return it->second;
    return nullptr;
}

Job* Migrations::find(std::string_view name) const {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : it->second;
}

bool Migrations::counted(const Job& job, bool arbitrating) {
    if (job.phase() == kPhaseRunning) return true;
    if (!job.pending()) return false;
    return !arbitrating || job.annotation(kAnnotationPassedArbitration) == "true";
}

}  // namespace kd::plugins::migrationcontroller
