#include "args.hpp"

#include <charconv>
#include <string_view>

namespace kd::plugins::lownodeload {

std::string format_percent(double v) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest form that reads back exactly
    return std::string(buf, r.ptr);
}

namespace {

const char* const kInheritedNote = " inherited from the top level";

void default_anomaly_condition(std::optional<AnomalyCondition>& ac) {
    // [quirk] Koordinator's defaulting is an if/else-if chain: when consecutiveAbnormalities is 0
    // it is defaulted and consecutiveNormalities is left alone (validation then rejects a 0).
    if (!ac) {
        ac = AnomalyCondition{kDefaultAnomalyTimeout, kDefaultConsecutiveAbnormalities, kDefaultConsecutiveNormalities};
    } else if (ac->consecutiveAbnormalities == 0) {
        ac->consecutiveAbnormalities = kDefaultConsecutiveAbnormalities;
    } else if (ac->consecutiveNormalities == 0) {
        ac->consecutiveNormalities = kDefaultConsecutiveNormalities;
    }
}

void check_non_negative(const std::optional<ResourceThresholds>& t, const std::string& path, kd::Errors& errs) {
    if (!t) return;
    for (const auto& [name, pct] : *t)
        if (pct < 0) errs.add(kd::field_path(path, name), "must be >= 0 (got " + format_percent(pct) + ")");
}

// One ordering rule `small[r] <= big[r]` for the resources both maps name. The error goes to the
// map the user wrote in this pool; when both came from the top level, the top level reports it.
void check_order(const std::optional<ResourceThresholds>& small, const char* small_name, bool small_inherited,
                 const std::optional<ResourceThresholds>& big, const char* big_name, bool big_inherited,
                 const std::string& path, kd::Errors& errs) {
    if (!small || !big || (small_inherited && big_inherited)) return;
    for (const auto& [name, s] : *small) {
        auto it = big->find(name);
        if (it == big->end() || s <= it->second) continue;
        double b = it->second;
        if (!big_inherited) {
            errs.add(kd::field_path(kd::field_path(path, big_name), name),
                     "must be >= " + std::string(small_name) + "." + name + " (got " + format_percent(b) + " < " +
                         format_percent(s) + (small_inherited ? "; " + std::string(small_name) + kInheritedNote : "") +
                         ")");
        } else {
            errs.add(kd::field_path(kd::field_path(path, small_name), name),
                     "must be <= " + std::string(big_name) + "." + name + " (got " + format_percent(s) + " > " +
                         format_percent(b) + "; " + big_name + kInheritedNote + ")");
        }
    }
}

// Validation of one pool (the default pool has path "" and inherits nothing).
void validate_pool(const NodePoolArgs& pool, const std::string& path, kd::Errors& errs) {
    const auto& in = pool.inherited;
    if (!in.high) check_non_negative(pool.highThresholds, kd::field_path(path, "highThresholds"), errs);
    if (!in.low) check_non_negative(pool.lowThresholds, kd::field_path(path, "lowThresholds"), errs);
    if (!in.prodHigh) check_non_negative(pool.prodHighThresholds, kd::field_path(path, "prodHighThresholds"), errs);
    if (!in.prodLow) check_non_negative(pool.prodLowThresholds, kd::field_path(path, "prodLowThresholds"), errs);
    check_order(pool.lowThresholds, "lowThresholds", in.low, pool.highThresholds, "highThresholds", in.high, path,
                errs);
    check_order(pool.prodHighThresholds, "prodHighThresholds", in.prodHigh, pool.highThresholds, "highThresholds",
                in.high, path, errs);
    check_order(pool.prodLowThresholds, "prodLowThresholds", in.prodLow, pool.prodHighThresholds, "prodHighThresholds",
                in.prodHigh, path, errs);
    if (pool.anomalyCondition && !in.anomaly) {
        const auto& ac = *pool.anomalyCondition;
        std::string ap = kd::field_path(path, "anomalyCondition");
        auto note = [](bool inherited, const char* field) {
            return inherited ? std::string("; inherited from anomalyCondition.") + field : std::string();
        };
        if (ac.consecutiveAbnormalities == 0)
            errs.add(kd::field_path(ap, "consecutiveAbnormalities"),
                     "must be > 0 (got 0" + note(in.abnormalities, "consecutiveAbnormalities") + ")");
        if (ac.consecutiveNormalities == 0)
            errs.add(kd::field_path(ap, "consecutiveNormalities"),
                     "must be > 0 (got 0" + note(in.normalities, "consecutiveNormalities") +
                         "; it is not defaulted when consecutiveAbnormalities is 0 or omitted, set it explicitly)");
    }
}

}  // namespace

