// The simulator's cluster back end. It answers every write at once, as the API server would —
// conflicts on a stale resourceVersion, the status subresource of PodMigrationJobs and
// Reservations, not found, already exists — and queues what it accepted: the model must not
// change under a running hook, so the cluster actors apply the queue after each hook call.
#pragma once

#include "cluster/cluster_model.hpp"
#include "runtime/cluster_backend.hpp"
#include "simulator/simulation_report.hpp"

#include <functional>
#include <map>
#include <string>
#include <unordered_set>
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

using MigrationObject = std::variant<PodMigrationJob, Reservation>;

// Everything one hook call wrote, in call order per kind. Upserts are the objects as they are to
// be stored (a status update already merged into the stored object).
struct CycleWrites {
    std::vector<MigrationObject> upserts;
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

// The highest resourceVersion (as a number) of the model's PodMigrationJobs and Reservations; 0
// when there is none.
uint64_t highest_resource_version(const ClusterModel& model);

class SimulatedBackend : public ClusterBackend {
public:
    // Reads `model` to check writes when they are made (the model itself changes only when the
    // actors apply what take() hands them). New resourceVersions continue after the model's highest.
    explicit SimulatedBackend(const ClusterModel& model);

    WriteResult evict_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin) override;
    WriteResult delete_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin) override;
    WriteResult annotate_pod(const kd_pod& pod, std::string_view key, std::string_view value,
                             std::string_view plugin) override;
    WriteResult create_object(std::string_view json, std::string_view plugin) override;
    WriteResult update_object(std::string_view json, std::string_view plugin) override;
    WriteResult update_status(std::string_view json, std::string_view plugin) override;
    WriteResult delete_object(std::string_view kind, std::string_view ns, std::string_view name,
                              std::string_view plugin) override;
    void record_event(std::string_view kind, std::string_view ns, std::string_view name, std::string_view type,
                      std::string_view reason, std::string_view action, std::string_view message,
                      std::string_view plugin) override;
    // From the Secret objects of the snapshot, or from `secrets` when the simulation reads a live
    // cluster (which lists no Secrets).
    std::string read_secret(std::string_view ns, std::string_view name,
                            std::map<std::string, std::string>& data) override;
    using SecretSource =
        std::function<std::string(std::string_view ns, std::string_view name, std::map<std::string, std::string>&)>;
    void set_secret_source(SecretSource secrets) { secrets_ = std::move(secrets); }

    // What the hook call that just ran wrote; clears the queue.
    CycleWrites take();

private:
    enum class Write { create, update, status };
    WriteResult write_object(std::string_view json, std::string_view plugin, Write how);
    WriteResult remove_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin);
    // The object as the cluster holds it now, queued writes included; nullptr when there is none.
    const MigrationObject* latest(const std::string& kind, const std::string& name);

    const ClusterModel& model_;
    uint64_t revision_ = 0;  // the last resourceVersion given out
    CycleWrites queue_;
    std::unordered_set<std::string> queued_uids_;  // a cycle may queue every pod: no ordered tree
    // Objects written in this hook call, by kind and name: what the next write checks against.
    // A deleted one maps to nullopt.
    std::map<std::pair<std::string, std::string>, std::optional<MigrationObject>> written_;
    std::optional<MigrationObject> scratch_;  // latest()'s answer for an object only the model has
    SecretSource secrets_;
};

}  // namespace kd::core
