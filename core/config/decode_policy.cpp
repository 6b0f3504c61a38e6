#include "config/decode_policy.hpp"

#include "config/build_profiles.hpp"
#include "config/policy_wire.hpp"

#include <map>
#include <set>

namespace kd::core {

namespace {

constexpr const char* kDefaultEvictor = "DefaultEvictor";

// What the policy does not hold comes from upstream's command line, whose defaults are these
// (cmd/descheduler/app/options/options.go@v0.35.1): no leader election (the lease, when turned
// on, is kube-system/descheduler), one descheduling run, no dry run.
LeaderElection upstream_leader_election() {
    LeaderElection le;
    le.leaderElect = false;
    le.leaseDuration = kd::Duration{std::chrono::seconds(137)};
    le.renewDeadline = kd::Duration{std::chrono::seconds(107)};
    le.retryPeriod = kd::Duration{std::chrono::seconds(26)};
    le.resourceName = "descheduler";
    le.resourceNamespace = "kube-system";
    return le;
}

// One extension point's `enabled` names. `disabled` has nothing to act on: a policy has no
// default plugins (upstream reads it and ignores it), and DefaultEvictor is added regardless.
std::vector<PluginRef> enabled_names(const std::optional<wire::PolicyPluginSet>& set, const std::string& path,
                                     Reporter& report) {
    std::vector<PluginRef> out;
    if (!set || !set->enabled) return out;
    std::string list_path = kd::field_path(path, "enabled");
    if (set->enabled->size() > kMaxPluginsPerList) {
        report.at(list_path, std::to_string(set->enabled->size()) + " plugins listed, more than " +
                                 std::to_string(kMaxPluginsPerList) + " (kMaxPluginsPerList, the limit on one list)");
        return out;
    }
    for (size_t i = 0; i < set->enabled->size(); ++i) {
        std::string item = kd::index_path(list_path, i);
        const std::string& name = (*set->enabled)[i];
        if (name.empty()) {
            report.at(item, "a plugin name is required here");
            continue;
        }
        out.push_back({name, report.index().locate(item)});
    }
    return out;
}

// upstream's setDefaultEvictor: DefaultEvictor is asked first unless the list names it already.
void with_default_evictor(std::vector<PluginRef>& list, const SourceLocation& where) {
    for (const auto& ref : list)
        if (ref.name == kDefaultEvictor) return;
    list.insert(list.begin(), PluginRef{kDefaultEvictor, where});
}

Profile build_policy_profile(const wire::PolicyProfile& in, const std::string& path, Reporter& report) {
    Profile p;
    p.name = in.name.value_or("");
    p.where = report.index().locate(path);
    std::string plugins_path = kd::field_path(path, "plugins");
    std::vector<PluginRef> pre_eviction;
    if (in.plugins) {
        const wire::PolicyPlugins& pl = *in.plugins;
        p.plugins.deschedule = enabled_names(pl.deschedule, kd::field_path(plugins_path, "deschedule"), report);
        p.plugins.balance = enabled_names(pl.balance, kd::field_path(plugins_path, "balance"), report);
        p.plugins.filter = enabled_names(pl.filter, kd::field_path(plugins_path, "filter"), report);
        pre_eviction = enabled_names(pl.preevictionfilter, kd::field_path(plugins_path, "preevictionfilter"), report);
        // presort and sort name no plugin that v0.35.1 has; its profile never reads them either.
    }
    with_default_evictor(p.plugins.filter, p.where);
    with_default_evictor(pre_eviction, p.where);
    p.plugins.preEvictionFilter = std::move(pre_eviction);
    p.plugins.evict = {PluginRef{kDefaultEvictor, p.where}};

    std::string configs_path = kd::field_path(path, "pluginConfig");
    p.pluginConfig = build_plugin_configs(in.pluginConfig, configs_path, report);
    if (!p.configFor(kDefaultEvictor)) {
        PluginConfig defaults;
        defaults.name = kDefaultEvictor;
        defaults.where = p.where;
        p.pluginConfig.insert(p.pluginConfig.begin(), std::move(defaults));
    }
    // Upstream builds a profile's plugins from their pluginConfig entries and refuses a plugin
    // that has none ("unable to find … plugin config"): so does kdesched, before anything runs.
    std::set<std::string> reported;
    auto needs_config = [&](const std::vector<PluginRef>& list, const char* point) {
        for (size_t i = 0; i < list.size(); ++i) {
            const PluginRef& ref = list[i];
            if (ref.name == kDefaultEvictor || p.configFor(ref.name) || !reported.insert(ref.name).second) continue;
            report.at_location(
                ref.where, kd::field_path(plugins_path, point),
                "plugin \"" + ref.name +
                    "\" has no entry in this profile's pluginConfig, which "
                    "kubernetes-sigs/descheduler requires (\"unable to find plugin config\"): add \"- name: " +
                    ref.name + "\" with its args (\"args: {}\" keeps the defaults)");
        }
    };
    needs_config(p.plugins.deschedule, "deschedule");
    needs_config(p.plugins.balance, "balance");
    needs_config(p.plugins.filter, "filter");
    needs_config(*p.plugins.preEvictionFilter, "preevictionfilter");
    return p;
}

// upstream's validateDeschedulerConfiguration for the metrics sources (same messages). The
// KubernetesMetrics source feeds LowNodeUtilization's metricsUtilization; a Prometheus provider is
// checked and otherwise unused (no kdesched plugin reads Prometheus: docs/compatibility.md 63).
void check_metrics(const wire::Policy& in, Reporter& report) {
    if (!in.metricsProviders) return;
    std::map<std::string, size_t> providers;  // source → its first entry
    for (size_t i = 0; i < in.metricsProviders->size(); ++i) {
        std::string source = (*in.metricsProviders)[i].source.value_or("");
        if (!providers.emplace(source, i).second)
            report.at(kd::index_path("metricsProviders", i), "metric provider \"" + source +
                                                                 "\" is already configured, each source can be "
                                                                 "configured only once");
    }
    if (providers.count("KubernetesMetrics") && in.metricsCollector && in.metricsCollector->enabled.value_or(false))
        report.at("metricsCollector",
                  "it is not allowed to combine metrics provider when metrics collector is enabled");
    auto prom = providers.find("Prometheus");
    if (prom == providers.end()) return;
    const auto& provider = (*in.metricsProviders)[prom->second];
    std::string path = kd::index_path("metricsProviders", prom->second);
    if (!provider.prometheus) {
        report.at(path, "prometheus configuration is required when prometheus source is enabled");
        return;
    }
    if (provider.prometheus->url.value_or("").empty())
        report.at(kd::field_path(path, "prometheus"), "prometheus URL is required when prometheus is enabled");
    if (const auto& token = provider.prometheus->authToken) {
        std::string token_path = kd::field_path(kd::field_path(path, "prometheus"), "authToken");
        if (!token->secretReference)
            report.at(token_path, "prometheus authToken secret is expected to be set when authToken field is");
        else if (token->secretReference->name.value_or("").empty() ||
                 token->secretReference->namespace_.value_or("").empty())
            report.at(kd::field_path(token_path, "secretReference"),
                      "prometheus authToken secret reference does not set both namespace and name");
    }
}

}  // namespace

DeschedulerConfiguration decode_policy(const rapidjson::Value& doc, Reporter& report) {
    report.set_subject(kPolicyKind);
    DeschedulerConfiguration out;
    out.format = DeschedulerConfiguration::Format::policy;
    out.sourceFile = report.origin();
    out.leaderElection = upstream_leader_election();

    wire::Policy in;
    kd::Errors errs;
    kd::decode_value(doc, in, "", errs);
    report.add(errs);

    if (in.nodeSelector && !in.nodeSelector->empty()) {
        std::string problem;
        if (auto parsed = kd::StringLabelSelector::parse(*in.nodeSelector, &problem))
            out.nodeSelectorText = DeschedulerConfiguration::TextSelector{*in.nodeSelector, std::move(*parsed)};
        else
            report.at("nodeSelector", "invalid selector \"" + *in.nodeSelector + "\": " + problem +
                                          " (the grammar of kubectl's -l, e.g. \"zone in (a,b),!legacy\")");
    }
    out.maxNoOfPodsToEvictPerNode = in.maxNoOfPodsToEvictPerNode;
    out.maxNoOfPodsToEvictPerNamespace = in.maxNoOfPodsToEvictPerNamespace;
    out.maxNoOfPodsToEvictTotal = in.maxNoOfPodsToEvictTotal;
    if (in.gracePeriodSeconds) {
        if (*in.gracePeriodSeconds < 0)
            report.at("gracePeriodSeconds", "must not be negative (0 deletes the evicted pods at once)");
        out.evictionGracePeriodSeconds = in.gracePeriodSeconds;
    }
    out.evictionFailureEventNotification = in.evictionFailureEventNotification.value_or(false);
    check_metrics(in, report);
    out.kubernetesMetrics = in.metricsCollector && in.metricsCollector->enabled.value_or(false);
    if (in.metricsProviders)
        for (const auto& provider : *in.metricsProviders)
            out.kubernetesMetrics = out.kubernetesMetrics || provider.source.value_or("") == "KubernetesMetrics";

    if (in.profiles) {
        if (in.profiles->size() > kMaxProfiles) {
            report.at("profiles", std::to_string(in.profiles->size()) + " profiles, more than " +
                                      std::to_string(kMaxProfiles) +
                                      " (kMaxProfiles, the limit on one file): run several kdesched instances instead");
            return out;
        }
        for (size_t i = 0; i < in.profiles->size(); ++i)
            out.profiles.push_back(build_policy_profile((*in.profiles)[i], kd::index_path("profiles", i), report));
        check_profile_names(out.profiles, "", report);
    }
    return out;
}

}  // namespace kd::core
