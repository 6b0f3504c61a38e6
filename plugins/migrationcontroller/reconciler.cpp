#include "reconciler.hpp"

#include <chrono>

namespace kd::plugins::migrationcontroller {

namespace {

constexpr int64_t kScavengeGraceMs = 5 * 60'000;     // a job is kept ttl + 5m ...
constexpr int64_t kScavengeDefaultMs = 30 * 60'000;  // ... or 30m without a ttl

constexpr std::string_view kReservationCreated = "ReservationCreated";
constexpr std::string_view kReservationScheduled = "ReservationScheduled";
constexpr std::string_view kEviction = "Eviction";
constexpr std::string_view kPodScheduled = "PodScheduled";
constexpr std::string_view kPodBoundReservation = "PodBoundReservation";
constexpr std::string_view kBoundPodReady = "BoundPodReady";
constexpr std::string_view kReservationBound = "ReservationBound";

bool pod_scheduled(const kd::Pod& pod) {
    auto c = pod.condition("PodScheduled");
    return c && c->status() == "True";
}

// Deletes a job's Reservation: "" when it is gone, also when it was gone already, as Koordinator
// lets NotFound pass (reservation/interpreter.go DeleteReservation deletes only what it finds; the
// scavenger in controller.go goes on past IsNotFound; pkg/descheduler/controllers/migration at
// koordinator a7a1b76b) — an earlier attempt may have deleted it and lost its answer, or a previous
// leader deleted it and died before writing the job's status.
std::string delete_reservation(kd::Cycle& cycle, std::string_view name) {
    kd::WriteResult r = cycle.delete_object("Reservation", "", name);
    return r.not_found() ? "" : r.message;
}

}  // namespace

struct Reconciler::Step {
    kd::Cycle& cycle;
    Job& job;
    std::string_view reservations;
    std::optional<kd::Pod> pod;                  // the job's pod, by namespace/name
    std::optional<ReservationView> reservation;  // ReservationFirst, once it exists
    ReconcileOutcome out;
    int64_t now;
    std::string pod_text() const { return quoted_pod(job.pod_namespace(), job.pod_name()); }
};

void Reconciler::event(Step& s, std::string_view type, std::string_view reason, const std::string& message) {
    s.cycle.record_event("PodMigrationJob", "", s.job.name(), type, reason, "Migrating", message);
}

void Reconciler::fail(Step& s, std::string_view reason, const std::string& message) {
    s.job.set_phase(kPhaseFailed);
    s.job.set_reason(reason, message);
    s.out.changed = true;
    s.out.requeue_after_ms = 0;
    event(s, "Warning", reason, message);
}

void Reconciler::succeed(Step& s, const std::string& message) {
    s.job.set_phase(kPhaseSucceeded);
    s.job.set_result("Complete", "", message);
    s.out.changed = true;
    s.out.requeue_after_ms = 0;
    event(s, "Normal", "Complete", message);
}

bool Reconciler::set_condition(Step& s, std::string type, std::string status, std::string reason, std::string message) {
    bool changed =
        s.job.update_condition({std::move(type), std::move(status), std::move(reason), std::move(message)}, s.now);
    s.out.changed = s.out.changed || changed;
    return changed;
}

ReconcileOutcome Reconciler::reconcile(kd::Cycle& cycle, Job& job, std::string_view reservations) {
    Step s{cycle, job, reservations, std::nullopt, std::nullopt, {}, cycle.now_ms()};
    if (job.paused() || !job.active()) return s.out;
    auto snap = cycle.snapshot();
    if (timed_out(s)) return s.out;
    if (job.pending()) {
        if (job.pod_namespace().empty() || job.pod_name().empty()) {
            fail(s, "InvalidPodRef", "Abort job caused by invalid podRef: namespace and name are required");
            return s.out;
        }
        s.pod = snap.find_pod(job.pod_namespace(), job.pod_name());
        if (!s.pod) {
            fail(s, "MissingPod", "Abort job caused by missing " + s.pod_text());
            return s.out;
        }
        job.set_pod_uid(s.pod->uid());
        job.set_phase(kPhaseRunning);
        s.out.changed = true;
    } else {
        s.pod = snap.find_pod(job.pod_namespace(), job.pod_name());
    }
    if (!job.has_annotation(kAnnotationEvict) && s.pod && limiters_.exceeded(*s.pod, s.now)) {
        s.out.requeue_after_ms = kRequeueMs;
        return s.out;
    }
    std::string_view mode = job.mode().empty() ? std::string_view(args_.defaultJobMode) : job.mode();
    if (mode == kEvictDirectly) {
        if (evict_pod(s, s.out)) succeed(s, s.pod_text() + " has been evicted");
        return s.out;
    }
    return reservation_first(s);
}

bool Reconciler::timed_out(Step& s) {
    Job& job = s.job;
    kd::Cycle& cycle = s.cycle;
    auto ttl = job.ttl_ms();
    if (ttl && *ttl > 0 && s.now - job.creation_ms() >= *ttl) {
        if (!job.reservation_name().empty()) {
            if (std::string err = delete_reservation(cycle, job.reservation_name()); !err.empty()) {
                s.out.error = "deleting Reservation \"" + std::string(job.reservation_name()) + "\": " + err;
                s.out.requeue_after_ms = kErrorBackoffMs;
                return true;
            }
        }
        // A job that timed out waiting for an unschedulable Reservation says so, with the
        // scheduler's message, rather than a bare Timeout (docs/compatibility.md).
        auto sched = job.condition(kReservationScheduled);
        if (sched && sched->status == "False" && sched->reason == "Unschedulable")
            fail(s, "Unschedulable",
                 "Abort job caused by timeout: the Reservation is unschedulable: " + sched->message);
        else
            fail(s, "Timeout", "Abort job caused by timeout");
        return true;
    }
    return false;
}

bool Reconciler::expire(kd::Cycle& cycle, Job& job) {
    Step s{cycle, job, {}, std::nullopt, std::nullopt, {}, cycle.now_ms()};
    return job.active() && !job.paused() && timed_out(s) && s.out.changed;
}

// ReservationFirst (koord's doMigrate with a Reservation): each stage returns true when the
// job may go on to the next one in this call; otherwise `s.out` says what happened.
ReconcileOutcome Reconciler::reservation_first(Step& s) {
    if (ensure_reservation(s) && reservation_scheduled(s)) {
        std::string bound;
        if (s.reservation->owned_by_object_only())
            pending_pod_scheduled(s);
        else if (evict_pod(s, s.out) && bound_pod_ready(s, bound))
            succeed(s, "Bind " + bound + " in Reservation \"" + std::string(s.job.reservation_name()) + "\"");
    }
    return s.out;
}

bool Reconciler::ensure_reservation(Step& s) {
    Job& job = s.job;
    if (job.reservation_name().empty()) {
        if (!s.pod) {
            fail(s, "MissingPod", "Abort job caused by missing " + s.pod_text());
            return false;
        }
        BuiltReservation r = build_reservation(job, *s.pod, s.now);
        kd::WriteResult created = s.cycle.create_object(r.json);
        // Already there: this job made it (its name is the job's), in a tick whose job update
        // did not get through; take it up again.
        if (!created.ok() && created.code != KD_WRITE_EXISTS) {
            if (set_condition(s, std::string(kReservationCreated), "False", "FailedCreateReservation", created.message))
                event(s, "Warning", "FailedCreateReservation", created.message);
            s.out.error = "creating Reservation \"" + r.name + "\": " + created.message;
            s.out.requeue_after_ms = kErrorBackoffMs;
            return false;
        }
        job.set_reservation_ref(r.name, "");
        s.out.changed = true;
        if (created.ok())
            event(s, "Normal", "ReservationCreated", "Reservation \"" + r.name + "\" created for " + s.pod_text());
        return false;  // seen in a later snapshot
    }
    std::string name(job.reservation_name());
    s.reservation = ReservationView::find(s.reservations, name);
    if (!s.reservation) {
        // Once seen, a vanished Reservation aborts the job at once (the anchor waits for the TTL);
        // one not seen yet may simply not have reached this snapshot.
        if (job.condition_true(kReservationCreated)) {
            fail(s, "MissingReservation", "Abort job caused by missing Reservation \"" + name + "\"");
        } else {
            s.out.requeue_after_ms = kRequeueMs;
        }
        return false;
    }
    if (!s.reservation->has_label(kReservationOrderLabel))
        if (kd::WriteResult r = s.cycle.update_object(s.reservation->with_order_label(s.now)); !r.ok()) {
            s.out.error = "labelling Reservation \"" + name + "\": " + r.message;
            s.out.requeue_after_ms = kErrorBackoffMs;
            return false;
        }
    set_condition(s, std::string(kReservationCreated), "True", "", "");
    return true;
}

bool Reconciler::reservation_scheduled(Step& s) {
    Job& job = s.job;
    const ReservationView& r = *s.reservation;
    const std::string name(job.reservation_name());
    auto scheduled_cond = r.condition("Scheduled");
    if (!job.condition_true(kReservationScheduled) && scheduled_cond && scheduled_cond->reason == "Unschedulable")
        if (set_condition(s, std::string(kReservationScheduled), "False", "Unschedulable", scheduled_cond->message))
            event(s, "Warning", "Unschedulable", scheduled_cond->message);
    if (r.phase().empty() || r.phase() == "Pending") {
        s.out.requeue_after_ms = kRequeueMs;
        return false;
    }
    if (auto ready = r.condition("Ready"); r.phase() == "Failed" && ready && ready->reason == "Expired") {
        fail(s, "ReservationExpired", "Reservation expired");
        return false;
    }
    bool scheduled = !r.node_name().empty() && scheduled_cond && scheduled_cond->reason == "Scheduled" &&
                     scheduled_cond->status == "True";
    if (!scheduled) {
        fail(s, "Unschedulable", scheduled_cond ? scheduled_cond->message : "Reservation is not scheduled");
        return false;
    }
    if (job.node_name().empty() && !job.condition_true(kReservationScheduled)) {
        if (s.pod && r.node_name() == s.pod->node_name()) {
            fail(s, "ForbiddenMigratePod",
                 "Scheduler assignes the Reservation \"" + name + "\" on the same node \"" +
                     std::string(r.node_name()) + "\" as the " + s.pod_text());
            s.out.error = "Reservation on the same node as the pod";
            return false;
        }
        job.set_node_name(r.node_name());
        set_condition(s, std::string(kReservationScheduled), "True", "", "");
        event(s, "Normal", "ReservationScheduled",
              "Assign Reservation \"" + name + "\" to node \"" + std::string(r.node_name()) + "\"");
    }
    return true;
}

void Reconciler::pending_pod_scheduled(Step& s) {
    // A pending pod's migration: done when the scheduler has placed the pod itself.
    const ReservationView& r = *s.reservation;
    if (!s.pod) {
        fail(s, "MissingPod", "Abort job caused by missing " + s.pod_text());
        return;
    }
    if (pod_scheduled(*s.pod)) {
        set_condition(s, std::string(kPodScheduled), "True", "", "");
        succeed(s, "Assign " + s.pod_text() + " to node \"" + std::string(s.pod->node_name()) + "\"");
        return;
    }
    auto bound = r.bound_pod();
    if (r.phase() == "Succeeded" && bound && bound->uid != s.pod->uid()) {
        fail(s, "ForbiddenMigratePod", "Reservation is already bound by another Pod");
        return;
    }
    auto c = s.pod->condition("PodScheduled");
    set_condition(s, std::string(kPodScheduled), "False", "Unschedulable",
                  c ? std::string(c->message()) : std::string());
    s.out.requeue_after_ms = kRequeueMs;
}

bool Reconciler::bound_pod_ready(Step& s, std::string& bound_text) {
    Job& job = s.job;
    const std::string name(job.reservation_name());
    auto bound = s.reservation->bound_pod();
    if (!bound) {
        if (set_condition(s, std::string(kPodBoundReservation), "False", "WaitForPodBindReservation",
                          "Waiting for the replacement of " + s.pod_text() + " to bind Reservation \"" + name + "\""))
            event(s, "Normal", "WaitForPodBindReservation", "Waiting for a pod to bind Reservation \"" + name + "\"");
        s.out.requeue_after_ms = kRequeueMs;
        return false;
    }
    bound_text = quoted_pod(bound->ns, bound->name);
    if (set_condition(s, std::string(kReservationBound), "True", "", "")) {
        job.set_bound_pod(bound->ns, bound->name, bound->uid);
        event(s, "Normal", "PodBoundReservation", bound_text + " binds Reservation \"" + name + "\"");
    }
    auto bound_pod = s.cycle.snapshot().find_pod(bound->ns, bound->name);
    if (bound_pod && !bound_pod->ready()) {  // a bound pod that is gone counts as ready
        if (set_condition(s, std::string(kBoundPodReady), "False", "WaitForBoundPodReady",
                          "Waiting for " + bound_text + " to be Ready"))
            event(s, "Normal", "WaitForBoundPodReady", "Waiting for " + bound_text + " to be Ready");
        s.out.requeue_after_ms = kRequeueMs;
        return false;
    }
    if (set_condition(s, std::string(kBoundPodReady), "True", "", ""))
        event(s, "Normal", "BoundPodReady", bound_text + " is Ready");
    set_condition(s, std::string(kPodBoundReservation), "True", "", "");
    return true;
}

bool Reconciler::evict_pod(Step& s, ReconcileOutcome& out) {
    Job& job = s.job;
    if (job.condition_true(kEviction)) return true;
    auto eviction = job.condition(kEviction);
    bool replaced = s.pod && eviction && !job.pod_uid().empty() && job.pod_uid() != s.pod->uid();
    if (!s.pod || replaced) {
        if (job.status_text() != kEviction) {
            fail(s, "MissingPod", "Abort job caused by missing " + s.pod_text());
            return false;
        }
        std::string msg = s.pod_text() + " has been evicted";
        if (set_condition(s, std::string(kEviction), "True", "EvictComplete", msg))
            event(s, "Normal", "EvictComplete", msg);
        return true;
    }
    if (eviction && eviction->reason == "Evicting") {
        out.requeue_after_ms = kRequeueMs;  // waiting for the pod to go
        return false;
    }
    if (s.reservation && s.reservation->phase() == "Succeeded") {
        fail(s, "ForbiddenMigratePod", "Reservation is already bound by another Pod");
        return false;
    }
    if (std::string err = evictor_.evict(s.cycle, *s.pod, job); !err.empty()) {
        event(s, "Warning", "Evicting", "Failed to evict " + s.pod_text() + ": " + err);
        out.error = "evicting " + s.pod_text() + ": " + err;
        out.requeue_after_ms = kErrorBackoffMs;
        return false;
    }
    limiters_.track(s.cycle.snapshot(), *s.pod, s.now);
    std::string msg = s.pod_text() + " evicted from node \"" + std::string(s.pod->node_name()) + "\" by the reason \"" +
                      PodEvictor::reason_of(job) + "\"";
    set_condition(s, std::string(kEviction), "False", "Evicting", msg);
    event(s, "Normal", "Evicting", msg);
    out.requeue_after_ms = kRequeueMs;
    return false;
}

std::string Reconciler::release(kd::Cycle& cycle, const Job& job,
                                const std::map<std::string, std::string, std::less<>>& unused) {
    if (job.active() || job.reservation_name().empty()) return "";
    auto r = unused.find(job.reservation_name());
    if (r == unused.end()) return "";
    kd::WriteResult deleted = cycle.delete_object("Reservation", "", r->first);
    if (deleted.not_found()) return "";  // released already; the snapshot had not caught up
    if (!deleted.ok()) return deleted.message;
    cycle.info("released Reservation \"" + r->first + "\" (" + r->second + ") of PodMigrationJob \"" +
               std::string(job.name()) + "\", which ended " + std::string(job.phase()));
    return "";
}

void Reconciler::scavenge(kd::Cycle& cycle, const std::vector<Job>& jobs) {
    int64_t now = cycle.now_ms();
    for (const Job& job : jobs) {
        auto ttl = job.ttl_ms();
        int64_t keep = ttl && *ttl > 0 ? *ttl + kScavengeGraceMs : kScavengeDefaultMs;
        if (now - job.creation_ms() <= keep) continue;
        if (!job.reservation_name().empty())
            if (std::string err = delete_reservation(cycle, job.reservation_name()); !err.empty()) {
                cycle.warn("scavenger stopped: deleting Reservation \"" + std::string(job.reservation_name()) +
                           "\": " + err);
                return;
            }
        if (kd::WriteResult r = cycle.delete_object("PodMigrationJob", "", job.name()); !r.ok() && !r.not_found())
            cycle.warn("scavenger: deleting PodMigrationJob \"" + std::string(job.name()) + "\": " + r.message);
    }
}

}  // namespace kd::plugins::migrationcontroller
