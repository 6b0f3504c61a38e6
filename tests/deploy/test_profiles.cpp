// The profiles deploy/ ships: the base's is Koordinator's configuration (no balance plugin on,
// MigrationController at evict), held to Koordinator's ConfigMap when ../shared has it; the
// load-aware overlay's is the same with LowNodeLoad at balance.
#include "config/configuration.hpp"
#include "manifests.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

using namespace kd::core;
using kd::test::deploy_dir;
using kd::test::kustomize;
using kd::test::read_text;
using kd::test::rendered;
using kd::test::source_dir;

namespace {

std::vector<std::string> names(const std::vector<PluginRef>& refs) {
    std::vector<std::string> out;
    for (const auto& r : refs) out.push_back(r.name);
    return out;
}

// (Of a configuration the caller keeps: the reference points into it.)
const Profile& only_profile(const DeschedulerConfiguration& c) {
    REQUIRE(c.profiles.size() == 1);
    return c.profiles[0];
}

// Two YAML/JSON trees with the same values, mappings compared without regard to key order.
bool same_tree(const YAML::Node& a, const YAML::Node& b) {
    if (a.Type() != b.Type()) return false;
    if (a.IsScalar()) return a.Scalar() == b.Scalar();
    if (a.size() != b.size()) return false;
    if (a.IsSequence()) {
        for (size_t i = 0; i < a.size(); ++i)
            if (!same_tree(a[i], b[i])) return false;
        return true;
    }
    for (const auto& kv : a) {
        YAML::Node other = b[kv.first.Scalar()];
        if (!other || !same_tree(kv.second, other)) return false;
    }
    return true;
}

// Each plugin's args of `expected` are those of `actual`, and no plugin is configured in one only.
void require_same_args(const Profile& actual, const Profile& expected) {
    std::vector<std::string> actual_names, expected_names;
    for (const auto& pc : actual.pluginConfig) actual_names.push_back(pc.name);
    for (const auto& pc : expected.pluginConfig) expected_names.push_back(pc.name);
    CHECK(actual_names == expected_names);
    for (const auto& want : expected.pluginConfig) {
        const PluginConfig* got = actual.configFor(want.name);
        INFO("args of " << want.name);
        REQUIRE(got != nullptr);
        INFO("ours: " << got->argsJson << "\nexpected: " << want.argsJson);
        CHECK(same_tree(YAML::Load(got->argsJson), YAML::Load(want.argsJson)));
    }
}

DeschedulerConfiguration default_profile() {
    return load_configuration((deploy_dir() / "base/default.yaml").string());
}

}  // namespace

TEST_CASE(
    "profiles: the default enables no balance plugin, MigrationController evicts, LowNodeLoad's args ride along") {
    DeschedulerConfiguration config = default_profile();
    const Profile& p = only_profile(config);
    CHECK(p.plugins.balance.empty());
    CHECK(p.plugins.deschedule.empty());
    CHECK(names(p.plugins.evict) == std::vector<std::string>{"MigrationController"});
    CHECK(names(p.plugins.filter) == std::vector<std::string>{"MigrationController"});
    CHECK(p.configFor("LowNodeLoad") != nullptr);  // carried, as Koordinator ships it, though not enabled
}

TEST_CASE("profiles: the load-aware profile is the default plus LowNodeLoad at balance, with the same args") {
    DeschedulerConfiguration load_aware = load_configuration((source_dir() / "profiles/load-aware.yaml").string());
    DeschedulerConfiguration base = default_profile();
    const Profile& p = only_profile(load_aware);
    CHECK(names(p.plugins.balance) == std::vector<std::string>{"LowNodeLoad"});
    CHECK(names(p.plugins.evict) == names(only_profile(base).plugins.evict));
    CHECK(names(p.plugins.filter) == names(only_profile(base).plugins.filter));
    CHECK(p.name == only_profile(base).name);  // the same identity on PodMigrationJobs either way
    require_same_args(p, only_profile(base));
    // The top-level fields it leaves out default to the values the base spells out.
    CHECK(load_aware.leaderElection.resourceNamespace == base.leaderElection.resourceNamespace);
    CHECK(load_aware.leaderElection.resourceName == base.leaderElection.resourceName);
    CHECK(load_aware.healthzBindAddress == base.healthzBindAddress);
    CHECK(load_aware.metricsBindAddress == base.metricsBindAddress);
    CHECK(load_aware.deschedulingInterval.value == base.deschedulingInterval.value);
}

TEST_CASE("profiles: the load-aware overlay renders a ConfigMap whose profile enables LowNodeLoad") {
    auto docs = kustomize("overlays/load-aware");
    if (!docs) return;
    int config_maps = 0;
    for (const auto& d : *docs) config_maps += d["kind"].as<std::string>() == "ConfigMap";
    CHECK(config_maps == 1);  // replaced, not added beside the base's
    YAML::Node cm = rendered(*docs, "ConfigMap");
    std::string profile = cm["data"]["default.yaml"].as<std::string>();
    CHECK(profile == read_text(source_dir() / "profiles/load-aware.yaml"));
    DeschedulerConfiguration config = parse_configuration(profile, "overlays/load-aware ConfigMap");
    const Profile& p = only_profile(config);
    CHECK(names(p.plugins.balance) == std::vector<std::string>{"LowNodeLoad"});
    CHECK(rendered(*docs, "Deployment")["spec"]["template"]["spec"]["volumes"][0]["configMap"]["name"]
              .as<std::string>() == cm["metadata"]["name"].as<std::string>());
}

TEST_CASE("profiles: the default's plugins and args are those of Koordinator's shipped ConfigMap") {
    const std::filesystem::path shipped =
        source_dir().parent_path() / "shared/koordinator-data/descheduler-config.yaml";
    if (!std::filesystem::exists(shipped)) {
        std::printf("SKIPPED: %s is missing (Koordinator's descheduler-config ConfigMap)\n", shipped.c_str());
        return;
    }
    DeschedulerConfiguration theirs = load_configuration(shipped.string());
    DeschedulerConfiguration ours = default_profile();
    const Profile& a = only_profile(ours);
    const Profile& b = only_profile(theirs);
    CHECK(names(a.plugins.deschedule) == names(b.plugins.deschedule));
    CHECK(names(a.plugins.balance) == names(b.plugins.balance));
    CHECK(names(a.plugins.evict) == names(b.plugins.evict));
    CHECK(names(a.plugins.filter) == names(b.plugins.filter));
    require_same_args(a, b);
    CHECK(ours.deschedulingInterval.value == theirs.deschedulingInterval.value);
    CHECK(ours.dryRun == theirs.dryRun);
    CHECK(ours.healthzBindAddress == theirs.healthzBindAddress);
    CHECK(ours.metricsBindAddress == theirs.metricsBindAddress);
    CHECK(ours.leaderElection.leaderElect == theirs.leaderElection.leaderElect);
    CHECK(ours.leaderElection.resourceLock == theirs.leaderElection.resourceLock);
    CHECK(ours.leaderElection.resourceNamespace == theirs.leaderElection.resourceNamespace);
    CHECK(ours.leaderElection.resourceName == theirs.leaderElection.resourceName);
}
