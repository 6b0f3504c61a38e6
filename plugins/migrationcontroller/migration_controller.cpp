#include "migration_controller.hpp"

#include <kdesched/node_fit.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace kd::plugins::migrationcontroller {

namespace {

constexpr int64_t kScavengeIntervalMs = 60'000;

uint64_t mix(uint64_t h, std::string_view s) {
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;  // FNV-1a
    return h;
}

uint64_t splitmix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

}  // namespace

MigrationController::MigrationController(kd::Host& host, Args args)
    : args_(std::move(args)),
      instance_id_(host.instance_id().empty() ? "kdesched/" + host.profile() : host.instance_id()),
      filters_(args_),
      limiters_(args_),
      evictor_(args_),
      reconciler_(args_, evictor_, limiters_),
      arbitrator_(filters_) {
    if (!args_.nodeSelector.empty()) {
        std::string why;
        node_selector_ = kd::StringLabelSelector::parse(args_.nodeSelector, &why);
        if (!node_selector_) throw std::invalid_argument("nodeSelector: " + why);
    }
}

bool MigrationController::ours(const Job& job) const {
    std::string_view by = job.annotation(kAnnotationCreatedBy);
    return by.empty() || by == instance_id_;
}

Migrations& MigrationController::jobs(kd::Cycle& cycle, bool fresh) {
    const uint64_t revision = cycle.snapshot().revision();
    if (!fresh && view_.index && revision != 0 && view_.revision == revision) return *view_.index;
    view_ = View{revision, Job::list(cycle.snapshot().list_objects("PodMigrationJob")), {}};
    // A created job shows up in a later snapshot; until then it still counts in the limits.
    std::erase_if(created_, [&](const Job& c) {
        return std::any_of(view_.list.begin(), view_.list.end(), [&](const Job& j) { return j.name() == c.name(); });
    });
    for (const Job& c : created_) view_.list.push_back(c);
    view_.index = std::make_unique<Migrations>(view_.list);
    return *view_.index;
}

void MigrationController::add_created(Job job) {
    created_.push_back(job);
    view_.list.push_back(std::move(job));
    view_.index = std::make_unique<Migrations>(view_.list);  // the list may have moved
}

std::string MigrationController::new_job_name(const kd::Pod& pod, int64_t now_ms) {
    uint64_t h = mix(mix(0xcbf29ce484222325ULL, instance_id_), pod.uid());
    h = splitmix(h ^ static_cast<uint64_t>(now_ms));
    uint64_t a = splitmix(h ^ ++names_made_), b = splitmix(a);
    char buf[40];
    // RFC 4122 version 4 layout.
    std::snprintf(buf, sizeof buf, "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(a >> 32),
                  static_cast<unsigned>((a >> 16) & 0xffff), static_cast<unsigned>(a & 0xfff),
                  static_cast<unsigned>(0x8000 | ((b >> 48) & 0x3fff)),
                  static_cast<unsigned long long>(b & 0xffffffffffffULL));
    return buf;
}

kd::Verdict MigrationController::filter(kd::Cycle& cycle, const kd::Pod& pod) {
    return filters_.framework_filter(cycle.snapshot(), pod, jobs(cycle));
}

kd::Verdict MigrationController::pre_eviction_filter(kd::Cycle& cycle, const kd::Pod& pod) {
    if (!args_.nodeFit || args_.skips("NodeFit")) return kd::Verdict::allow();
    kd::Snapshot snap = cycle.snapshot();
    kd::NodeRequestTotals totals(snap);
    bool fits = kd::pod_fits_any_other_selected_node(snap, pod, totals, node_selector_ ? &*node_selector_ : nullptr);
    return fits ? kd::Verdict::allow() : kd::Verdict::reject(reason::kNodeFit);
}

kd::EvictOutcome MigrationController::evict(kd::Cycle& cycle, const kd::Pod& pod, const kd::EvictRequest& request) {
    auto result = [](kd::EvictOutcome o) {
        o.plugin = kName;
        return o;
    };
    if (args_.dryRun) {
        cycle.info(std::string(kName) + " tries to evict " + quoted_pod(pod.ns(), pod.name()) +
                   " via dryRun mode since " + std::string(request.reason));
        return result(kd::EvictOutcome::accepted());
    }
    Migrations& m = jobs(cycle);
    if (auto v = filters_.framework_filter(cycle.snapshot(), pod, m); !v.allowed)
        return result(kd::EvictOutcome::filtered(v.reason));
    if (limiters_.exceeded(pod, cycle.now_ms())) return result(kd::EvictOutcome::filtered(reason::kObjectLimiter));
    Job job = Job::create(new_job_name(pod, cycle.now_ms()), pod.ns(), pod.name(), pod.uid(), args_.defaultJobMode,
                          args_.defaultJobTTL.ms(), args_.defaultDeleteOptions.text,
                          {{std::string(kAnnotationEvictReason), std::string(request.reason)},
                           {std::string(kAnnotationEvictTrigger), std::string(request.plugin)},
                           {std::string(kAnnotationCreatedBy), instance_id_}});
    if (std::string err = cycle.create_object(job.json()); !err.empty())
        return result(kd::EvictOutcome::failed("creating PodMigrationJob: " + err));
    add_created(std::move(job));
    return result(kd::EvictOutcome::accepted());
}

