#include "pools.hpp"

namespace kd::plugins::lownodeload {

int64_t duration_ms_ceil(const kd::Duration& d) {
    int64_t ns = d.value.count();
    int64_t ms = ns / 1'000'000;
    if (ns > 0 && ns % 1'000'000 != 0) ++ms;
    return ms;
}

namespace {

Pool make_pool(const NodePoolArgs& a) {
    static const ResourceThresholds kNone;
    Pool p;
    p.name = a.name;
    p.selector = a.nodeSelector;
    p.deviation = a.useDeviationThresholds;
    p.thresholds = normalise_thresholds(p.deviation, a.lowThresholds.value_or(kNone), a.highThresholds.value_or(kNone),
                                        a.prodLowThresholds.value_or(kNone), a.prodHighThresholds.value_or(kNone));
    p.slots = make_slots(p.thresholds);
    p.percents = slot_percents(p.thresholds, p.slots);
    for (const auto& name : p.slots.names) {
        int64_t w = 0;
        if (a.resourceWeights) {
            auto it = a.resourceWeights->find(name);
            if (it != a.resourceWeights->end()) w = it->second;
        }
        p.weights.push_back(w);
    }
    // consecutiveAbnormalities == 1 bypasses the detector entirely: every high node is acted on at once.
    if (a.anomalyCondition && a.anomalyCondition->consecutiveAbnormalities != 1) {
        const auto& ac = *a.anomalyCondition;
        p.anomaly = AnomalyOptions{ac.consecutiveAbnormalities, ac.consecutiveNormalities,
                                   ac.timeout ? duration_ms_ceil(*ac.timeout) : 0};
    }
    return p;
}

}  // namespace

std::vector<Pool> build_pools(const LowNodeLoadArgs& args) {
    NodePoolArgs top;
    top.name = kDefaultNodePoolName;
    top.nodeSelector = args.nodeSelector;
    top.useDeviationThresholds = args.useDeviationThresholds.value_or(false);
    top.highThresholds = args.highThresholds;
    top.lowThresholds = args.lowThresholds;
    top.prodHighThresholds = args.prodHighThresholds;
    top.prodLowThresholds = args.prodLowThresholds;
    top.resourceWeights = args.resourceWeights;
    top.anomalyCondition = args.anomalyCondition;
    std::vector<Pool> pools;
    pools.push_back(make_pool(top));
    for (const auto& pool : args.nodePools) pools.push_back(make_pool(pool));
    return pools;
}

}  // namespace kd::plugins::lownodeload
