// DeschedulerConfiguration (descheduler/v1alpha2) as kdesched uses it: every top-level field with
// koord-descheduler's default, profiles with their plugin sets already merged with the defaults
// (merge_plugin_sets.hpp).
#pragma once

#include "text/source_location.hpp"

#include <kdesched/decode.hpp>
#include <kdesched/label_selector.hpp>
#include <kdesched/selector_string.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kd::core {

struct LeaderElection {
    bool leaderElect = true;
    kd::Duration leaseDuration{std::chrono::seconds(15)};
    kd::Duration renewDeadline{std::chrono::seconds(10)};
    kd::Duration retryPeriod{std::chrono::seconds(2)};
    std::string resourceLock = "leases";
    std::string resourceName = "koord-descheduler";
    std::string resourceNamespace = "koordinator-system";
};

struct ClientConnection {
    std::string kubeconfig;
    std::string acceptContentTypes = "application/vnd.kubernetes.protobuf,application/json";
    std::string contentType = "application/vnd.kubernetes.protobuf";
    double qps = 50;
    int32_t burst = 100;
};

// One enabled plugin at one extension point, after the merge rule.
struct PluginRef {
    std::string name;
    SourceLocation where;  // where the user named it; file only for defaults
};

// The extension points, each the merged `enabled` list (no `disabled` after merging).
struct PluginSets {
    std::vector<PluginRef> deschedule;
    std::vector<PluginRef> balance;
    std::vector<PluginRef> evict;
    std::vector<PluginRef> filter;
    // The plugins asked before an eviction (their PreEvictionFilter). Koordinator's configuration
    // has no such list: the filter plugins are asked (absent). A DeschedulerPolicy lists them apart.
    std::optional<std::vector<PluginRef>> preEvictionFilter;
    const std::vector<PluginRef>& pre_eviction_filters() const {
        return preEvictionFilter ? *preEvictionFilter : filter;
    }
};

struct PluginConfig {
    std::string name;
    std::string argsJson = "{}";  // the YAML `args` node as JSON, apiVersion/kind removed after checking
    SourceLocation where;         // of the `args` node (or the entry when args is absent)
    // JSON path inside args ("nodePools[1].highThresholds.cpu") → location, for error messages.
    std::vector<std::pair<std::string, SourceLocation>> argLocations;
    SourceLocation locate(const std::string& argPath) const;  // best match for a path, else `where`
};

struct Profile {
    std::string name;
    std::optional<kd::LabelSelector> nodeSelector;
    PluginSets plugins;
    std::vector<PluginConfig> pluginConfig;  // explicit entries only, in file order
    SourceLocation where;
    const PluginConfig* configFor(const std::string& plugin) const;  // nullptr when none
};

struct DeschedulerConfiguration {
    LeaderElection leaderElection;
    ClientConnection clientConnection;
    bool enableProfiling = true;
    bool enableContentionProfiling = true;
    std::string healthzBindAddress = "0.0.0.0:10251";
    std::string metricsBindAddress = "0.0.0.0:10251";
    kd::Duration deschedulingInterval{};  // 0 = one cycle
    bool dryRun = false;
    std::vector<Profile> profiles;  // file order
    std::optional<kd::LabelSelector> nodeSelector;
    // A DeschedulerPolicy's nodeSelector: text in labels.Parse's grammar (`>` and `<` included),
    // kept as written for `kdesched plan`.
    struct TextSelector {
        std::string text;
        kd::StringLabelSelector selector;
    };
    std::optional<TextSelector> nodeSelectorText;
    std::optional<uint32_t> maxNoOfPodsToEvictPerNode;
    std::optional<uint32_t> maxNoOfPodsToEvictPerNamespace;
    std::optional<uint32_t> maxNoOfPodsToEvictTotal;
    // A DeschedulerPolicy's evictionFailureEventNotification: a Warning Event on the pod for each
    // eviction a limit stops or the API server refuses.
    bool evictionFailureEventNotification = false;
    // A DeschedulerPolicy's gracePeriodSeconds: the evictions' deleteOptions (absent: the pod's own).
    std::optional<int64_t> evictionGracePeriodSeconds;
    // A DeschedulerPolicy's metricsProviders has source KubernetesMetrics, or its deprecated
    // metricsCollector.enabled is true: the host keeps metrics.k8s.io usage (NodeMetrics and
    // PodMetrics) for LowNodeUtilization's metricsUtilization (upstream creates its metrics
    // collector on the same condition: pkg/descheduler/descheduler.go@v0.35.1).
    bool kubernetesMetrics = false;
    // Which format the file was written in (DeschedulerPolicy is kubernetes-sigs/descheduler's).
    enum class Format { configuration, policy } format = Format::configuration;
    std::string sourceFile;
};

// Default plugin sets applied to every profile (koord's: MigrationController at evict and filter).
PluginSets default_plugin_sets();

// Reads, strictly decodes, defaults, merges and validates a configuration file. Collects every
// problem of every profile and throws one kd::core::Error listing them, each with file:line:column.
DeschedulerConfiguration load_configuration(const std::string& path);
// Same, from text already in memory (`origin` names it in messages).
DeschedulerConfiguration parse_configuration(const std::string& yaml_text, const std::string& origin);

}  // namespace kd::core
