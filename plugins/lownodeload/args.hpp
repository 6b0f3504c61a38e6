// LowNodeLoadArgs (descheduler/v1alpha2): decoded strictly, defaulted the way
// koord-descheduler's SetDefaults_LowNodeLoadArgs does (quirks included), validated with field paths.
#pragma once

#include <kdesched/decode.hpp>
#include <kdesched/label_selector.hpp>
#include <kdesched/namespaces.hpp>
#include <kdesched/plugin.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kd::plugins::lownodeload {

// Resource name → percent. Koordinator's Percentage is a float64, so 80.5 is allowed.
using ResourceThresholds = std::map<std::string, double>;
// Resource name → weight used by the node and pod usage scores.
using ResourceWeights = std::map<std::string, int64_t>;

// The pool the top-level settings become; always first (koord prepends it converting the args).
inline constexpr const char* kDefaultNodePoolName = "__default_node_pool__";
inline constexpr int64_t kDefaultNodeMetricExpirationSeconds = 180;
inline constexpr uint32_t kDefaultConsecutiveAbnormalities = 5;
inline constexpr uint32_t kDefaultConsecutiveNormalities = 3;
inline constexpr kd::Duration kDefaultAnomalyTimeout{std::chrono::minutes(1)};
inline constexpr kd::Duration kDefaultDetectorCacheTimeout{std::chrono::minutes(5)};

// evictableNamespaces: at most one of the two lists may be set. kd::Namespaces validates it with
// Koordinator's words (pkg/descheduler/apis/config/validation/validation_loadaware.go, v1.8.0).
using Namespaces = kd::Namespaces;

// One podSelectors entry; an entry without a selector is ignored (as koord-descheduler does).
struct PodSelector {
    std::string name;
    std::optional<kd::LabelSelector> selector;
    template <class V>
    void fields(V& v) {
        v("name", name);
        v("selector", selector);
    }
};

// anomalyCondition. Counts are uint32 in Koordinator; 0 means "not set" for defaulting.
struct AnomalyCondition {
    std::optional<kd::Duration> timeout;  // absent → 0, which the detector reads as 60 s
    uint32_t consecutiveAbnormalities = 0;
    uint32_t consecutiveNormalities = 0;
    template <class V>
    void fields(V& v) {
        v("timeout", timeout);
        v("consecutiveAbnormalities", consecutiveAbnormalities);
        v("consecutiveNormalities", consecutiveNormalities);
    }
};

// One nodePools entry. Absent maps and anomalyCondition are inherited from the top level.
struct NodePoolArgs {
    std::string name;
    std::optional<kd::LabelSelector> nodeSelector;  // absent: every node, even ones an earlier pool processed
    bool useDeviationThresholds = false;            // a plain bool in Koordinator: not inherited
    std::optional<ResourceThresholds> highThresholds;
    std::optional<ResourceThresholds> lowThresholds;
    std::optional<ResourceThresholds> prodHighThresholds;
    std::optional<ResourceThresholds> prodLowThresholds;
    std::optional<ResourceWeights> resourceWeights;
    std::optional<AnomalyCondition> anomalyCondition;

    // Filled by apply_defaults(): which values came from the top level, so that validation
    // reports a problem once, at the place the user wrote it. Not part of the JSON.
    struct Inherited {
        bool high = false, low = false, prodHigh = false, prodLow = false;
        bool anomaly = false;  // the whole anomalyCondition
        bool abnormalities = false,
             normalities = false;  // counts of the pool's own condition filled from the top level
    } inherited;

    template <class V>
    void fields(V& v) {
        v("name", name);
        v("nodeSelector", nodeSelector);
        v("useDeviationThresholds", useDeviationThresholds);
        v("highThresholds", highThresholds);
        v("lowThresholds", lowThresholds);
        v("prodHighThresholds", prodHighThresholds);
        v("prodLowThresholds", prodLowThresholds);
        v("resourceWeights", resourceWeights);
        v("anomalyCondition", anomalyCondition);
    }
};

struct LowNodeLoadArgs {
    std::optional<bool> paused;                            // default false
    std::optional<bool> dryRun;                            // default false
    std::optional<int32_t> numberOfNodes;                  // default 0, must be >= 0
    std::optional<int64_t> nodeMetricExpirationSeconds;    // default 180, must be > 0
    std::optional<Namespaces> evictableNamespaces;         // default none
    std::optional<kd::LabelSelector> nodeSelector;         // goes into the default pool
    std::vector<PodSelector> podSelectors;                 // default none: every pod
    std::optional<bool> nodeFit;                           // default true
    std::optional<bool> useDeviationThresholds;            // default false, goes into the default pool
    std::optional<ResourceThresholds> highThresholds;      // default pool
    std::optional<ResourceThresholds> lowThresholds;       // default pool
    std::optional<ResourceThresholds> prodHighThresholds;  // default pool
    std::optional<ResourceThresholds> prodLowThresholds;   // default pool
    std::optional<ResourceWeights> resourceWeights;        // default {cpu: 1, memory: 1} + threshold resources
    std::optional<AnomalyCondition> anomalyCondition;      // default {1m, 5, 3}
    std::optional<kd::Duration> detectorCacheTimeout;      // default 5m
    std::vector<NodePoolArgs> nodePools;
    std::optional<kd::PodPickerArgs> podPicker;  // default none: the built-in pod order only

    template <class V>
    void fields(V& v) {
        v("paused", paused);
        v("dryRun", dryRun);
        v("numberOfNodes", numberOfNodes);
        v("nodeMetricExpirationSeconds", nodeMetricExpirationSeconds);
        v("evictableNamespaces", evictableNamespaces);
        v("nodeSelector", nodeSelector);
        v("podSelectors", podSelectors);
        v("nodeFit", nodeFit);
        v("useDeviationThresholds", useDeviationThresholds);
        v("highThresholds", highThresholds);
        v("lowThresholds", lowThresholds);
        v("prodHighThresholds", prodHighThresholds);
        v("prodLowThresholds", prodLowThresholds);
        v("resourceWeights", resourceWeights);
        v("anomalyCondition", anomalyCondition);
        v("detectorCacheTimeout", detectorCacheTimeout);
        v("nodePools", nodePools);
        v("podPicker", podPicker);
    }

    // SetDefaults_LowNodeLoadArgs, including the anomalyCondition if/else-if quirk and the pool
    // inheritance. Runs after decoding, before validate().
    void apply_defaults();
    // Every problem with its field path, e.g.
    // `nodePools[1].highThresholds.cpu: must be >= lowThresholds.cpu (got 40 < 55)`.
    void validate(kd::Errors& errs, const std::string& path) const;
};

// Formats a percent the way a user wrote it: 80 → "80", 80.5 → "80.5".
std::string format_percent(double v);

}  // namespace kd::plugins::lownodeload
