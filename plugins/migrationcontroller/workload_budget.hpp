// GetMaxUnavailable / GetMaxMigrating (Koordinator's pkg/descheduler/controllers/migration/util;
// the two are identical in the anchor).
#pragma once

#include <kdesched/decode.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>

namespace kd::plugins::migrationcontroller {

// How many pods of a workload with `replicas` may be unavailable (or migrating) at once: `v` as an
// int, or a percentage rounded down (at least 1); without `v` 10 % above 10 replicas, 2 for 4–10,
// 1 below; never more than `replicas`.
inline int32_t max_unavailable(int32_t replicas, const std::optional<kd::IntOrString>& v) {
    int64_t m = 0;
    if (v) {
        m = kd::scaled_value(*v, replicas, false).value_or(0);
        if (m == 0) m = 1;
    }
    if (m == 0) {
        if (replicas > 10)
            m = replicas * 10 / 100;
        else if (replicas >= 4)
            m = 2;
        else
            m = 1;
    }
    return static_cast<int32_t>(std::min<int64_t>(m, replicas));
}

}  // namespace kd::plugins::migrationcontroller
