#include "thresholds.hpp"

#include <kdesched/quantity.hpp>

#include <algorithm>
#include <limits>
#include <set>

namespace kd::plugins::lownodeload {

NormalisedThresholds normalise_thresholds(bool deviation, const ResourceThresholds& low, const ResourceThresholds& high,
                                          const ResourceThresholds& prod_low, const ResourceThresholds& prod_high) {
    NormalisedThresholds t{low, high, prod_low, prod_high};
    std::set<std::string> names{"memory"};
    for (const auto* m : {&low, &high, &prod_low, &prod_high})
        for (const auto& [name, pct] : *m) names.insert(name);
    // Normal mode: a resource without a low threshold is never low nor high (100 %). Deviation
    // mode: 0 makes compute_node_thresholds use the full capacity, i.e. ignore the resource.
    const double fill = deviation ? 0 : 100;
    for (const auto& name : names) {
        if (!t.low.count(name)) t.low[name] = t.high[name] = fill;
        if (!t.prod_low.count(name)) t.prod_low[name] = t.prod_high[name] = fill;
    }
    return t;
}

ResourceSlots make_slots(const NormalisedThresholds& t) {
    ResourceSlots s;
    for (const auto& [name, pct] : t.low) s.names.push_back(name);  // std::map: sorted
    s.thresholds = s.names.size();
    auto it = std::find(s.names.begin(), s.names.end(), "pods");
    if (it == s.names.end()) {
        s.pods = s.names.size();
        s.names.push_back("pods");
    } else {
        s.pods = static_cast<size_t>(it - s.names.begin());
    }
    return s;
}

SlotPercents slot_percents(const NormalisedThresholds& t, const ResourceSlots& slots) {
    SlotPercents p;
    auto read = [](const ResourceThresholds& m, const std::string& name, uint8_t* present = nullptr) {
        auto it = m.find(name);
        if (present) *present = it != m.end();
        return it == m.end() ? 0.0 : it->second;
    };
    for (size_t r = 0; r < slots.thresholds; ++r) {
        const std::string& name = slots.names[r];
        uint8_t in_high = 0, in_prod_high = 0;
        p.low.push_back(read(t.low, name));
        p.high.push_back(read(t.high, name, &in_high));
        p.prod_low.push_back(read(t.prod_low, name));
        p.prod_high.push_back(read(t.prod_high, name, &in_prod_high));
        p.in_high.push_back(in_high);
        p.in_prod_high.push_back(in_prod_high);
    }
    return p;
}

int64_t absolute_threshold(std::string_view resource, double pct, int64_t capacity_milli) {
    const bool cpu = resource == "cpu";
    const int64_t capacity = natural_units(resource, capacity_milli);
    // Same evaluation order as Go's float64(threshold) * 0.01 * float64(capacity).
    double v = pct * 0.01 * static_cast<double>(capacity);
    const double limit = static_cast<double>(std::numeric_limits<int64_t>::max() / 1000);
    if (!(v < limit))
        return cpu ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::max() / 1000 * 1000;
    if (!(v > -limit))
        return cpu ? std::numeric_limits<int64_t>::min() : -(std::numeric_limits<int64_t>::max() / 1000 * 1000);
    int64_t units = static_cast<int64_t>(v);
    return cpu ? units : units * 1000;
}

namespace {

double clamp_percent(double v) {
    return std::clamp(v, 0.0, 100.0);
}

// Σ over nodes of used/alloc × 100 per threshold slot, divided by the node count (deviation mode).
// Nodes whose allocatable is zero for a resource add nothing but still count.
std::vector<double> average_percent(const PoolState& state, const ResourceSlots& slots, PoolState::Vector usage) {
    std::vector<double> avg(slots.thresholds, 0.0);
    if (state.nodes.empty()) return avg;
    for (size_t n = 0; n < state.nodes.size(); ++n) {
        const int64_t* used = state.vec(n, usage);
        const int64_t* alloc = state.vec(n, PoolState::kAlloc);
        for (size_t r = 0; r < slots.thresholds; ++r) {
            int64_t a = natural_units(slots.names[r], alloc[r]);
            if (a == 0) continue;
            avg[r] += static_cast<double>(natural_units(slots.names[r], used[r])) / static_cast<double>(a) * 100.0;
        }
    }
    for (auto& v : avg) v /= static_cast<double>(state.nodes.size());
    return avg;
}

}  // namespace

void compute_node_thresholds(PoolState& state, const ResourceSlots& slots, const SlotPercents& pct, bool deviation) {
    std::vector<double> avg, prod_avg;
    if (deviation) {
        avg = average_percent(state, slots, PoolState::kUsage);
        prod_avg = average_percent(state, slots, PoolState::kProdUsage);
    }
    for (size_t n = 0; n < state.nodes.size(); ++n) {
        const int64_t* alloc = state.vec(n, PoolState::kAlloc);
        int64_t* low = state.vec(n, PoolState::kLow);
        int64_t* high = state.vec(n, PoolState::kHigh);
        int64_t* prod_low = state.vec(n, PoolState::kProdLow);
        int64_t* prod_high = state.vec(n, PoolState::kProdHigh);
        for (size_t r = 0; r < slots.thresholds; ++r) {
            const std::string& name = slots.names[r];
            if (!deviation) {
                low[r] = absolute_threshold(name, pct.low[r], alloc[r]);
                high[r] = absolute_threshold(name, pct.high[r], alloc[r]);
                prod_low[r] = absolute_threshold(name, pct.prod_low[r], alloc[r]);
                prod_high[r] = absolute_threshold(name, pct.prod_high[r], alloc[r]);
                continue;
            }
            // Deviation: a 0 low threshold means "ignore": both thresholds are the full capacity.
            if (pct.low[r] == 0) {
                low[r] = high[r] = alloc[r];
            } else {
                low[r] = absolute_threshold(name, clamp_percent(avg[r] - pct.low[r]), alloc[r]);
                high[r] = absolute_threshold(name, clamp_percent(avg[r] + pct.high[r]), alloc[r]);
            }
            if (pct.prod_low[r] == 0) {
                prod_low[r] = prod_high[r] = alloc[r];
            } else {
                prod_low[r] = absolute_threshold(name, clamp_percent(prod_avg[r] - pct.prod_low[r]), alloc[r]);
                prod_high[r] = absolute_threshold(name, clamp_percent(prod_avg[r] + pct.prod_high[r]), alloc[r]);
            }
        }
    }
}

}  // namespace kd::plugins::lownodeload
