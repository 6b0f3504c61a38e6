// Capacity accounting (the targets' "available usage" in koord's loadaware) and the fit index
// behind the eviction fitCheck (`podFitsAnyNodeWithThreshold`).
#pragma once

#include "pool_state.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace kd::plugins::lownodeload {

inline int64_t sat_add(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
    return r;
}
inline int64_t sat_sub(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r))
        return b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
    return r;
}

// Σ_nodes (high − usage) per threshold slot (prod: prodHigh − prodUsage); may be negative.
std::vector<int64_t> available_usage(const PoolState& state, const std::vector<uint32_t>& nodes, bool prod,
                                     size_t thresholds);

// The budgets of both phases of one pool.
struct Budgets {
    std::vector<int64_t> node_total;  // lowAvail + bothAvail, consumed by the node phase
    std::vector<int64_t> both_avail;  // node-phase availability of the bothLow nodes
    std::vector<int64_t> prod_avail;  // prod availability of the prodLow nodes
    std::vector<int64_t> prod_both;   // prod availability of the bothLow nodes
};
// `with_prod`: also the prod parts (they read prod usage); otherwise they stay 0.
Budgets initial_budgets(const PoolState& state, const std::vector<uint32_t>& low, const std::vector<uint32_t>& both,
                        const std::vector<uint32_t>& prod_low, size_t thresholds, bool with_prod = true);
// After the node phase: what is left of the shared (bothLow) nodes caps their prod contribution.
// prodTotal = prodAvail + min(prodBoth, min(bothAvail, nodeTotal)).
std::vector<int64_t> prod_total_after_node_phase(const Budgets& b);

// Headroom (threshold − usage) of the targets of one phase, with first-fit search. Targets are
// grouped in blocks, and blocks in groups, each holding the per-resource maximum headroom, so a
// search skips a full block or group in one comparison per resource instead of walking every
// target (the walk is O(candidates × targets) otherwise, as the first targets fill up with
// tentative reservations; with blocks alone, 10k targets still cost ~300 block checks a pod).
class TargetIndex {
public:
    // Headroom of `targets` (indices into state.nodes), first `thresholds` slots.
    void build(const PoolState& state, const std::vector<uint32_t>& targets, bool prod, size_t thresholds);
    size_t size() const { return count_; }
    // The first target position ≥ `from` whose headroom is ≥ need[r] for every slot, or size().
    size_t next_fit(size_t from, const int64_t* need) const;
    // Tentatively places `need` on target `t`: its headroom shrinks.
    void reserve(size_t t, const int64_t* need);
    const int64_t* headroom(size_t t) const { return headroom_.data() + t * n_; }

private:
    static constexpr size_t kBlock = 32;           // targets per block
    static constexpr size_t kGroup = 32 * kBlock;  // targets per group of blocks
    bool covers(const int64_t* room, const int64_t* need) const {
        for (size_t r = 0; r < n_; ++r)
            if (room[r] < need[r]) return false;
        return true;
    }
    // Recomputes a block's maximum from its targets, then its group's from the group's blocks.
    void refresh_block(size_t b);

    size_t count_ = 0, n_ = 0;
    std::vector<int64_t> headroom_;   // count_ × n_
    std::vector<int64_t> block_max_;  // blocks × n_
    std::vector<int64_t> group_max_;  // groups × n_
};

}  // namespace kd::plugins::lownodeload
