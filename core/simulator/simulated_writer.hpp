// The simulator's ClusterWriter: eviction calls made during a cycle are queued (the model must
// not change under the cycle's snapshot) and applied by the cluster actors once the cycle ends.
#pragma once

#include "cluster/cluster_model.hpp"
#include "runtime/host_context.hpp"
#include "simulator/simulation_report.hpp"

#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace kd::core {

// A pod leaving: evicted (Eviction API) or deleted; the simulator treats both alike.
struct QueuedEviction {
    std::string uid, pod, node, reason, plugin;
};

struct QueuedAnnotation {
    std::string uid, key, value;
};

// Everything one cycle's hooks wrote, in call order per kind.
struct CycleWrites {
    std::vector<std::variant<PodMigrationJob, Reservation>> upserts;
    std::vector<std::pair<std::string, std::string>> deletions;  // kind, name
    std::vector<QueuedAnnotation> annotations;
    std::vector<QueuedEviction> evictions;
    std::vector<EventReport> events;
};

// The stored object of the same kind and name, or nullptr: how a write finds what it updates.
inline const PodMigrationJob* stored(const ClusterModel& model, const PodMigrationJob& job) {
    return model.migration_job_by_name(job.name);
}
inline const Reservation* stored(const ClusterModel& model, const Reservation& r) {
    return model.reservation_by_name(r.name);
}

class SimulatedWriter : public ClusterWriter {
public:
    // Reads `model` to check writes when they are made (the model itself changes only in apply).
    explicit SimulatedWriter(const ClusterModel& model) : model_(model) {}

    std::string evict_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin) override;
    // From the Secret objects of the snapshot.
    std::string read_secret(std::string_view ns, std::string_view name,
                            std::map<std::string, std::string>& data) override;
    std::string create_object(std::string_view json, std::string_view plugin) override;
    std::string update_object(std::string_view json, std::string_view plugin) override;
    std::string delete_object(std::string_view kind, std::string_view ns, std::string_view name,
                              std::string_view plugin) override;
    std::string delete_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin) override;
    std::string annotate_pod(const kd_pod& pod, std::string_view key, std::string_view value,
                             std::string_view plugin) override;
    void record_event(std::string_view kind, std::string_view ns, std::string_view name, std::string_view type,
                      std::string_view reason, std::string_view action, std::string_view message,
                      std::string_view plugin) override;

    // What the cycle that just ran wrote; clears the queue.
    CycleWrites take();

private:
    std::string remove_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin);
    // Decodes a PodMigrationJob or Reservation; "" or the problem.
    std::string decode(std::string_view json, std::string_view plugin, bool must_exist);

    const ClusterModel& model_;
    CycleWrites queue_;
    std::set<std::string> queued_uids_;
};

}  // namespace kd::core