bool MigrationController::save(kd::Cycle& cycle, Job& job, std::map<std::string, int64_t>& requeue) {
    const std::string name(job.name()), subject = "PodMigrationJob \"" + name + "\"";
    kd::WriteResult r = job.save(cycle);
    if (r.ok()) {
        warnings_.forget(subject);
        return true;
    }
    if (r.conflict()) {
        // Someone else wrote the job since this tick's snapshot (koord's controller requeues on a
        // Conflict): reconcile it again, from the object as it is now, on the next tick.
        cycle.debug(subject + " changed meanwhile (" + r.message + "); reconciling it again");
        requeue[name] = cycle.now_ms();
        return false;
    }
    if (r.code == KD_WRITE_INVALID || r.code == KD_WRITE_FORBIDDEN) {
        refused_in_[name] = cycle.number();
        warnings_.warn(cycle, subject, "update refused: " + r.message + "; tried again next cycle");
    } else {
        requeue[name] = cycle.now_ms() + kErrorBackoffMs;
        warnings_.warn(cycle, subject, "update failed: " + r.message);
    }
    return false;
}

int64_t MigrationController::tick(kd::Cycle& cycle) {
    const int64_t now = cycle.now_ms();
    Migrations& m = jobs(cycle, true);  // a tick follows writes the cycle's snapshot does not show
    bool arbitrating = args_.arbitrationArgs.enabled;
    size_t waiting = 0;
    if (arbitrating) {
        std::vector<Job*> candidates;
        for (Job& j : m.all())
            if (!j.uid().empty() && j.pending() && ours(j) && j.annotation(kAnnotationPassedArbitration) != "true")
                candidates.push_back(&j);
        waiting = candidates.size();  // between rounds they still wait for the next one
        if (now >= next_arbitration_ms_) {
            waiting = arbitrator_.arbitrate(cycle, candidates, m);
            next_arbitration_ms_ = now + args_.arbitrationArgs.interval.ms();
        }
    }
    std::string_view reservations = cycle.snapshot().list_objects("Reservation");
    bool wrote = false;
    std::map<std::string, int64_t> requeue;
    for (Job& j : m.all()) {
        if (j.uid().empty() || !j.active() || !ours(j)) continue;
        if (arbitrating && j.pending() && j.annotation(kAnnotationPassedArbitration) != "true") {
            // Still waiting for admission: only its TTL can end it.
            if (reconciler_.expire(cycle, j)) wrote = save(cycle, j, requeue) || wrote;
            continue;
        }
        std::string name(j.name());
        if (auto it = refused_in_.find(name); it != refused_in_.end() && it->second == cycle.number()) continue;
        if (auto it = requeue_at_.find(name); it != requeue_at_.end() && it->second > now) {
            requeue[name] = it->second;
            continue;
        }
        ReconcileOutcome out = reconciler_.reconcile(cycle, j, reservations);
        if (!out.error.empty()) warnings_.warn(cycle, "PodMigrationJob \"" + name + "\"", out.error);
        if (out.requeue_after_ms > 0) requeue[name] = now + out.requeue_after_ms;
        if (out.changed) wrote = save(cycle, j, requeue) || wrote;
    }
    // After the reconciles, so a job that ended in this tick releases its Reservation at once; a
    // job ended by an earlier leader is caught here too.
    // The Reservations are read once, and only when some job that ended names one.
    std::optional<std::map<std::string, std::string, std::less<>>> unused;
    for (const Job& j : m.all())
        if (!j.uid().empty() && ours(j) && !j.active() && !j.reservation_name().empty()) {
            if (!unused) unused = ReservationView::unused(reservations);
            if (std::string err = reconciler_.release(cycle, j, *unused); !err.empty())
                warnings_.warn(cycle, "Reservation \"" + std::string(j.reservation_name()) + "\"",
                               "releasing it for ended PodMigrationJob \"" + std::string(j.name()) + "\": " + err +
                                   "; tried again next cycle");
        }
    requeue_at_ = std::move(requeue);
    std::erase_if(refused_in_, [&](const auto& e) { return e.second != cycle.number(); });
    if (now >= next_scavenge_ms_) {
        std::vector<Job> listed;
        for (const Job& j : m.all())
            if (!j.uid().empty()) listed.push_back(j);
        reconciler_.scavenge(cycle, listed);
        next_scavenge_ms_ = now + kScavengeIntervalMs;
    }
    // When to run again: at once after a write (its effects are the next reconcile's input), else
    // at the next arbitration round with jobs waiting, the earliest requeue, or the scavenger.
    int64_t next = next_scavenge_ms_;
    if (wrote) next = now;
    if (waiting > 0) next = std::min(next, next_arbitration_ms_);
    for (const auto& [name, at] : requeue_at_) next = std::min(next, at);
    return next;
}

}  // namespace kd::plugins::migrationcontroller