void LowNodeLoadArgs::apply_defaults() {
    if (!paused) paused = false;
    if (!dryRun) dryRun = false;
    if (!numberOfNodes) numberOfNodes = 0;
    if (!nodeMetricExpirationSeconds) nodeMetricExpirationSeconds = kDefaultNodeMetricExpirationSeconds;
    if (!nodeFit) nodeFit = true;
    if (!useDeviationThresholds) useDeviationThresholds = false;
    if (!detectorCacheTimeout) detectorCacheTimeout = kDefaultDetectorCacheTimeout;
    default_anomaly_condition(anomalyCondition);

    // cpu and memory always weigh 1 unless given a positive weight; so does every resource that
    // has a low or high threshold.
    if (!resourceWeights) resourceWeights.emplace();
    auto ensure_weight = [&](const std::string& name) {
        auto it = resourceWeights->find(name);
        if (it == resourceWeights->end() || it->second <= 0) (*resourceWeights)[name] = 1;
    };
    ensure_weight("cpu");
    ensure_weight("memory");
    if (lowThresholds)
        for (const auto& [name, pct] : *lowThresholds) ensure_weight(name);
    if (highThresholds)
        for (const auto& [name, pct] : *highThresholds) ensure_weight(name);

    for (auto& pool : nodePools) {
        auto inherit = [](auto& mine, const auto& top, bool& flag) {
            if (!mine && top) {
                mine = top;
                flag = true;
            }
        };
        inherit(pool.highThresholds, highThresholds, pool.inherited.high);
        inherit(pool.lowThresholds, lowThresholds, pool.inherited.low);
        inherit(pool.prodHighThresholds, prodHighThresholds, pool.inherited.prodHigh);
        inherit(pool.prodLowThresholds, prodLowThresholds, pool.inherited.prodLow);
        if (!pool.resourceWeights) pool.resourceWeights = resourceWeights;
        if (!pool.anomalyCondition) {
            pool.anomalyCondition = anomalyCondition;
            pool.inherited.anomaly = true;
        } else {
            // The pool's own condition: zero counts come from the top level; the timeout does not.
            if (pool.anomalyCondition->consecutiveAbnormalities == 0) {
                pool.anomalyCondition->consecutiveAbnormalities = anomalyCondition->consecutiveAbnormalities;
                pool.inherited.abnormalities = true;
            }
            if (pool.anomalyCondition->consecutiveNormalities == 0) {
                pool.anomalyCondition->consecutiveNormalities = anomalyCondition->consecutiveNormalities;
                pool.inherited.normalities = true;
            }
        }
    }
}

void LowNodeLoadArgs::validate(kd::Errors& errs, const std::string& path) const {
    if (numberOfNodes && *numberOfNodes < 0)
        errs.add(kd::field_path(path, "numberOfNodes"), "must be >= 0 (got " + std::to_string(*numberOfNodes) + ")");
    if (nodeMetricExpirationSeconds && *nodeMetricExpirationSeconds <= 0)
        errs.add(kd::field_path(path, "nodeMetricExpirationSeconds"),
                 "must be > 0 (got " + std::to_string(*nodeMetricExpirationSeconds) + ")");
    // evictableNamespaces validates itself (kd::Namespaces).

    // The default pool is the top level itself: its problems carry top-level paths.
    NodePoolArgs top;
    top.nodeSelector = nodeSelector;
    top.highThresholds = highThresholds;
    top.lowThresholds = lowThresholds;
    top.prodHighThresholds = prodHighThresholds;
    top.prodLowThresholds = prodLowThresholds;
    top.anomalyCondition = anomalyCondition;
    validate_pool(top, path, errs);
    for (size_t i = 0; i < nodePools.size(); ++i)
        validate_pool(nodePools[i], kd::index_path(kd::field_path(path, "nodePools"), i), errs);
}

}  // namespace kd::plugins::lownodeload
