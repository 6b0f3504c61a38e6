// PodMigrationJob and Reservation (scheduling.koordinator.sh/v1alpha1) as the model keeps them: the
// object as the API server sent it (`wire`), and a typed view of what the host reads, derived from
// it. Writes start from `wire`, so every field kdesched does not own — finalizers, owner
// references, a field a newer Koordinator adds — goes back as it came (docs/compatibility.md).
// Few of them exist at a time, so clarity beats compactness.
#pragma once

#include <kdesched/decode.hpp>
#include <kdesched/label_selector.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kd::core {

inline constexpr std::string_view kMigrationApiVersion = "scheduling.koordinator.sh/v1alpha1";

// core/v1 ObjectReference (the fields the CRDs use).
struct ObjectReference {
    std::string api_version, kind, ns, name, uid, resource_version, field_path;
    bool operator==(const ObjectReference&) const = default;
};

// PodMigrationJob and Reservation conditions share this shape.
struct Condition {
    std::string type, status, reason, message;
    int64_t last_probe_ms = 0, last_transition_ms = 0;
    bool operator==(const Condition&) const = default;
};

// The scheduling-relevant part of a pod template (a Reservation's spec.template), plus the
// template itself as JSON so it can be written back unchanged.
struct PodTemplate {
    std::string json;  // spec.template as it was read or built
    std::map<std::string, std::string> labels;
    std::vector<std::pair<std::string, int64_t>> requests;  // effective requests, milli-units
    std::map<std::string, std::string> node_selector;
    struct Requirement {
        std::string key, op;
        std::vector<std::string> values;
        bool operator==(const Requirement&) const = default;
    };
    struct Term {
        std::vector<Requirement> expressions, fields;
        bool operator==(const Term&) const = default;
    };
    bool has_required_affinity = false;
    std::vector<Term> affinity_terms;
    struct Toleration {
        std::string key, op, value, effect;
        bool operator==(const Toleration&) const = default;
    };
    std::vector<Toleration> tolerations;
    std::string scheduler_name;
};

struct PodMigrationJob {
    // The whole object, compact JSON (decode/migration_reader.hpp, wire_form); the fields below
    // are read from it.
    std::string wire;
    // metadata
    std::string uid, name, resource_version;
    int64_t creation_ms = 0;
    std::map<std::string, std::string> labels, annotations;
    // spec
    bool paused = false;
    std::optional<kd::Duration> ttl;
    std::string mode;  // ReservationFirst | EvictDirectly | "" (controller default)
    ObjectReference pod_ref;
    std::optional<ObjectReference> reservation_ref;
    std::optional<PodTemplate> reservation_template;
    std::optional<std::string> delete_options_json;  // metav1.DeleteOptions as JSON
    // status
    std::string phase, status, reason, message, node_name;
    std::vector<Condition> conditions;
    std::optional<ObjectReference> status_pod_ref;
};

// A ReservationOwner's controller: an OwnerReference plus namespace. Not nested in ReservationOwner:
// clang cannot default-construct a nested class with member initializers inside std::optional
// before the enclosing class is complete.
struct ReservationController {
    std::string api_version, kind, name, uid, ns;
    bool controller = false;
};

struct ReservationOwner {
    std::optional<ObjectReference> object;
    using Controller = ReservationController;
    std::optional<Controller> controller;
    std::optional<kd::LabelSelector> label_selector;
};

struct Reservation {
    std::string wire;  // as PodMigrationJob::wire
    // metadata (cluster-scoped)
    std::string uid, name, resource_version;
    int64_t creation_ms = 0;
    std::map<std::string, std::string> labels, annotations;
    // spec
    PodTemplate template_;
    std::vector<ReservationOwner> owners;
    std::optional<kd::Duration> ttl;
    int64_t expires_ms = 0;  // 0 = absent
    bool allocate_once = true;
    bool unschedulable = false;
    // status
    std::string phase, node_name;
    std::vector<Condition> conditions;
    std::vector<ObjectReference> current_owners;
};

// The API resource of each kind, as the API server names it in messages.
inline const char* resource_of(const PodMigrationJob&) {
    return "podmigrationjobs.scheduling.koordinator.sh";
}
inline const char* resource_of(const Reservation&) {
    return "reservations.scheduling.koordinator.sh";
}

}  // namespace kd::core
