// A PodMigrationJob or Reservation changed as the API server changes one: a JSON merge patch of its
// wire form, then read again, so that the wire form and the typed view agree and nothing the patch
// does not name moves. The simulator's API server and cluster actors change objects only this way.
#pragma once

#include "cluster/migration_objects.hpp"

#include <rapidjson/document.h>

#include <string_view>

namespace kd::core::decode {

// `object` with `patch` (RFC 7386) applied to its wire form. Throws FieldProblemError when the
// result is malformed.
PodMigrationJob patched(const PodMigrationJob& object, const rapidjson::Value& patch);
Reservation patched(const Reservation& object, const rapidjson::Value& patch);
PodMigrationJob patched(const PodMigrationJob& object, std::string_view patch_json);
Reservation patched(const Reservation& object, std::string_view patch_json);

// The object read from a DOM of it whole (read_migration_job or read_reservation, by type).
void read_migration_object(const rapidjson::Value& dom, PodMigrationJob& out);
void read_migration_object(const rapidjson::Value& dom, Reservation& out);

}  // namespace kd::core::decode
