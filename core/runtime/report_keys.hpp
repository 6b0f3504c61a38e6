// The facts a plugin may report through kd_host.report (sdk/include/kdesched/plugin.hpp,
// Cycle::report_node / report_pod), and what the host does with each: the simulator's report
// shows a node's pool and class, and --explain lists why a candidate pod was skipped.
#pragma once

#include <string_view>

namespace kd::core::report_keys {

inline constexpr std::string_view kNodePool = "pool";       // node: the pool that saw it
inline constexpr std::string_view kNodeClass = "class";     // node: low, high, prodLow, …
inline constexpr std::string_view kPodSkipped = "skipped";  // pod: the reason code it stayed

// Whether the host knows `key` for subjects of `kind` ("node" or "pod").
constexpr bool known(std::string_view kind, std::string_view key) {
    if (kind == "node") return key == kNodePool || key == kNodeClass;
    if (kind == "pod") return key == kPodSkipped;
    return false;
}

// The known keys, for a message about an unknown one.
inline constexpr std::string_view kKnownList = "node: pool, class; pod: skipped";

}  // namespace kd::core::report_keys
