// kubernetes-sigs/descheduler's DeschedulerPolicy (descheduler/v1alpha2) given to --config as is
// (config/decode_policy.hpp): what it becomes, and what upstream's loader refuses.
#include "config/configuration.hpp"
#include "support.hpp"

#include <string>
#include <vector>

using kd::core::DeschedulerConfiguration;
using kd::core::load_configuration;
using kd::core::PluginRef;
using kd::core::test::file_errors;
using kd::core::test::kProfilesDir;
using kd::core::test::text_errors;
using Lines = std::vector<std::string>;

namespace {

std::vector<std::string> plugin_names(const std::vector<PluginRef>& refs) {
    std::vector<std::string> out;
    for (const auto& r : refs) out.push_back(r.name);
    return out;
}

const std::string kHead = "apiVersion: descheduler/v1alpha2\nkind: DeschedulerPolicy\n";

std::string policy_heading(const std::string& file, int problems) {
    return file + ": invalid DeschedulerPolicy, " + std::to_string(problems) +
           (problems == 1 ? " problem:" : " problems:");
}

}  // namespace

TEST_CASE("policy: the smallest policy gets DefaultEvictor as filter, pre-eviction filter and evictor", "[policy]") {
    DeschedulerConfiguration c = load_configuration(kProfilesDir + "/policy/minimal.yaml");
    CHECK(c.format == DeschedulerConfiguration::Format::policy);
    REQUIRE(c.profiles.size() == 1);
    const auto& p = c.profiles[0];
    CHECK(p.name == "ProfileName");
    CHECK(p.plugins.deschedule.empty());
    CHECK(p.plugins.balance.empty());
    CHECK(plugin_names(p.plugins.filter) == Lines{"DefaultEvictor"});
    REQUIRE(p.plugins.preEvictionFilter);
    CHECK(plugin_names(*p.plugins.preEvictionFilter) == Lines{"DefaultEvictor"});
    CHECK(plugin_names(p.plugins.evict) == Lines{"DefaultEvictor"});
    REQUIRE(p.pluginConfig.size() == 1);
    CHECK(p.pluginConfig[0].name == "DefaultEvictor");
    CHECK(p.pluginConfig[0].argsJson == "{}");
    // What the policy does not hold: upstream's command-line defaults.
    CHECK_FALSE(c.leaderElection.leaderElect);
    CHECK(c.leaderElection.resourceName == "descheduler");
    CHECK(c.leaderElection.resourceNamespace == "kube-system");
    CHECK(c.leaderElection.leaseDuration.value == std::chrono::seconds(137));
    CHECK(c.deschedulingInterval.value.count() == 0);
    CHECK_FALSE(c.dryRun);
    CHECK_FALSE(c.nodeSelector);
    CHECK_FALSE(c.evictionGracePeriodSeconds);
}

TEST_CASE("policy: a full policy keeps its profiles, limits, node selector and grace period", "[policy]") {
    DeschedulerConfiguration c = load_configuration(kProfilesDir + "/policy/full.yaml");
    REQUIRE(c.profiles.size() == 2);
    const auto& life = c.profiles[0];
    CHECK(life.name == "lifecycle");
    CHECK(plugin_names(life.plugins.deschedule) == Lines{"PodLifeTime", "RemovePodsHavingTooManyRestarts"});
    CHECK(plugin_names(life.plugins.filter) == Lines{"DefaultEvictor"});
    REQUIRE(life.configFor("DefaultEvictor"));
    CHECK(life.configFor("DefaultEvictor")->argsJson == R"({"evictLocalStoragePods":true,"nodeFit":true})");
    CHECK(life.configFor("PodLifeTime")->argsJson == R"({"maxPodLifeTimeSeconds":86400})");
    CHECK(life.plugins.deschedule[1].where.line == 28);  // where the name is written, for later messages
    const auto& spread = c.profiles[1];
    CHECK(plugin_names(spread.plugins.balance) == Lines{"RemoveDuplicates"});
    CHECK(plugin_names(spread.plugins.filter) == Lines{"DefaultEvictor"});  // "disabled" cannot take it away
    CHECK(spread.pluginConfig.front().name == "DefaultEvictor");            // added first, defaults
    CHECK(c.maxNoOfPodsToEvictPerNode == 5u);
    CHECK(c.maxNoOfPodsToEvictPerNamespace == 10u);
    CHECK(c.maxNoOfPodsToEvictTotal == 50u);
    CHECK(c.evictionGracePeriodSeconds == 30);
    CHECK_FALSE(c.nodeSelector);  // the structured one is koord's; a policy's is text
    REQUIRE(c.nodeSelectorText);
    auto matches = [&](std::vector<std::pair<std::string, std::string>> labels) {
        std::vector<kd_key_value> kvs;
        for (const auto& [k, v] : labels) kvs.push_back({kd::to_kd(k), kd::to_kd(v)});
        return c.nodeSelectorText->selector.matches(kd::KeyValues(kd_key_value_list{kvs.data(), kvs.size()}));
    };
    CHECK(matches({{"node-role.kubernetes.io/worker", ""}, {"env", "prod"}, {"zone", "a"}}));
    CHECK_FALSE(matches({{"node-role.kubernetes.io/worker", ""}, {"env", "prod"}, {"zone", "b"}}));
    CHECK_FALSE(matches({{"node-role.kubernetes.io/worker", ""}, {"env", "prod"}, {"legacy", "true"}}));
    CHECK_FALSE(matches({{"env", "prod"}}));
}

