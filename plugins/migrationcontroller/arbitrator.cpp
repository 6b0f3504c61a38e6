#include "arbitrator.hpp"

#include <kdesched/koord_pod.hpp>

#include <algorithm>
#include <map>
#include <optional>

namespace kd::plugins::migrationcontroller {

namespace {

// The controller UID of the pod when it is a batch Job (grouping key of sort steps 3 and 4).
std::string job_controller(const std::optional<kd::Pod>& pod) {
    if (!pod) return "";
    auto c = pod->controller();
    return c && c->kind() == "Job" ? std::string(c->uid()) : "";
}

struct Entry {
    Job* job;
    std::optional<kd::Pod> pod;
    std::optional<kd::koord::PodRank> rank;  // nullopt: pod missing, sorts first
    std::string job_controller;
};

// The waiting jobs in arbitration order, each with its pod (looked up once).
std::vector<Entry> ordered(const kd::Snapshot& snap, const std::vector<Job*>& waiting, const Migrations& jobs) {
    std::vector<Entry> e;
    for (Job* j : waiting) {
        auto pod = snap.find_pod(j->pod_namespace(), j->pod_name());
        e.push_back({j, pod, pod ? std::optional(kd::koord::pod_rank(*pod)) : std::nullopt, job_controller(pod)});
    }
    // 1. newest job first.
    std::stable_sort(e.begin(), e.end(),
                     [](const Entry& a, const Entry& b) { return a.job->creation_ms() > b.job->creation_ms(); });
    // 2. by the pod order without usage; jobs whose pod is missing first.
    std::stable_sort(e.begin(), e.end(), [](const Entry& a, const Entry& b) {
        if (!a.rank || !b.rank) return !a.rank && b.rank;
        return kd::koord::compare_without_usage(*a.rank, *b.rank) < 0;
    });
    // 3. the jobs of one batch Job take the position of its first job.
    std::map<std::string, size_t> first;
    std::vector<size_t> position(e.size());
    for (size_t i = 0; i < e.size(); ++i)
        position[i] = e[i].job_controller.empty() ? i : first.emplace(e[i].job_controller, i).first->second;
    std::vector<size_t> idx(e.size());
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return position[a] < position[b]; });
    // 4. the batch Job with more migrations under way first.
    std::map<std::string, size_t> migrating;
    for (const Job& j : jobs.all()) {
        if (!(j.phase() == kPhaseRunning || j.annotation(kAnnotationPassedArbitration) == "true") || !j.active())
            continue;
        std::string c = job_controller(snap.find_pod(j.pod_namespace(), j.pod_name()));
        if (!c.empty()) ++migrating[c];
    }
    auto count = [&](size_t i) {
        auto it = migrating.find(e[i].job_controller);
        return e[i].job_controller.empty() || it == migrating.end() ? size_t{0} : it->second;
    };
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return count(a) > count(b); });
    std::vector<Entry> out;
    out.reserve(idx.size());
    for (size_t i : idx) out.push_back(std::move(e[i]));
    return out;
}

}  // namespace

std::vector<Job*> arbitration_order(const kd::Snapshot& snap, std::vector<Job*> waiting, const Migrations& jobs) {
    std::vector<Job*> out;
    for (const Entry& e : ordered(snap, waiting, jobs)) out.push_back(e.job);
    return out;
}

size_t Arbitrator::arbitrate(kd::Cycle& cycle, const std::vector<Job*>& waiting, const Migrations& jobs) {
    kd::Snapshot snap = cycle.snapshot();
    size_t still = 0;
    for (const Entry& e : ordered(snap, waiting, jobs)) {
        Job* job = e.job;
        const std::optional<kd::Pod>& pod = e.pod;
        if (pod) {
            if (auto v = filters_.non_retryable(snap, *pod); !v.allowed) {
                std::string msg = quoted_pod(pod->ns(), pod->name()) +
                                  " is forbidden to migrate because it does not meet the requirements";
                job->set_phase(kPhaseFailed);
                job->set_reason("ForbiddenMigratePod", msg);
                if (kd::WriteResult r = job->save(cycle); !r.ok())
                    cycle.warn("arbitration: updating PodMigrationJob \"" + std::string(job->name()) +
                               "\": " + r.message);
                cycle.record_event("PodMigrationJob", "", job->name(), "Warning", "ForbiddenMigratePod", "Migrating",
                                   msg + " (" + v.reason + ")");
                cycle.report_pod(*pod, "skipped", v.reason);
                continue;
            }
            if (auto v = filters_.retryable(snap, *pod, jobs, true); !v.allowed) {
                cycle.report_pod(*pod, "skipped", v.reason);
                ++still;
                continue;
            }
        }
        // Admitted: later jobs of this round count it (sequential admission).
        job->set_annotation(kAnnotationPassedArbitration, "true");
        if (kd::WriteResult r = job->save(cycle); !r.ok()) {
            // A conflict: the job changed since this tick's snapshot; the next round reads it again.
            cycle.log(r.conflict() ? kd::LogLevel::debug : kd::LogLevel::warn,
                      "arbitration: updating PodMigrationJob \"" + std::string(job->name()) + "\": " + r.message);
            job->set_annotation(kAnnotationPassedArbitration, "");
            ++still;
        }
    }
    return still;
}

}  // namespace kd::plugins::migrationcontroller
