#include "classify.hpp"

#include <stdexcept>

namespace kd::plugins::lownodeload {

bool prod_settled_by_bounds(const PoolState& state, size_t node, size_t thresholds) {
    if (!state.nodes[node].non_negative) return false;
    const int64_t* sum = state.vec(node, PoolState::kPodSum);
    const int64_t* prod_low = state.vec(node, PoolState::kProdLow);
    const int64_t* prod_high = state.vec(node, PoolState::kProdHigh);
    for (size_t r = 0; r < thresholds; ++r)
        if (sum[r] > prod_low[r] || sum[r] > prod_high[r]) return false;
    return true;
}

void classify(PoolState& state, size_t thresholds, Buckets& out) {
    out.clear();
    for (size_t i = 0; i < state.nodes.size(); ++i) {
        NodeEntry& n = state.nodes[i];
        const bool schedulable = !n.node->unschedulable;
        const int64_t* usage = state.vec(i, PoolState::kUsage);
        bool prod_over = false, prod_under = true;
        if (n.resolved) {
            const int64_t* prod_usage = state.vec(i, PoolState::kProdUsage);
            prod_over = over(prod_usage, state.vec(i, PoolState::kProdHigh), thresholds);
            prod_under = !over(prod_usage, state.vec(i, PoolState::kProdLow), thresholds);
        } else if (!prod_settled_by_bounds(state, i, thresholds)) {
            throw std::logic_error("LowNodeLoad: prod usage of node " + std::string(kd::sv(n.node->name)) +
                                   " was needed but not computed");
        }
        Bucket b = Bucket::none;
        if (schedulable && !over(usage, state.vec(i, PoolState::kLow), thresholds)) {
            b = prod_over ? Bucket::prod_high : prod_under ? Bucket::both_low : Bucket::low;
        } else if (over(usage, state.vec(i, PoolState::kHigh), thresholds)) {
            b = Bucket::high;
        } else if (prod_over) {
            b = Bucket::prod_high;
        } else if (schedulable && prod_under) {
            b = Bucket::prod_low;
        }
        n.bucket = b;
        const auto idx = static_cast<uint32_t>(i);
        switch (b) {
            case Bucket::low:
                out.low.push_back(idx);
                break;
            case Bucket::high:
                out.high.push_back(idx);
                break;
            case Bucket::prod_low:
                out.prod_low.push_back(idx);
                break;
            case Bucket::prod_high:
                out.prod_high.push_back(idx);
                break;
            case Bucket::both_low:
                out.both_low.push_back(idx);
                break;
            case Bucket::none:
                break;
        }
    }
}

}  // namespace kd::plugins::lownodeload
