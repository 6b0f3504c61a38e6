// The oldest host a plugin is built for: KDESCHED_TARGET_API_MINOR (see plugin.hpp). The module
// stamps API 1.<target>, so every host of that minor or newer loads it; the SDK members that need
// a newer host than the target fail to compile where they are used, naming the minor they need.
#pragma once

#include <kdesched/abi.h>

#ifndef KDESCHED_TARGET_API_MINOR
#define KDESCHED_TARGET_API_MINOR KD_API_VERSION_MINOR
#endif
#if KDESCHED_TARGET_API_MINOR < 0
#error "KDESCHED_TARGET_API_MINOR is negative: it is the minor of the oldest plugin API 1.x host to serve"
#elif KDESCHED_TARGET_API_MINOR > KD_API_VERSION_MINOR
#error "KDESCHED_TARGET_API_MINOR is newer than this SDK's KD_API_VERSION_MINOR: use a newer SDK"
#endif

namespace kd::detail {

// True when the plugin targets hosts of API 1.<Minor> or newer. Dependent on `Use` so that a
// member asserting it fails only in a plugin that calls it, not in every plugin including it.
template <int Minor, class Use = void>
inline constexpr bool targets_api_minor = KDESCHED_TARGET_API_MINOR >= Minor;

}  // namespace kd::detail
