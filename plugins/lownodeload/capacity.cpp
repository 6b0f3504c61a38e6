#include "capacity.hpp"

#include <algorithm>

namespace kd::plugins::lownodeload {

std::vector<int64_t> available_usage(const PoolState& state, const std::vector<uint32_t>& nodes, bool prod,
                                     size_t thresholds) {
    std::vector<int64_t> total(thresholds, 0);
    for (uint32_t n : nodes) {
        const int64_t* used = state.vec(n, prod ? PoolState::kProdUsage : PoolState::kUsage);
        const int64_t* high = state.vec(n, prod ? PoolState::kProdHigh : PoolState::kHigh);
        for (size_t r = 0; r < thresholds; ++r) total[r] = sat_add(total[r], sat_sub(high[r], used[r]));
    }
    return total;
}

Budgets initial_budgets(const PoolState& state, const std::vector<uint32_t>& low, const std::vector<uint32_t>& both,
                        const std::vector<uint32_t>& prod_low, size_t thresholds, bool with_prod) {
    Budgets b;
    std::vector<int64_t> low_avail = available_usage(state, low, false, thresholds);
    b.both_avail = available_usage(state, both, false, thresholds);
    b.prod_avail = with_prod ? available_usage(state, prod_low, true, thresholds) : std::vector<int64_t>(thresholds);
    b.prod_both = with_prod ? available_usage(state, both, true, thresholds) : std::vector<int64_t>(thresholds);
    b.node_total.resize(thresholds);
    for (size_t r = 0; r < thresholds; ++r) b.node_total[r] = sat_add(low_avail[r], b.both_avail[r]);
    return b;
}

std::vector<int64_t> prod_total_after_node_phase(const Budgets& b) {
    std::vector<int64_t> total(b.node_total.size());
    for (size_t r = 0; r < total.size(); ++r) {
        int64_t both_left = std::min(b.both_avail[r], b.node_total[r]);
        total[r] = sat_add(b.prod_avail[r], std::min(b.prod_both[r], both_left));
    }
    return total;
}

void TargetIndex::build(const PoolState& state, const std::vector<uint32_t>& targets, bool prod, size_t thresholds) {
    count_ = targets.size();
    n_ = thresholds;
    headroom_.resize(count_ * n_);
    for (size_t t = 0; t < count_; ++t) {
        const int64_t* used = state.vec(targets[t], prod ? PoolState::kProdUsage : PoolState::kUsage);
        const int64_t* high = state.vec(targets[t], prod ? PoolState::kProdHigh : PoolState::kHigh);
        for (size_t r = 0; r < n_; ++r) headroom_[t * n_ + r] = sat_sub(high[r], used[r]);
    }
    size_t blocks = (count_ + kBlock - 1) / kBlock;
    block_max_.resize(blocks * n_);
    group_max_.resize((count_ + kGroup - 1) / kGroup * n_);
    for (size_t b = 0; b < blocks; ++b) refresh_block(b);
}

void TargetIndex::refresh_block(size_t b) {
    auto max_of = [&](int64_t* mx, const int64_t* rows, size_t begin, size_t end) {
        std::fill(mx, mx + n_, std::numeric_limits<int64_t>::min());
        for (size_t i = begin; i < end; ++i)
            for (size_t r = 0; r < n_; ++r) mx[r] = std::max(mx[r], rows[i * n_ + r]);
    };
    max_of(block_max_.data() + b * n_, headroom_.data(), b * kBlock, std::min(count_, (b + 1) * kBlock));
    constexpr size_t per_group = kGroup / kBlock;
    const size_t g = b / per_group, blocks = (count_ + kBlock - 1) / kBlock;
    max_of(group_max_.data() + g * n_, block_max_.data(), g * per_group, std::min(blocks, (g + 1) * per_group));
}

size_t TargetIndex::next_fit(size_t from, const int64_t* need) const {
    size_t t = from;
    while (t < count_) {
        if (t % kGroup == 0 && !covers(group_max_.data() + (t / kGroup) * n_, need)) {
            t += kGroup;  // no target of this group of blocks has room
            continue;
        }
        if (t % kBlock == 0 && !covers(block_max_.data() + (t / kBlock) * n_, need)) {
            t += kBlock;  // no target of this block has enough room for every resource
            continue;
        }
        if (covers(headroom_.data() + t * n_, need)) return t;
        ++t;
    }
    return count_;
}

void TargetIndex::reserve(size_t t, const int64_t* need) {
    const size_t b = t / kBlock;
    const int64_t* mx = block_max_.data() + b * n_;
    bool stale = false;
    for (size_t r = 0; r < n_; ++r) {
        int64_t& room = headroom_[t * n_ + r];
        int64_t before = room;
        room = sat_sub(room, need[r]);
        // The block maximum only moves when this target held it (shrinking) or now exceeds it.
        if ((before == mx[r] && room < before) || room > mx[r]) stale = true;
    }
    if (stale) refresh_block(b);
}

}  // namespace kd::plugins::lownodeload
