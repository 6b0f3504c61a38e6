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
