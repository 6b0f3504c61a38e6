// The args of LowNodeUtilization and HighNodeUtilization (kubernetes-sigs/descheduler
// pkg/framework/plugins/nodeutilization/types.go@v0.35.1), their defaults (all zero values there:
// defaults.go) and their validation (validation.go), with upstream's words after each path.
#pragma once

#include <kdesched/decode.hpp>
#include <kdesched/namespaces.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kd::plugins::sigs {

// Resource name → percent of the node's allocatable (api.ResourceThresholds: a float64 per name).
using ResourceThresholds = std::map<std::string, double>;

// The only evictionModes value v0.35.1 knows: evict only pods requesting a thresholds resource.
inline constexpr const char* kOnlyThresholdingResources = "OnlyThresholdingResources";

// evictionLimits (api.EvictionLimits): `node` caps this plugin's evictions per node and cycle.
struct UtilizationEvictionLimits {
    std::optional<uint64_t> node;
    template <class V>
    void fields(V& v) {
        v("node", node);
    }
};

// metricsUtilization (LowNodeUtilization only): actual usage from metrics.k8s.io (`source:
// KubernetesMetrics`, or the deprecated `metricsServer: true`). The Prometheus source is decoded
// so that it gets one clear refusal (kdesched has no Prometheus client) rather than an "unknown field".
inline constexpr const char* kKubernetesMetrics = "KubernetesMetrics";
inline constexpr const char* kPrometheusMetrics = "Prometheus";
struct UtilizationPrometheus {
    std::string query;
    template <class V>
    void fields(V& v) {
        v("query", query);
    }
};
struct MetricsUtilization {
    bool metricsServer = false;
    std::string source;
    std::optional<UtilizationPrometheus> prometheus;
    template <class V>
    void fields(V& v) {
        v("metricsServer", metricsServer);
        v("source", source);
        v("prometheus", prometheus);
    }
    // upstream's ValidateLowNodeUtilizationArgs for metricsUtilization (validation.go), same words.
    void validate(Errors& errs, const std::string& path) const;
    // The metrics.k8s.io source is asked for (either spelling).
    bool kubernetes() const { return metricsServer || source == kKubernetesMetrics; }
};

struct LowNodeUtilizationArgs {
    bool useDeviationThresholds = false;
    ResourceThresholds thresholds;
    ResourceThresholds targetThresholds;
    int64_t numberOfNodes = 0;
    std::optional<MetricsUtilization> metricsUtilization;
    std::optional<Namespaces> evictableNamespaces;
    std::optional<UtilizationEvictionLimits> evictionLimits;

    template <class V>
    void fields(V& v) {
        v("useDeviationThresholds", useDeviationThresholds);
        v("thresholds", thresholds);
        v("targetThresholds", targetThresholds);
        v("numberOfNodes", numberOfNodes);
        v("metricsUtilization", metricsUtilization);
        v("evictableNamespaces", evictableNamespaces);
        v("evictionLimits", evictionLimits);
    }
    void validate(Errors& errs, const std::string& path) const;
};

struct HighNodeUtilizationArgs {
    ResourceThresholds thresholds;
    int64_t numberOfNodes = 0;
    std::vector<std::string> evictionModes;
    std::optional<Namespaces> evictableNamespaces;

    template <class V>
    void fields(V& v) {
        v("thresholds", thresholds);
        v("numberOfNodes", numberOfNodes);
        v("evictionModes", evictionModes);
        v("evictableNamespaces", evictableNamespaces);
    }
    void validate(Errors& errs, const std::string& path) const;
};

// Upstream's validateThresholds: the first problem of one thresholds map, "" when it has none.
std::string threshold_problem(const ResourceThresholds& thresholds);

}  // namespace kd::plugins::sigs
