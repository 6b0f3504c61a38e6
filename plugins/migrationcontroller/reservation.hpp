// The Reservation (scheduling.koordinator.sh/v1alpha1) of the ReservationFirst workflow: built
// from the pod (as koord's `createReservation` does) and read back for its scheduling status.
#pragma once

#include "job.hpp"

#include <kdesched/view.hpp>

#include <rapidjson/document.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kd::plugins::migrationcontroller {

inline constexpr std::string_view kReservationOrderLabel = "scheduling.koordinator.sh/reservation-order";

// The Reservation's JSON for the job's pod (koord's `createReservation`): the job's
// reservationOptions.template as base, metadata.name = the job's UID, the pod's
// scheduling-relevant metadata and spec as the template (its effective requests in one
// container), owners, allocateOnce, ttl and the anti-affinity to the pod's current node.
struct BuiltReservation {
    std::string name, json;
};
BuiltReservation build_reservation(const Job& job, const kd::Pod& pod, int64_t now_ms);

// What reconcile reads of a Reservation.
class ReservationView {
public:
    explicit ReservationView(const rapidjson::Value& object);
    // The Reservation named `name` in a list_objects("Reservation") array, or nullopt.
    static std::optional<ReservationView> find(std::string_view json_array, std::string_view name);
    // The Reservations of such an array that hold capacity unused — Pending (or no phase yet),
    // Available or Waiting, with no pod bound — by name, with their phase ("Pending" for none).
    static std::map<std::string, std::string, std::less<>> unused(std::string_view json_array);

    std::string_view name() const;
    std::string_view uid() const;
    std::string_view phase() const;
    std::string_view node_name() const;
    bool has_label(std::string_view key) const;
    // Condition of this type: status, reason, message; nullopt when absent.
    std::optional<JobCondition> condition(std::string_view type) const;
    // status.currentOwners[0] as namespace, name, uid; nullopt when there is none.
    struct Owner {
        std::string ns, name, uid;
    };
    std::optional<Owner> bound_pod() const;
    // spec.owners[] has an `object` owner and no controller / labelSelector one (a pending pod's).
    bool owned_by_object_only() const;
    // The whole object with the reservation-order label set to `ms`.
    std::string with_order_label(int64_t ms) const;

private:
    std::shared_ptr<rapidjson::Document> doc_;
};

}  // namespace kd::plugins::migrationcontroller
