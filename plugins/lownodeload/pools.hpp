// The node pools as Balance runs them (koord's conversion of the args): the top-level settings
// become the prepended `__default_node_pool__`, then the user's pools in order; thresholds are
// normalised once.
#pragma once

#include "anomaly.hpp"
#include "args.hpp"
#include "thresholds.hpp"

#include <kdesched/label_selector.hpp>

#include <optional>
#include <string>
#include <vector>

namespace kd::plugins::lownodeload {

struct Pool {
    std::string name;
    std::optional<kd::LabelSelector> selector;  // nullopt: every node, processed by an earlier pool or not
    bool deviation = false;
    NormalisedThresholds thresholds;  // koord's `newThresholds`
    ResourceSlots slots;
    SlotPercents percents;
    std::vector<int64_t> weights;           // per slot; a resource without a weight weighs 0
    std::optional<AnomalyOptions> anomaly;  // nullopt: no detector (consecutiveAbnormalities == 1 or no condition)
};

// Pools in processing order. `args` must be defaulted (apply_defaults) and valid.
std::vector<Pool> build_pools(const LowNodeLoadArgs& args);

// A Go duration as whole milliseconds, rounding a positive sub-millisecond remainder up so that
// a positive duration never becomes 0 (which would mean "the default" to the detector).
int64_t duration_ms_ceil(const kd::Duration& d);

}  // namespace kd::plugins::lownodeload
