// Classification of a pool's nodes into the five buckets of Koordinator's `processOneNodePool`.
#pragma once

#include "pool_state.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kd::plugins::lownodeload {

// True when some of the first `n` resources has usage strictly above its threshold.
inline bool over(const int64_t* usage, const int64_t* threshold, size_t n) {
    for (size_t r = 0; r < n; ++r)
        if (usage[r] > threshold[r]) return true;
    return false;
}

// Node indices of `PoolState::nodes` per bucket, in node order.
struct Buckets {
    std::vector<uint32_t> low;        // node target only
    std::vector<uint32_t> high;       // node source
    std::vector<uint32_t> prod_low;   // prod target only
    std::vector<uint32_t> prod_high;  // prod source
    std::vector<uint32_t> both_low;   // target for node and prod
    void clear() { low.clear(), high.clear(), prod_low.clear(), prod_high.clear(), both_low.clear(); }
};

// True when the prod part of the classification is settled without the node's prod usage: with
// every podsMetric quantity ≥ 0, 0 ≤ prod usage ≤ Σ podsMetric (kPodSum), so when Σ podsMetric
// is within both prod thresholds the node is neither over prodHigh nor over prodLow.
bool prod_settled_by_bounds(const PoolState& state, size_t node, size_t thresholds);

// Sets NodeEntry::bucket of every node and fills `out` (cleared first). `thresholds` = the number
// of threshold slots. An unschedulable node is never low (neither node nor prod). A node that is
// not resolved must be prod_settled_by_bounds.
void classify(PoolState& state, size_t thresholds, Buckets& out);

}  // namespace kd::plugins::lownodeload
