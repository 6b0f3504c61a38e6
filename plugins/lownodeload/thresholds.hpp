// Thresholds: normalisation of a pool's percent maps (Koordinator's `newThresholds`) and the
// absolute per-node thresholds derived from them, in normal and deviation mode.
#pragma once

#include "args.hpp"
#include "pool_state.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace kd::plugins::lownodeload {

// A pool's percent maps after normalisation.
struct NormalisedThresholds {
    ResourceThresholds low, high, prod_low, prod_high;
};

// koord's `newThresholds`: every name of the four maps (plus "memory") missing from `low` gets
// low = high = 100 (0 in deviation mode), and independently for prodLow/prodHigh.
// [quirk] this overwrites a user-given high (prodHigh) threshold whose low (prodLow) is missing.
NormalisedThresholds normalise_thresholds(bool deviation, const ResourceThresholds& low, const ResourceThresholds& high,
                                          const ResourceThresholds& prod_low, const ResourceThresholds& prod_high);

// The slots of a pool: the normalised low keys (sorted), plus "pods" when it has no threshold.
ResourceSlots make_slots(const NormalisedThresholds& t);

// Percents per threshold slot, read like Koordinator's Go maps: a name absent from a map reads 0.
struct SlotPercents {
    std::vector<double> low, high, prod_low, prod_high;
    std::vector<uint8_t> in_high, in_prod_high;  // the normalised map names the slot (reason strings)
};
SlotPercents slot_percents(const NormalisedThresholds& t, const ResourceSlots& slots);

// As koord: int64(pct × 0.01 × capacity) with capacity in milli-cores for cpu and whole units
// (rounded up) otherwise, truncated toward zero; returned in milli-units. Saturates instead of
// overflowing.
int64_t absolute_threshold(std::string_view resource, double pct, int64_t capacity_milli);

// Fills kLow/kHigh/kProdLow/kProdHigh of every node of `state` from kAlloc (and, in deviation mode,
// from the pool's average usage percent).
void compute_node_thresholds(PoolState& state, const ResourceSlots& slots, const SlotPercents& pct, bool deviation);

}  // namespace kd::plugins::lownodeload
