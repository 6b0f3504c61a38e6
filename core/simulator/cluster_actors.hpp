// The rest of the cluster, played between descheduling cycles: workload controllers recreate
// evicted pods, a scheduler places them, and koordlet's NodeMetrics follow the pods.
#pragma once

#include "cluster/cluster_model.hpp"
#include "simulator/placement_rules.hpp"
#include "simulator/simulated_backend.hpp"
#include "simulator/simulation_report.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kd::core {

// The API server's part at the start of a simulation: it gives every object it stores a UID, a
// creation time and a resourceVersion, so a PodMigrationJob or Reservation loaded without them (a
// hand-written manifest) gets them here — UID "sim-loaded-<kind>-<name>", the time `now_ms`,
// versions after the highest loaded one — and can then be updated like any other.
void admit_loaded_objects(ClusterModel& model, int64_t now_ms);

class ClusterActors {
public:
    explicit ClusterActors(ClusterModel& model) : model_(model) {}

    // Deletes each evicted pod; when a ReplicaSet, StatefulSet, Job, ReplicationController or
    // DaemonSet controls it, creates its replacement, places it (least-allocated node that fits,
    // by requests; a DaemonSet pod only on its node) and makes it Ready; the pod's usage moves
    // from the old node's NodeMetric to the new node's. Returns what moved where.
    std::vector<PodMove> apply(const std::vector<QueuedEviction>& evictions, int64_t now_ms);

    // Applies the rest of a cycle's writes, before its evictions: deleted and created/updated
    // PodMigrationJobs and Reservations (a UID and creation time are given to new ones), pod
    // annotations. Returns the pod moves of apply(writes.evictions).
    std::vector<PodMove> apply(const CycleWrites& writes, int64_t now_ms);

    // koordlet reports: every NodeMetric is fresh at `now_ms`.
    void refresh_metrics(int64_t now_ms);

    // koord-scheduler: places every pending Reservation (phase "" or Pending) on the
    // least-allocated node its template fits — anti-affinity to the source node included — and
    // sets phase Available, status.nodeName and condition Scheduled; or, when nothing fits,
    // condition Scheduled=False, reason Unschedulable, with a kube-scheduler style message.
    void schedule_reservations(int64_t now_ms);

private:
    struct Placement {
        std::string node;     // "" when no node fits
        std::string message;  // why not, when no node fits
    };
    Placement schedule(const kd_pod& pod, const std::string& only_node);

    // Per pass (one apply or schedule_reservations call): the ready-node list and, per node, the
    // requests held there (non-finished pods plus Available, unbound Reservations), summed on
    // first use and forgotten when the node changes, instead of re-summed for every placement.
    void begin_pass();
    const std::map<std::string, int64_t, std::less<>>& requested(std::string_view node);
    void changed(const std::string& node);
    void reservations_changed();
    // An Available, unbound Reservation made for this pod's controller (or for the pod itself).
    const Reservation* reservation_for(const kd_pod& pod) const;
    std::vector<std::pair<std::string, int64_t>> take_usage(const std::string& node, const std::string& ns,
                                                            const std::string& name);
    void add_usage(const std::string& node, const std::string& ns, const std::string& name,
                   const std::vector<std::pair<std::string, int64_t>>& usage);
    std::string next_suffix();

    ClusterModel& model_;
    uint64_t counter_ = 0;
    std::vector<const kd_node*> nodes_;
    std::map<std::string, std::map<std::string, int64_t, std::less<>>, std::less<>> requested_;
    std::map<std::string, std::map<std::string, int64_t, std::less<>>, std::less<>> held_;
    bool held_valid_ = false;
    bool anti_affinity_ = false;  // some pod has required anti-affinity (placements must check it)
};

}  // namespace kd::core
