// Koordinator's shipped koord-descheduler ConfigMap must load unchanged, both as the ConfigMap and
// as the embedded DeschedulerConfiguration on its own.
#include "reference_data.hpp"
#include "support.hpp"

#include <yaml-cpp/yaml.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

using namespace kd::core;
using kd::core::test::names;

namespace {

const std::string kShipped = std::string(KD_SHARED_DIR) + "/koordinator-data/descheduler-config.yaml";
const std::string kDataKey = "koord-descheduler-config";

// Values that do not depend on how the file was given. `origin` is what locations name.
void check_shipped(const DeschedulerConfiguration& cfg, const std::string& origin) {
    CHECK(cfg.deschedulingInterval.value == std::chrono::seconds(10));
    CHECK_FALSE(cfg.dryRun);
    CHECK(cfg.enableProfiling);
    CHECK(cfg.enableContentionProfiling);
    CHECK(cfg.healthzBindAddress == "0.0.0.0:10251");
    CHECK(cfg.metricsBindAddress == "0.0.0.0:10251");
    CHECK(cfg.leaderElection.leaderElect);
    CHECK(cfg.leaderElection.resourceLock == "leases");
    CHECK(cfg.leaderElection.resourceName == "koord-descheduler");
    CHECK(cfg.leaderElection.resourceNamespace == "koordinator-system");
    CHECK_FALSE(cfg.nodeSelector.has_value());
    CHECK_FALSE(cfg.maxNoOfPodsToEvictTotal.has_value());

    REQUIRE(cfg.profiles.size() == 1);
    const Profile& p = cfg.profiles[0];
    CHECK(p.name == "koord-descheduler");
    CHECK(p.where.text() == origin + ":14:3");
    CHECK(p.plugins.deschedule.empty());
    CHECK(p.plugins.balance.empty());
    CHECK(names(p.plugins.evict) == std::vector<std::string>{"MigrationController"});
    CHECK(names(p.plugins.filter) == std::vector<std::string>{"MigrationController"});
    // evict names it explicitly; filter keeps the default, placed at the profile.
    CHECK(p.plugins.evict[0].where.text() == origin + ":23:11");
    CHECK(p.plugins.filter[0].where.text() == origin + ":14:3");

    REQUIRE(p.pluginConfig.size() == 2);
    const PluginConfig* mc = p.configFor("MigrationController");
    REQUIRE(mc != nullptr);
    CHECK(mc->argsJson ==
          R"({"evictionPolicy":"Eviction","namespaces":{"exclude":["kube-system","koordinator-system"]},)"
          R"("evictQPS":"10","evictBurst":1})");
    CHECK(mc->where.text() == origin + ":26:5");
    CHECK(mc->locate("evictQPS").text() == origin + ":43:17");
    CHECK(mc->locate("namespaces.exclude[1]").text() == origin + ":42:13");

    const PluginConfig* lnl = p.configFor("LowNodeLoad");
    REQUIRE(lnl != nullptr);
    CHECK(lnl->argsJson == R"({"evictableNamespaces":{"exclude":["kube-system","koordinator-system"]},)"
                           R"("useDeviationThresholds":false,"lowThresholds":{"cpu":45,"memory":55},)"
                           R"("highThresholds":{"cpu":75,"memory":80}})");
    CHECK(lnl->locate("highThresholds.memory").text() == origin + ":59:17");
    CHECK(p.configFor("DefaultEvictor") == nullptr);
}

}  // namespace

TEST_CASE("the shipped Koordinator ConfigMap loads unchanged", "[reference]") {
    if (!koordinator_data("loading Koordinator's shipped ConfigMap")) return;
    DeschedulerConfiguration cfg = load_configuration(kShipped);
    CHECK(cfg.sourceFile == kShipped);
    check_shipped(cfg, kShipped + "[data." + kDataKey + "]");
}

TEST_CASE("the shipped Koordinator configuration loads when extracted to its own file", "[reference]") {
    if (!koordinator_data("loading Koordinator's shipped configuration")) return;
    YAML::Node cm = YAML::LoadFile(kShipped);
    std::string text = cm["data"][kDataKey].as<std::string>();
    auto path =
        std::filesystem::temp_directory_path() / ("kdesched-config-test-" + std::to_string(::getpid()) + ".yaml");
    std::ofstream(path) << text;
    DeschedulerConfiguration cfg = load_configuration(path.string());
    std::filesystem::remove(path);
    CHECK(cfg.sourceFile == path.string());
    check_shipped(cfg, path.string());
}

TEST_CASE("a ConfigMap with one DeschedulerConfiguration among other data values uses that one") {
    auto lines = kd::core::test::file_errors("invalid/configmap-embedded-error.yaml");
    const std::string origin = "invalid/configmap-embedded-error.yaml[data.koord-descheduler-config]";
    CHECK(lines == std::vector<std::string>{
                       origin + ": invalid DeschedulerConfiguration, 2 problems:",
                       origin + ":4:3: profiles[0].plugins: required: a profile must list its plugins "
                                "(\"plugins: {}\" keeps the defaults)",
                       origin + ":5:3: profiles[0].plugin: unknown field (known fields: name, nodeSelector, "
                                "plugins, pluginConfig)",
                   });
}

TEST_CASE("a ConfigMap without a DeschedulerConfiguration is refused, naming its data keys") {
    CHECK(kd::core::test::file_errors("invalid/configmap-without-config.yaml") ==
          std::vector<std::string>{"invalid/configmap-without-config.yaml: ConfigMap \"descheduler-config\" has no "
                                   "data value holding a DeschedulerConfiguration (data keys: a.txt, b.txt)"});
}

TEST_CASE("a ConfigMap with several DeschedulerConfigurations is refused") {
    std::string embedded = "    apiVersion: descheduler/v1alpha2\n    kind: DeschedulerConfiguration\n";
    std::string cm = "apiVersion: v1\nkind: ConfigMap\ndata:\n  one: |\n" + embedded + "  two: |\n" + embedded;
    CHECK(kd::core::test::text_errors(cm) ==
          std::vector<std::string>{"test.yaml: the ConfigMap has several data values holding a "
                                   "DeschedulerConfiguration (one, two) (keep exactly one)"});
}

TEST_CASE("a ConfigMap whose only data value is not a configuration reports that value's problems") {
    std::string cm = "apiVersion: v1\nkind: ConfigMap\ndata:\n  config: |\n    kind: Pod\n";
    CHECK(kd::core::test::text_errors(cm) ==
          std::vector<std::string>{
              "test.yaml[data.config]: invalid DeschedulerConfiguration, 2 problems:",
              "test.yaml[data.config]:1:1: apiVersion: required: this file must start with \"apiVersion: "
              "descheduler/v1alpha2\"",
              "test.yaml[data.config]:1:7: kind: must be \"DeschedulerConfiguration\", got \"Pod\"",
          });
}
