// PodMigrationJob and Reservation (scheduling.koordinator.sh/v1alpha1) from a DOM of the object.
// They are rare, so they are read from a DOM for clarity rather than from the event stream.
#pragma once

#include "cluster/migration_objects.hpp"

#include <rapidjson/document.h>

#include <string>
#include <string_view>

namespace kd::core::decode {

// Both throw FieldProblemError (field path relative to the object) on a malformed field.
// The object's wire form is kept whole (`wire`, see wire_form).
PodMigrationJob read_migration_job(const rapidjson::Value& obj);
Reservation read_reservation(const rapidjson::Value& obj);

// The wire form the model keeps of a PodMigrationJob or Reservation: the object as compact JSON,
// every member in its order, with apiVersion and kind (a LIST's items have neither) and without
// metadata.managedFields (the server's bookkeeping, which it keeps when a write leaves it out).
std::string wire_form(const rapidjson::Value& obj, std::string_view kind);

// The scheduling-relevant part of a PodTemplateSpec ({metadata, spec}); `json` is set to `json_of`
// serialized. `path` prefixes problem paths ("spec.template").
PodTemplate read_pod_template(const rapidjson::Value& tpl, const rapidjson::Value& json_of, const std::string& path);

}  // namespace kd::core::decode
