#include "safety_auditor.hpp"

#include "cluster/rfc3339.hpp"

#include <kdesched/view.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <variant>

namespace kd::safety {
namespace {

constexpr const char* kPassed = "descheduler.koordinator.sh/passed-arbitration";

std::string why_protected(const kd_pod* pod) {
    auto v = kd::Pod(pod).labels().get(kProtectedLabel);
    return v ? std::string(*v) : "";
}

// A job the workload budgets count: Running, or Pending once it passed arbitration (koord's
// filterMaxMigratingOrUnavailablePerWorkload, pkg/descheduler/controllers/migration/arbitrator/filter.go).
bool counted(const core::PodMigrationJob& j) {
    if (j.phase == "Running") return true;
    if (!j.phase.empty() && j.phase != "Pending") return false;
    auto passed = j.annotations.find(kPassed);
    return passed != j.annotations.end() && passed->second == "true";
}

const kd_pod* pod_of(const core::ClusterModel& model, const core::PodMigrationJob& j) {
    if (!j.pod_ref.uid.empty())
        if (const kd_pod* p = model.pod_by_uid(j.pod_ref.uid)) return p;
    return model.pod_by_name(j.pod_ref.ns, j.pod_ref.name);
}

// The workload whose replicas bound the pod's migrations (a ReplicaSet's Deployment); null for a
// pod without a controller or whose controller the model does not hold.
const core::Workload* workload_of(const core::ClusterModel& model, const kd_pod* pod) {
    auto c = kd::Pod(pod).controller();
    if (!c) return nullptr;
    const core::Workload* w = model.workload_by_uid(c->uid());
    if (w && w->kind == "ReplicaSet" && w->controller_kind == "Deployment")
        if (const core::Workload* top = model.workload_by_uid(w->controller_uid)) return top;
    return w;
}

// GetMaxMigrating / GetMaxUnavailable (pkg/descheduler/controllers/migration/util/util.go).
int budget(int replicas, const std::optional<Budget>& b) {
    int m = 0;
    if (b) {
        m = b->percent ? replicas * b->value / 100 : b->value;
        if (m == 0) m = 1;
    } else {
        m = replicas > 10 ? replicas * 10 / 100 : replicas >= 4 ? 2 : 1;
    }
    return std::min(m, replicas);
}

bool available(const kd_pod* p) {
    kd::Pod pod(p);
    bool active = !pod.terminating() && pod.phase() != KD_POD_SUCCEEDED && pod.phase() != KD_POD_FAILED;
    return active && pod.ready();
}

}  // namespace

void SafetyAuditor::violation(const std::string& kind, const std::string& what, int64_t now_ms) {
    ++kinds_[kind];
    violations_.push_back(fmt::format("{}: {} (at {})", kind, what, core::format_rfc3339(now_ms)));
}

void SafetyAuditor::audit(const core::ClusterModel& model, const core::CycleWrites& writes, int64_t now_ms) {
    jobs_.clear();
    for (const auto& [uid, j] : model.migration_jobs()) jobs_[j.name] = j;
    for (const auto& object : writes.upserts)
        if (const auto* job = std::get_if<core::PodMigrationJob>(&object)) audit_job(model, *job, now_ms);
    for (const auto& e : writes.evictions) audit_eviction(model, e, now_ms);
    audit_budgets(model, now_ms);
}

void SafetyAuditor::audit_job(const core::ClusterModel& model, const core::PodMigrationJob& job, int64_t now_ms) {
    auto prior = jobs_.find(job.name);
    const kd_pod* pod = pod_of(model, job);
    if (prior == jobs_.end()) {
        ++counts_.jobs_created;
        if (pod && !why_protected(pod).empty())
            violation("job-for-protected-pod",
                      fmt::format("migration job {} for {} ({})", job.name, kd::Pod(pod).key(), why_protected(pod)),
                      now_ms);
    }
    bool admitted = counted(job) && (prior == jobs_.end() || !counted(prior->second));
    const core::Workload* w = pod ? workload_of(model, pod) : nullptr;
    if (admitted && w && rules_.migration_controller) {
        ++counts_.admissions;
        // The other pods of the workload, as arbitration counts them: sequentially, so an
        // admission earlier in this call counts for the later ones.
        std::set<std::string> migrating;
        for (const auto& [name, j] : jobs_)
            if (counted(j))
                if (const kd_pod* p = pod_of(model, j); p && p != pod && workload_of(model, p) == w)
                    migrating.insert(std::string(kd::Pod(p).uid()));
        size_t unavailable = 0;
        for (const kd_pod* p : model.pods())
            if (p != pod && workload_of(model, p) == w &&
                (!available(p) || migrating.count(std::string(kd::Pod(p).uid()))))
                ++unavailable;
        int replicas = w->replicas.value_or(0);
        int max_migrating = budget(replicas, rules_.max_migrating_per_workload);
        int max_unavailable = budget(replicas, rules_.max_unavailable_per_workload);
        if (!migrating.empty() && int(migrating.size()) >= max_migrating)
            violation("workload-migrating-budget",
                      fmt::format("job {} for {} admitted with {} other pods of {} {} migrating, "
                                  "maxMigratingPerWorkload allows {}",
                                  job.name, kd::Pod(pod).key(), migrating.size(), w->kind, w->name, max_migrating),
                      now_ms);
        if (int(unavailable) >= max_unavailable)
            violation("workload-unavailable-budget",
                      fmt::format("job {} for {} admitted with {} other pods of {} {} unavailable, "
                                  "maxUnavailablePerWorkload allows {}",
                                  job.name, kd::Pod(pod).key(), unavailable, w->kind, w->name, max_unavailable),
                      now_ms);
    }
    jobs_[job.name] = job;
}

void SafetyAuditor::audit_eviction(const core::ClusterModel& model, const core::QueuedEviction& e, int64_t now_ms) {
    ++counts_.evictions;
    if (!evicted_.insert(e.uid).second) violation("evicted-twice", e.pod + " by " + e.plugin, now_ms);
    const kd_pod* pod = model.pod_by_uid(e.uid);
    if (!pod) return;
    if (std::string why = why_protected(pod); !why.empty())
        violation("protected-pod-evicted", fmt::format("{} ({}) by {}", e.pod, why, e.plugin), now_ms);
    if (!rules_.migration_controller) return;
    const core::PodMigrationJob* job = nullptr;
    for (const auto& [name, j] : jobs_)
        if (j.phase == "Running" && pod_of(model, j) == pod) job = &j;
    if (!job) {
        violation("evicted-without-admitted-job", e.pod + " by " + e.plugin, now_ms);
        return;
    }
    std::string mode =
        job->mode.empty() ? (rules_.reservation_first ? "ReservationFirst" : "EvictDirectly") : job->mode;
    if (mode != "ReservationFirst") return;
    ++counts_.reservation_checks;
    const core::Reservation* r = job->reservation_ref ? model.reservation_by_name(job->reservation_ref->name) : nullptr;
    if (!r || r->phase != "Available" || r->node_name.empty() || r->node_name == kd::Pod(pod).node_name())
        violation("evicted-without-scheduled-reservation",
                  fmt::format("{} evicted by job {}; its Reservation {}", e.pod, job->name,
                              !r                     ? "does not exist"
                              : r->node_name.empty() ? "is not scheduled"
                                                     : "is " + r->phase + " on " + r->node_name),
                  now_ms);
}

void SafetyAuditor::audit_budgets(const core::ClusterModel& model, int64_t now_ms) {
    if (!rules_.migration_controller) return;
    std::map<const core::Workload*, std::set<std::string>> migrating;
    for (const auto& [name, j] : jobs_)
        if (counted(j))
            if (const kd_pod* p = pod_of(model, j))
                if (const core::Workload* w = workload_of(model, p)) migrating[w].insert(name);
    for (const auto& [w, jobs] : migrating) {
        int max = budget(w->replicas.value_or(0), rules_.max_migrating_per_workload);
        if (int(jobs.size()) > max)
            violation("workload-over-budget",
                      fmt::format("{} {}/{} has {} admitted migrations, maxMigratingPerWorkload allows {}", w->kind,
                                  w->ns, w->name, jobs.size(), max),
                      now_ms);
    }
}

}  // namespace kd::safety
