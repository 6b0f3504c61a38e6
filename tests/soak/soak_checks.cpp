#include "soak_checks.hpp"

#include "daemon_harness.hpp"

#include <fmt/format.h>

#include <regex>
#include <set>

namespace kd::soak {
namespace {

using kd_test::str;

constexpr size_t kMessagesPerKind = 5;
const std::regex kLease("^/apis/coordination.k8s.io/v1/namespaces/[^/]+/leases(/[^/]+)?$");
const std::regex kEviction("^/api/v1/namespaces/([^/]+)/pods/([^/]+)/eviction$");
const std::regex kJobs("^/apis/scheduling.koordinator.sh/v1alpha1/podmigrationjobs(/([^/]+))?(/status)?$");

bool terminal(const std::string& phase) {
    return phase == "Succeeded" || phase == "Failed" || phase == "Aborted";
}

bool success(int code) {
    return code >= 200 && code < 300;
}

// A job as its writes left it.
struct JobState {
    std::string pod;  // ns/name
    std::string phase = "Pending";
    bool passed = false;
    bool pod_evicted = false;
    // What maxMigratingPerWorkload bounds (koord's filterMaxMigratingOrUnavailablePerWorkload,
    // pkg/descheduler/controllers/migration/arbitrator/filter.go): jobs Running, or Pending that passed
    // arbitration, whose pod is still there — once it is gone, its replacement's readiness is
    // maxUnavailablePerWorkload's business.
    bool counted() const { return !pod_evicted && (phase == "Running" || (phase == "Pending" && passed)); }
};

bool passed_arbitration(const rapidjson::Value& body) {
    return str(body, {"metadata", "annotations", "descheduler.koordinator.sh/passed-arbitration"}) == "true";
}

// Whether a merge patch names the member at `path` (to set it, or with null to remove it).
bool names(const rapidjson::Value& patch, std::initializer_list<const char*> path) {
    const rapidjson::Value* v = &patch;
    for (const char* key : path) {
        if (!v->IsObject() || !v->HasMember(key)) return false;
        v = &(*v)[key];
    }
    return true;
}

}  // namespace

void SoakFindings::add(const std::string& kind, const std::string& message) {
    if (violations[kind]++ < kMessagesPerKind) messages.push_back(kind + ": " + message);
}

size_t SoakFindings::total() const {
    size_t n = 0;
    for (const auto& [kind, count] : violations) n += count;
    return n;
}

void check_requests(const rapidjson::Document& requests, const SoakCluster& cluster, const SoakBudgets& budgets,
                    SoakFindings& f) {
    struct Lease {
        std::string user, holder;
        double time = -1e9;
    } lease;
    std::set<std::string> evicted;
    std::map<std::string, JobState> jobs;  // by name
    std::set<std::string> admitted;        // jobs seen counted
    auto workload_of = [&](const std::string& pod) -> long {
        auto it = cluster.pod_workloads().find(pod);
        return it == cluster.pod_workloads().end() ? -1 : long(it->second);
    };
    auto check_budget = [&](const std::string& job, double time) {
        long w = workload_of(jobs[job].pod);
        if (w < 0 || !jobs[job].counted()) return;
        const Workload& wl = cluster.workloads()[size_t(w)];
        int migrating = 0;
        std::set<std::string> unavailable;  // pods not Ready ∪ migrating (mergeUnavailableAndMigratingPods)
        for (const auto& [name, j] : jobs)
            if (j.counted() && workload_of(j.pod) == w) {
                ++migrating;
                unavailable.insert(j.pod);
            }
        if (migrating > budgets.max_migrating_per_workload)
            f.add("workload-over-budget",
                  fmt::format("{} migrations of {}/{} admitted at once (job {} at {:.3f}), maxMigratingPerWorkload {}",
                              migrating, wl.ns, wl.name, job, time, budgets.max_migrating_per_workload));
        for (const auto& span : cluster.unready_spans())
            if (span.workload == size_t(w) && span.from <= time && time < span.to && !evicted.count(span.pod))
                unavailable.insert(span.pod);
        if (admitted.insert(job).second) {  // counted for the first time: admitted now
            ++f.admissions;
            f.admissions_at_unavailable_limit += int(unavailable.size()) == budgets.max_unavailable_per_workload;
        }
        if (int(unavailable.size()) > budgets.max_unavailable_per_workload) {
            std::string pods;
            for (const auto& p : unavailable) pods += (pods.empty() ? "" : ", ") + p;
            f.add(
                "workload-over-unavailable",
                fmt::format("{} pods of {}/{} unavailable once job {} was admitted at {:.3f} ({}), "
                            "maxUnavailablePerWorkload {}",
                            unavailable.size(), wl.ns, wl.name, job, time, pods, budgets.max_unavailable_per_workload));
        }
    };

    for (const auto& r : requests["requests"].GetArray()) {
        std::string method = str(r, {"method"}), path = str(r, {"path"}), user = str(r, {"user"});
        if (method == "GET") continue;
        int code = r["code"].GetInt();
        double time = r["time"].GetDouble();
        const rapidjson::Value* body = r.HasMember("body") && r["body"].IsObject() ? &r["body"] : nullptr;
        std::smatch m;
        if (std::regex_match(path, kLease)) {
            ++f.lease_writes;
            if (success(code) && body) lease = {user, str(*body, {"spec", "holderIdentity"}), time};
            continue;
        }
        ++f.writes;
        if (lease.user != user || lease.holder.empty() || time - lease.time > budgets.lease_seconds)
            f.add("write-without-lease",
                  fmt::format("{} {} by {} at {:.3f}; the lease was last written by {} (holder \"{}\") at {:.3f}",
                              method, path, user, time, lease.user, lease.holder, lease.time));
        if (method == "POST" && std::regex_match(path, m, kEviction)) {
            std::string pod = m[1].str() + "/" + m[2].str();
            ++f.eviction_attempts;
            if (cluster.protected_pods().count(pod))
                f.add("protected-pod-evicted", pod + " (answered " + std::to_string(code) + ")");
            if (evicted.count(pod) && code != 404)
                f.add("evicted-again", fmt::format("{} asked for again after its eviction, answered {}", pod, code));
            if (code == 201) {
                ++f.evictions;
                evicted.insert(pod);
                for (auto& [name, j] : jobs) j.pod_evicted |= j.pod == pod;
            }
            continue;
        }
        if (!std::regex_match(path, m, kJobs) || !success(code)) continue;
        std::string name = m[2].str();
        if (method == "POST" && name.empty() && body) {
            name = str(*body, {"metadata", "name"});
            std::string pod =
                str(*body, {"spec", "podRef", "namespace"}) + "/" + str(*body, {"spec", "podRef", "name"});
            ++f.jobs_created;
            if (cluster.protected_pods().count(pod)) f.add("job-for-protected-pod", pod + " (job " + name + ")");
            for (const auto& [other, j] : jobs)
                if (j.pod == pod && !terminal(j.phase))
                    f.add("second-job-for-pod",
                          fmt::format("job {} for {} while job {} is {}", name, pod, other, j.phase));
            jobs[name] = {pod, "Pending", passed_arbitration(*body)};
        } else if ((method == "PUT" || method == "PATCH") && jobs.count(name) && body) {
            // A PUT carries the whole half it writes; a merge patch only what it changes.
            const bool whole = method == "PUT";
            if (m[3].matched && (whole || names(*body, {"status", "phase"})))
                jobs[name].phase =
                    str(*body, {"status", "phase"}).empty() ? "Pending" : str(*body, {"status", "phase"});
            else if (!m[3].matched && (whole || names(*body, {"metadata", "annotations",
                                                              "descheduler.koordinator.sh/passed-arbitration"})))
                jobs[name].passed = passed_arbitration(*body);
        } else if (method == "DELETE") {
            jobs.erase(name);
            continue;
        } else {
            continue;
        }
        check_budget(name, time);
    }
}

void check_end_state(const rapidjson::Document& jobs, const rapidjson::Document& reservations, SoakFindings& f) {
    std::map<std::string, std::string> job_of_reservation, phase_of_job;
    for (const auto& j : jobs["items"].GetArray()) {
        std::string name = str(j, {"metadata", "name"}), phase = str(j, {"status", "phase"});
        phase_of_job[name] = phase;
        job_of_reservation[str(j, {"spec", "reservationOptions", "reservationRef", "name"})] = name;
        if (!terminal(phase))
            f.add("job-not-ended",
                  fmt::format("{} for {}/{} is still {}", name, str(j, {"spec", "podRef", "namespace"}),
                              str(j, {"spec", "podRef", "name"}), phase.empty() ? "Pending" : phase));
    }
    for (const auto& r : reservations["items"].GetArray()) {
        std::string name = str(r, {"metadata", "name"}), phase = str(r, {"status", "phase"});
        if (phase == "Succeeded" || phase == "Failed") continue;  // consumed or expired: holds nothing
        auto job = job_of_reservation.find(name);
        if (job == job_of_reservation.end())
            f.add("reservation-left",
                  fmt::format("{} ({}) belongs to no job", name, phase.empty() ? "Pending" : phase));
        else if (terminal(phase_of_job[job->second]))
            f.add("reservation-left",
                  fmt::format("{} ({}) of job {}, which ended {}", name, phase.empty() ? "Pending" : phase, job->second,
                              phase_of_job[job->second]));
    }
}

}  // namespace kd::soak
