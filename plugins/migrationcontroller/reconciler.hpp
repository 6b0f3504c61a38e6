// The PodMigrationJob state machine (koord's MigrationController `Reconcile`): Pending → Running →
// Succeeded / Failed, in EvictDirectly or ReservationFirst mode, and the scavenger. One call
// advances one job as far as the cluster allows; the caller writes the job back when it changed.
#pragma once

#include "args.hpp"
#include "job.hpp"
#include "object_limiters.hpp"
#include "pod_evictor.hpp"
#include "reservation.hpp"

#include <kdesched/plugin.hpp>

#include <optional>
#include <string>

namespace kd::plugins::migrationcontroller {

inline constexpr int64_t kRequeueMs = 3000;
// How long a job waits after a step failed for a passing reason (an API error) before the next try.
inline constexpr int64_t kErrorBackoffMs = 1000;

// What one reconcile did: whether the job changed (update it) and when to look at it again
// (0 = on the next change / tick).
struct ReconcileOutcome {
    bool changed = false;
    int64_t requeue_after_ms = 0;
    std::string error;  // the anchor returns an error (controller back-off): logged, retried
};

class Reconciler {
public:
    Reconciler(const MigrationControllerArgs& args, PodEvictor& evictor, ObjectLimiters& limiters)
        : args_(args), evictor_(evictor), limiters_(limiters) {}

    // `reservations`: the list_objects("Reservation") array of this tick.
    ReconcileOutcome reconcile(kd::Cycle& cycle, Job& job, std::string_view reservations);

    // Step 4 alone, for a job that waits for arbitration: fails it when its TTL has passed.
    // Returns true when the job changed (write it back).
    bool expire(kd::Cycle& cycle, Job& job);

    // A job that ended leaves no Reservation holding capacity: one still Pending, Available or
    // Waiting with no pod bound is deleted (docs/compatibility.md; koord keeps it until its TTL).
    // `unused` is ReservationView::unused of the cycle's Reservations. Returns "" when there was
    // nothing to release or it is gone, else the delete's error.
    std::string release(kd::Cycle& cycle, const Job& job,
                        const std::map<std::string, std::string, std::less<>>& unused);

    // Scavenger: every job older than ttl + 5m (30m without a ttl) is deleted, Reservation first.
    void scavenge(kd::Cycle& cycle, const std::vector<Job>& jobs);

private:
    struct Step;  // the state of one reconcile
    // ReservationFirst in its stages: the Reservation exists (made now, or seen in the snapshot),
    // is scheduled away from the pod's node; then either a pending pod gets scheduled, or the
    // pod is evicted and its replacement binds the Reservation and becomes Ready.
    ReconcileOutcome reservation_first(Step& s);
    bool ensure_reservation(Step& s);
    bool reservation_scheduled(Step& s);
    void pending_pod_scheduled(Step& s);
    bool bound_pod_ready(Step& s, std::string& bound_text);  // bound_text: "Pod \"ns/name\""
    // koord's `Reconcile` timeout check: true when the TTL has passed (the job is then failed, or
    // `out.error` is set).
    bool timed_out(Step& s);
    // koord's `evictPod`: true when the pod is gone (Eviction condition True); otherwise `out` says
    // what next.
    bool evict_pod(Step& s, ReconcileOutcome& out);
    void fail(Step& s, std::string_view reason, const std::string& message);
    void succeed(Step& s, const std::string& message);
    void event(Step& s, std::string_view type, std::string_view reason, const std::string& message);
    bool set_condition(Step& s, std::string type, std::string status, std::string reason, std::string message);

    const MigrationControllerArgs& args_;
    PodEvictor& evictor_;
    ObjectLimiters& limiters_;
};

}  // namespace kd::plugins::migrationcontroller
