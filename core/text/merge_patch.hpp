// JSON merge patch (RFC 7386), as the API server applies `application/merge-patch+json`. kdesched
// writes its changes to PodMigrationJobs and Reservations as such patches, so that a field it
// does not own — a finalizer, an owner reference, a field of a newer CRD — is never written at
// all; the simulator applies them as the server does.
#pragma once

#include <rapidjson/document.h>

namespace kd::core::json {

using Allocator = rapidjson::Document::AllocatorType;

// Applies `patch` to `target` (RFC 7386, MergePatch): an object patch merges member by member
// into an object (a non-object target becomes {}), a null member removes, anything else replaces
// the target whole. `patch` is copied, not moved.
void apply_merge_patch(rapidjson::Value& target, const rapidjson::Value& patch, Allocator& a);

// The merge patch that turns the object `from` into the object `to`: members that differ (arrays
// and scalars whole, objects member by member), a member of `from` missing from `to` (or null in
// it) as null. An empty object when they are equal. Both must be objects.
rapidjson::Value merge_patch_diff(const rapidjson::Value& from, const rapidjson::Value& to, Allocator& a);

}  // namespace kd::core::json
