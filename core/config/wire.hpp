// The DeschedulerConfiguration exactly as written in the file (descheduler/v1alpha2), decoded
// strictly with kd::decode_value. Every field is optional so that "absent" (and YAML null, which
// Go leaves as the zero value) can be told apart from a value before the defaults are applied.
#pragma once

#include <kdesched/decode.hpp>
#include <kdesched/label_selector.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kd::core::wire {

// pluginConfig[].args: kept as the JSON node; the plugin decodes it later.
struct RawJson {
    const rapidjson::Value* value = nullptr;  // points into the document being loaded
};

}  // namespace kd::core::wire

namespace kd {

template <>
struct Decoder<core::wire::RawJson> {
    static void decode(const rapidjson::Value& v, core::wire::RawJson& out, const std::string&, Errors&) {
        out.value = &v;
    }
};

}  // namespace kd

namespace kd::core::wire {

// component-base LeaderElectionConfiguration.
struct LeaderElection {
    std::optional<bool> leaderElect;
    std::optional<kd::Duration> leaseDuration;
    std::optional<kd::Duration> renewDeadline;
    std::optional<kd::Duration> retryPeriod;
    std::optional<std::string> resourceLock;
    std::optional<std::string> resourceName;
    std::optional<std::string> resourceNamespace;
    template <class V>
    void fields(V& v) {
        v("leaderElect", leaderElect);
        v("leaseDuration", leaseDuration);
        v("renewDeadline", renewDeadline);
        v("retryPeriod", retryPeriod);
        v("resourceLock", resourceLock);
        v("resourceName", resourceName);
        v("resourceNamespace", resourceNamespace);
    }
};

// component-base ClientConnectionConfiguration.
struct ClientConnection {
    std::optional<std::string> kubeconfig;
    std::optional<std::string> acceptContentTypes;
    std::optional<std::string> contentType;
    std::optional<double> qps;
    std::optional<int32_t> burst;
    template <class V>
    void fields(V& v) {
        v("kubeconfig", kubeconfig);
        v("acceptContentTypes", acceptContentTypes);
        v("contentType", contentType);
        v("qps", qps);
        v("burst", burst);
    }
};

struct Plugin {
    std::optional<std::string> name;
    template <class V>
    void fields(V& v) {
        v("name", name);
    }
};

struct PluginSet {
    std::optional<std::vector<Plugin>> enabled;
    std::optional<std::vector<Plugin>> disabled;
    template <class V>
    void fields(V& v) {
        v("enabled", enabled);
        v("disabled", disabled);
    }
};

// The four extension points; there is deliberately no preEvictionFilter (a filter plugin method).
struct Plugins {
    std::optional<PluginSet> deschedule;
    std::optional<PluginSet> balance;
    std::optional<PluginSet> evict;
    std::optional<PluginSet> filter;
    template <class V>
    void fields(V& v) {
        v("deschedule", deschedule);
        v("balance", balance);
        v("evict", evict);
        v("filter", filter);
    }
};

struct PluginConfig {
    std::optional<std::string> name;
    std::optional<RawJson> args;
    template <class V>
    void fields(V& v) {
        v("name", name);
        v("args", args);
    }
};

struct Profile {
    std::optional<std::string> name;
    std::optional<kd::LabelSelector> nodeSelector;
    std::optional<Plugins> plugins;
    std::optional<std::vector<PluginConfig>> pluginConfig;
    template <class V>
    void fields(V& v) {
        v("name", name);
        v("nodeSelector", nodeSelector);
        v("plugins", plugins);
        v("pluginConfig", pluginConfig);
    }
};

struct Configuration {
    std::optional<std::string> apiVersion;
    std::optional<std::string> kind;
    std::optional<LeaderElection> leaderElection;
    std::optional<ClientConnection> clientConnection;
    std::optional<bool> enableProfiling;
    std::optional<bool> enableContentionProfiling;
    std::optional<std::string> healthzBindAddress;
    std::optional<std::string> metricsBindAddress;
    std::optional<kd::Duration> deschedulingInterval;
    std::optional<bool> dryRun;
    std::optional<std::vector<Profile>> profiles;
    std::optional<kd::LabelSelector> nodeSelector;
    std::optional<uint32_t> maxNoOfPodsToEvictPerNode;
    std::optional<uint32_t> maxNoOfPodsToEvictPerNamespace;
    std::optional<uint32_t> maxNoOfPodsToEvictTotal;
    template <class V>
    void fields(V& v) {
        v("apiVersion", apiVersion);
        v("kind", kind);
        v("leaderElection", leaderElection);
        v("clientConnection", clientConnection);
        v("enableProfiling", enableProfiling);
        v("enableContentionProfiling", enableContentionProfiling);
        v("healthzBindAddress", healthzBindAddress);
        v("metricsBindAddress", metricsBindAddress);
        v("deschedulingInterval", deschedulingInterval);
        v("dryRun", dryRun);
        v("profiles", profiles);
        v("nodeSelector", nodeSelector);
        v("maxNoOfPodsToEvictPerNode", maxNoOfPodsToEvictPerNode);
        v("maxNoOfPodsToEvictPerNamespace", maxNoOfPodsToEvictPerNamespace);
        v("maxNoOfPodsToEvictTotal", maxNoOfPodsToEvictTotal);
    }
};

}  // namespace kd::core::wire
