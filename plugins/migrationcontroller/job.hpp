// A PodMigrationJob (scheduling.koordinator.sh/v1alpha1) as the controller edits it: the wire JSON
// kept whole (fields we do not know survive an update) with typed access to what the controller
// reads and writes, and what changed since it was read — metadata and spec, or the status, which
// is a subresource written on its own.
#pragma once

#include <kdesched/plugin.hpp>

#include <rapidjson/document.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kd::plugins::migrationcontroller {

inline constexpr std::string_view kPhasePending = "Pending";
inline constexpr std::string_view kPhaseRunning = "Running";
inline constexpr std::string_view kPhaseSucceeded = "Succeeded";
inline constexpr std::string_view kPhaseFailed = "Failed";
inline constexpr std::string_view kPhaseAborted = "Aborted";

inline constexpr std::string_view kAnnotationEvictReason = "koordinator.sh/evict-reason";
inline constexpr std::string_view kAnnotationEvictTrigger = "koordinator.sh/evict-trigger";
inline constexpr std::string_view kAnnotationCreatedBy = "koordinator.sh/job-created-by";
inline constexpr std::string_view kAnnotationPassedArbitration = "descheduler.koordinator.sh/passed-arbitration";
inline constexpr std::string_view kAnnotationEvict = "descheduler.alpha.kubernetes.io/evict";

// One PodMigrationJob condition.
struct JobCondition {
    std::string type, status, reason, message;
};

class Job {
public:
    // Parses one object of a list_objects("PodMigrationJob") array; throws std::runtime_error.
    explicit Job(const rapidjson::Value& object);
    // A new Pending job for the pod, as koord's `Evict` creates it; `delete_options` JSON or "".
    static Job create(std::string name, std::string_view pod_ns, std::string_view pod_name, std::string_view pod_uid,
                      std::string_view mode, int64_t ttl_ms, std::string_view delete_options,
                      std::vector<std::pair<std::string, std::string>> annotations);
    // Every job of a list_objects array.
    static std::vector<Job> list(std::string_view json_array);

    Job(const Job& other);
    Job& operator=(const Job& other);
    Job(Job&&) = default;
    Job& operator=(Job&&) = default;

    std::string_view name() const { return str("metadata", "name"); }
    std::string_view uid() const { return str("metadata", "uid"); }
    int64_t creation_ms() const;
    std::string_view annotation(std::string_view key) const;
    bool has_annotation(std::string_view key) const;
    std::string_view label(std::string_view key) const;
    void set_annotation(std::string_view key, std::string_view value);

    // spec
    std::string_view pod_namespace() const { return str("spec", "podRef", "namespace"); }
    std::string_view pod_name() const { return str("spec", "podRef", "name"); }
    std::string_view pod_uid() const { return str("spec", "podRef", "uid"); }
    void set_pod_uid(std::string_view uid);
    bool paused() const;
    std::optional<int64_t> ttl_ms() const;  // nullopt when absent or unparsable
    std::string_view mode() const { return str("spec", "mode"); }
    std::string_view reservation_name() const { return str("spec", "reservationOptions", "reservationRef", "name"); }
    void set_reservation_ref(std::string_view name, std::string_view uid);
    // spec.reservationOptions.template as JSON text ("" when absent).
    std::string reservation_template() const;
    // spec.deleteOptions as JSON text ("" when absent).
    std::string delete_options() const;

    // status
    std::string_view phase() const { return str("status", "phase"); }
    // Phase "" or Pending (an empty phase is Pending), or Running: the job is still to be done.
    bool active() const { return phase().empty() || phase() == kPhasePending || phase() == kPhaseRunning; }
    bool pending() const { return phase().empty() || phase() == kPhasePending; }
    std::string_view status_text() const { return str("status", "status"); }
    std::string_view reason() const { return str("status", "reason"); }
    std::string_view message() const { return str("status", "message"); }
    std::string_view node_name() const { return str("status", "nodeName"); }
    void set_phase(std::string_view phase);
    // status.status, status.reason, status.message.
    void set_result(std::string_view status, std::string_view reason, std::string_view message);
    void set_reason(std::string_view reason, std::string_view message);
    void set_node_name(std::string_view node);
    void set_bound_pod(std::string_view ns, std::string_view name, std::string_view uid);
    std::optional<JobCondition> condition(std::string_view type) const;
    bool condition_true(std::string_view type) const;
    // Replace-or-append by type; when anything changed also sets status.status/reason/message from
    // the condition. lastTransitionTime moves only when the status value changes. Returns changed.
    bool update_condition(const JobCondition& c, int64_t now_ms);

    std::string json() const;

    std::string_view resource_version() const { return str("metadata", "resourceVersion"); }
    // Whether anything changed since the job was read or last saved.
    bool changed() const { return main_changed_ || status_changed_; }
    // Writes what changed — metadata and spec (update_object), then the status
    // (update_object_status) — each with the resourceVersion the write before it answered, as
    // controller-runtime's client does. On a failure (a conflict: someone else wrote the job
    // since it was read) the rest is not written; read the job again before retrying.
    kd::WriteResult save(const kd::Cycle& cycle);

private:
    std::string_view str(const char* a, const char* b, const char* c = nullptr, const char* d = nullptr) const;
    rapidjson::Value& object_at(std::initializer_list<const char*> path);
    void set(rapidjson::Value& obj, std::string_view key, std::string_view value);

    std::unique_ptr<rapidjson::Document> doc_;
    bool main_changed_ = false, status_changed_ = false;
};

// status.conditions[] entry of this type of a PodMigrationJob or Reservation; nullopt when absent.
std::optional<JobCondition> condition_of(const rapidjson::Value* object, std::string_view type);

// "Pod \"ns/name\"" as the anchor's messages quote a pod.
std::string quoted_pod(std::string_view ns, std::string_view name);

}  // namespace kd::plugins::migrationcontroller
