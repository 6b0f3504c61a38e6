// Actual resource usage from metrics.k8s.io/v1beta1 (metrics-server's NodeMetrics and
// PodMetrics), kept beside the cluster model when the policy enables the KubernetesMetrics source.
// It is not watched like the model's kinds: `kdesched simulate` reads it from snapshot files, the
// daemon polls it (kube/watch/usage_metrics_poller.hpp). Plugins read it through
// kd_snapshot.list_objects("NodeMetrics.metrics.k8s.io" / "PodMetrics.metrics.k8s.io", API 1.8).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace kd::core {

inline constexpr const char* kMetricsApiVersion = "metrics.k8s.io/v1beta1";
inline constexpr const char* kNodeMetricsKind = "NodeMetrics";
inline constexpr const char* kPodMetricsKind = "PodMetrics";
// The names list_objects answers them by: qualified, so that they are not read as Koordinator's
// slo.koordinator.sh NodeMetric.
inline constexpr const char* kNodeMetricsListKind = "NodeMetrics.metrics.k8s.io";
inline constexpr const char* kPodMetricsListKind = "PodMetrics.metrics.k8s.io";

// Resource name → amount in milli-units.
using UsageAmounts = std::map<std::string, int64_t>;

struct NodeUsage {
    std::string name;
    std::string timestamp;  // as the server wrote it (RFC 3339)
    std::string window;     // as the server wrote it ("10.5s")
    UsageAmounts usage;
    bool operator==(const NodeUsage&) const = default;
};

struct PodUsage {
    std::string ns, name, timestamp, window;
    struct Container {
        std::string name;
        UsageAmounts usage;
        bool operator==(const Container&) const = default;
    };
    std::vector<Container> containers;
    bool operator==(const PodUsage&) const = default;
};

struct UsageMetrics {
    std::map<std::string, NodeUsage> nodes;                        // by node name
    std::map<std::pair<std::string, std::string>, PodUsage> pods;  // by namespace, name
    bool operator==(const UsageMetrics&) const = default;
};

// The wire form list_objects answers: a JSON array of NodeMetrics by name, of PodMetrics by
// namespace and name. Amounts are written as quantities ("250m", "1048576").
std::string node_metrics_json(const UsageMetrics& metrics);
std::string pod_metrics_json(const UsageMetrics& metrics);

}  // namespace kd::core
