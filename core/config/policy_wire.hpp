// kubernetes-sigs/descheduler's DeschedulerPolicy (descheduler/v1alpha2) exactly as written in the
// file, decoded strictly as its own loader decodes it (pkg/api/v1alpha2/types.go and the strict
// codec of pkg/api/v1alpha2/conversion.go, v0.35.1). Every field is optional so that "absent" can
// be told apart from a zero value.
#pragma once

#include "config/wire.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kd::core::wire {

// The policy lists plugins by name ("enabled: [PodLifeTime]"), not as {name: …} entries.
struct PolicyPluginSet {
    std::optional<std::vector<std::string>> enabled;
    std::optional<std::vector<std::string>> disabled;
    template <class V>
    void fields(V& v) {
        v("enabled", enabled);
        v("disabled", disabled);
    }
};

struct PolicyPlugins {
    std::optional<PolicyPluginSet> presort;
    std::optional<PolicyPluginSet> sort;
    std::optional<PolicyPluginSet> deschedule;
    std::optional<PolicyPluginSet> balance;
    std::optional<PolicyPluginSet> filter;
    std::optional<PolicyPluginSet> preevictionfilter;
    template <class V>
    void fields(V& v) {
        v("presort", presort);
        v("sort", sort);
        v("deschedule", deschedule);
        v("balance", balance);
        v("filter", filter);
        v("preevictionfilter", preevictionfilter);
    }
};

struct PolicyProfile {
    std::optional<std::string> name;
    std::optional<std::vector<PluginConfig>> pluginConfig;
    std::optional<PolicyPlugins> plugins;
    template <class V>
    void fields(V& v) {
        v("name", name);
        v("pluginConfig", pluginConfig);
        v("plugins", plugins);
    }
};

struct SecretReference {
    std::optional<std::string> namespace_;
    std::optional<std::string> name;
    template <class V>
    void fields(V& v) {
        v("namespace", namespace_);
        v("name", name);
    }
};

struct AuthToken {
    std::optional<SecretReference> secretReference;
    template <class V>
    void fields(V& v) {
        v("secretReference", secretReference);
    }
};

struct Prometheus {
    std::optional<std::string> url;
    std::optional<AuthToken> authToken;
    template <class V>
    void fields(V& v) {
        v("url", url);
        v("authToken", authToken);
    }
};

struct MetricsProvider {
    std::optional<std::string> source;  // KubernetesMetrics | Prometheus
    std::optional<Prometheus> prometheus;
    template <class V>
    void fields(V& v) {
        v("source", source);
        v("prometheus", prometheus);
    }
};

struct MetricsCollector {
    std::optional<bool> enabled;
    template <class V>
    void fields(V& v) {
        v("enabled", enabled);
    }
};

struct Policy {
    std::optional<std::string> apiVersion;
    std::optional<std::string> kind;
    std::optional<std::vector<PolicyProfile>> profiles;
    std::optional<std::string> nodeSelector;  // a selector as text: "tier=web,env in (a,b)"
    std::optional<uint32_t> maxNoOfPodsToEvictPerNode;
    std::optional<uint32_t> maxNoOfPodsToEvictPerNamespace;
    std::optional<uint32_t> maxNoOfPodsToEvictTotal;
    std::optional<bool> evictionFailureEventNotification;
    std::optional<MetricsCollector> metricsCollector;
    std::optional<std::vector<MetricsProvider>> metricsProviders;
    std::optional<int64_t> gracePeriodSeconds;
    template <class V>
    void fields(V& v) {
        v("apiVersion", apiVersion);
        v("kind", kind);
        v("profiles", profiles);
        v("nodeSelector", nodeSelector);
        v("maxNoOfPodsToEvictPerNode", maxNoOfPodsToEvictPerNode);
        v("maxNoOfPodsToEvictPerNamespace", maxNoOfPodsToEvictPerNamespace);
        v("maxNoOfPodsToEvictTotal", maxNoOfPodsToEvictTotal);
        v("evictionFailureEventNotification", evictionFailureEventNotification);
        v("metricsCollector", metricsCollector);
        v("metricsProviders", metricsProviders);
        v("gracePeriodSeconds", gracePeriodSeconds);
    }
};

}  // namespace kd::core::wire