TEST_CASE("policy: an enabled plugin needs its pluginConfig entry, as upstream's profile requires", "[policy]") {
    CHECK(text_errors(kHead + "profiles:\n- name: p\n  plugins:\n    deschedule:\n      enabled: [PodLifeTime]\n"
                              "    balance:\n      enabled:\n      - RemoveDuplicates\n") ==
          Lines{policy_heading("test.yaml", 2),
                "test.yaml:7:17: profiles[0].plugins.deschedule: plugin \"PodLifeTime\" has no entry in this "
                "profile's pluginConfig, which kubernetes-sigs/descheduler requires (\"unable to find plugin "
                "config\"): add \"- name: PodLifeTime\" with its args (\"args: {}\" keeps the defaults)",
                "test.yaml:10:9: profiles[0].plugins.balance: plugin \"RemoveDuplicates\" has no entry in this "
                "profile's pluginConfig, which kubernetes-sigs/descheduler requires (\"unable to find plugin "
                "config\"): add \"- name: RemoveDuplicates\" with its args (\"args: {}\" keeps the defaults)"});
}

TEST_CASE("policy: fields are decoded strictly and checked where they are", "[policy]") {
    CHECK(text_errors(kHead + "profiles:\n- name: p\n  pluginConfigs: []\n") ==
          Lines{policy_heading("test.yaml", 1),
                "test.yaml:5:3: profiles[0].pluginConfigs: unknown field (known fields: "
                "name, pluginConfig, plugins)"});
    CHECK(text_errors(kHead + "nodeSelector: \"a in (b\"\n") ==
          Lines{policy_heading("test.yaml", 1),
                "test.yaml:3:15: nodeSelector: invalid selector \"a in (b\": found 'end of string', expected: "
                "',', ')' or identifier (the grammar of kubectl's -l, e.g. \"zone in (a,b),!legacy\")"});
    // labels.Parse's numeric comparisons select nodes too.
    const auto numeric = kd::core::parse_configuration(kHead + "nodeSelector: \"cores>4,zone\"\n", "test.yaml");
    REQUIRE(numeric.nodeSelectorText);
    CHECK(numeric.nodeSelectorText->text == "cores>4,zone");
    CHECK(numeric.nodeSelectorText->selector.requirements().size() == 2);
    CHECK(text_errors(kHead + "gracePeriodSeconds: -1\n") ==
          Lines{policy_heading("test.yaml", 1),
                "test.yaml:3:21: gracePeriodSeconds: must not be negative (0 deletes the evicted pods at once)"});
    CHECK(kd::core::parse_configuration(kHead + "evictionFailureEventNotification: true\n", "test.yaml")
              .evictionFailureEventNotification);
    CHECK_FALSE(kd::core::parse_configuration(kHead, "test.yaml").evictionFailureEventNotification);
    CHECK(text_errors(kHead + "evictionFailureEventNotification: yes-please\n").size() == 2);
    CHECK(text_errors("apiVersion: descheduler/v1alpha1\nkind: DeschedulerPolicy\nstrategies: {}\n") ==
          Lines{policy_heading("test.yaml", 1),
                "test.yaml:1:13: apiVersion: unsupported apiVersion \"descheduler/v1alpha1\" for a DeschedulerPolicy; "
                "kdesched reads descheduler/v1alpha2 (a v1alpha1 policy of strategies must be rewritten as profiles "
                "of plugins first, as kubernetes-sigs/descheduler itself requires since v0.31)"});
}

TEST_CASE("policy: metrics sources are checked with upstream's messages", "[policy]") {
    CHECK(text_errors(kHead + "metricsProviders:\n- source: KubernetesMetrics\n- source: KubernetesMetrics\n") ==
          Lines{policy_heading("test.yaml", 1),
                "test.yaml:5:3: metricsProviders[1]: metric provider \"KubernetesMetrics\" is already configured, "
                "each source can be configured only once"});
    CHECK(text_errors(kHead + "metricsCollector:\n  enabled: true\nmetricsProviders:\n- source: KubernetesMetrics\n") ==
          Lines{policy_heading("test.yaml", 1),
                "test.yaml:3:1: metricsCollector: it is not allowed to combine metrics "
                "provider when metrics collector is enabled"});
    CHECK(text_errors(kHead + "metricsProviders:\n- source: Prometheus\n") ==
          Lines{policy_heading("test.yaml", 1),
                "test.yaml:4:3: metricsProviders[0]: prometheus configuration is required "
                "when prometheus source is enabled"});
    CHECK(text_errors(kHead + "metricsProviders:\n- source: Prometheus\n  prometheus:\n    authToken: {}\n") ==
          Lines{policy_heading("test.yaml", 2),
                "test.yaml:5:3: metricsProviders[0].prometheus: prometheus URL is required when prometheus is enabled",
                "test.yaml:6:5: metricsProviders[0].prometheus.authToken: prometheus authToken secret is expected "
                "to be set when authToken field is"});
}

TEST_CASE(
    "policy: the KubernetesMetrics source, by metricsProviders or the deprecated metricsCollector, makes the "
    "host keep metrics.k8s.io usage",
    "[policy][metrics]") {
    auto collects = [](const std::string& more) {
        return kd::core::parse_configuration(kHead + more, "test.yaml").kubernetesMetrics;
    };
    CHECK(collects("metricsProviders:\n- source: KubernetesMetrics\n"));
    CHECK(collects("metricsCollector:\n  enabled: true\n"));
    CHECK_FALSE(collects(""));
    CHECK_FALSE(collects("metricsCollector:\n  enabled: false\n"));
    CHECK_FALSE(collects("metricsProviders:\n- source: Prometheus\n  prometheus:\n    url: http://prometheus:9090\n"));
}
