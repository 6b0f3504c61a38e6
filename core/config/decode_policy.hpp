// kubernetes-sigs/descheduler's DeschedulerPolicy (descheduler/v1alpha2), given to --config as is,
// read into the same DeschedulerConfiguration a Koordinator file becomes: its profiles with
// DefaultEvictor added to filter and preEvictionFilter as upstream's loader adds it (and as the
// evict plugin: upstream evicts through the Eviction API), its top-level limits, nodeSelector
// (a selector as text) and gracePeriodSeconds, and upstream's defaults for what a policy does not
// hold (leader election off, one cycle). Behaviour of pkg/descheduler/policyconfig.go and
// pkg/framework/profile/profile.go at v0.35.1; the differences are in docs/compatibility.md.
#pragma once

#include "config/configuration.hpp"
#include "text/reporter.hpp"

#include <rapidjson/document.h>

namespace kd::core {

inline constexpr const char* kPolicyKind = "DeschedulerPolicy";

// `doc` is a mapping whose kind is DeschedulerPolicy. The result is only meaningful when `report`
// stayed empty.
DeschedulerConfiguration decode_policy(const rapidjson::Value& doc, Reporter& report);

}  // namespace kd::core
