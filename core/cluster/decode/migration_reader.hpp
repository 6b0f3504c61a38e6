// PodMigrationJob and Reservation (scheduling.koordinator.sh/v1alpha1) from a DOM of the object.
// They are rare, so they are read from a DOM for clarity rather than from the event stream.
#pragma once

#include "cluster/migration_objects.hpp"

#include <rapidjson/document.h>

namespace kd::core::decode {

// Both throw FieldProblemError (field path relative to the object) on a malformed field.
PodMigrationJob read_migration_job(const rapidjson::Value& obj);
Reservation read_reservation(const rapidjson::Value& obj);

// The scheduling-relevant part of a PodTemplateSpec ({metadata, spec}); `json` is set to `json_of`
// serialized. `path` prefixes problem paths ("spec.template").
PodTemplate read_pod_template(const rapidjson::Value& tpl, const rapidjson::Value& json_of, const std::string& path);

}  // namespace kd::core::decode
