// pluginConfig entries: args as compact JSON, apiVersion/kind handling, and the locations the
// runtime uses to place a plugin's own errors on lines of the file.
#include "support.hpp"

using namespace kd::core;
using kd::core::test::kHeader;

namespace {

Profile profile(const std::string& plugin_config) {
    DeschedulerConfiguration cfg = parse_configuration(
        kHeader + "profiles:\n- name: p\n  plugins: {}\n  pluginConfig:\n" + plugin_config, "t.yaml");
    REQUIRE(cfg.profiles.size() == 1);
    return cfg.profiles[0];
}

}  // namespace

TEST_CASE("args become compact JSON without apiVersion and kind") {
    Profile p = profile(R"(  - name: LowNodeLoad
    args:
      apiVersion: descheduler/v1alpha2
      kind: LowNodeLoadArgs
      nodePools:
      - name: a
        highThresholds: {cpu: 70, memory: 80.5}
)");
    REQUIRE(p.pluginConfig.size() == 1);
    CHECK(p.pluginConfig[0].name == "LowNodeLoad");
    CHECK(p.pluginConfig[0].argsJson == R"({"nodePools":[{"name":"a","highThresholds":{"cpu":70,"memory":80.5}}]})");
    CHECK(p.pluginConfig[0].where.text() == "t.yaml:8:5");
}

TEST_CASE("absent or null args are an empty object, and entries keep file order") {
    Profile p = profile("  - name: B\n  - name: A\n    args:\n  - name: C\n    args: {}\n");
    REQUIRE(p.pluginConfig.size() == 3);
    CHECK(p.pluginConfig[0].name == "B");
    CHECK(p.pluginConfig[1].name == "A");
    CHECK(p.pluginConfig[2].name == "C");
    for (const auto& pc : p.pluginConfig) CHECK(pc.argsJson == "{}");
    CHECK(p.pluginConfig[0].where.text() == "t.yaml:7:5");  // the entry when there is no args key
    CHECK(p.pluginConfig[1].where.text() == "t.yaml:9:5");  // the args key
    CHECK(p.configFor("A") == &p.pluginConfig[1]);
    CHECK(p.configFor("Z") == nullptr);
}

TEST_CASE("argLocations cover every node under args, relative to args, in file order") {
    Profile p = profile(R"(  - name: LowNodeLoad
    args:
      kind: LowNodeLoadArgs
      nodePools:
      - name: a
        highThresholds:
          cpu: 70
      - name: b
      paused: true
)");
    const PluginConfig& pc = p.pluginConfig.at(0);
    std::vector<std::string> described;
    for (const auto& [path, where] : pc.argLocations) described.push_back(path + "@" + where.text());
    CHECK(described == std::vector<std::string>{
                           "nodePools@t.yaml:10:7",
                           "nodePools[0]@t.yaml:11:9",
                           "nodePools[0].name@t.yaml:11:15",
                           "nodePools[0].highThresholds@t.yaml:12:9",
                           "nodePools[0].highThresholds.cpu@t.yaml:13:16",
                           "nodePools[1]@t.yaml:14:9",
                           "nodePools[1].name@t.yaml:14:15",
                           "paused@t.yaml:15:15",
                       });

    SECTION("locate: exact, then the longest whole-segment prefix, then the args node") {
        CHECK(pc.locate("nodePools[0].highThresholds.cpu").text() == "t.yaml:13:16");
        CHECK(pc.locate("nodePools[0].highThresholds.memory").text() == "t.yaml:12:9");
        CHECK(pc.locate("nodePools[1].lowThresholds.cpu").text() == "t.yaml:14:9");
        CHECK(pc.locate("pausedFor").text() == "t.yaml:8:5");  // "paused" is not a prefix of it
        CHECK(pc.locate("").text() == "t.yaml:8:5");
        CHECK(pc.locate("evictableNamespaces").text() == "t.yaml:8:5");
    }
}

TEST_CASE("apiVersion and kind inside args are optional") {
    Profile p = profile("  - name: X\n    args:\n      a: 1\n");
    CHECK(p.pluginConfig.at(0).argsJson == R"({"a":1})");
}

TEST_CASE("args kind and apiVersion must be strings naming this plugin") {
    CHECK(kd::core::test::text_errors(kHeader + "profiles:\n- name: p\n  plugins: {}\n  pluginConfig:\n  - name: X\n"
                                                "    args:\n      apiVersion: 2\n      kind: [XArgs]\n") ==
          std::vector<std::string>{
              "test.yaml: invalid DeschedulerConfiguration, 2 problems:",
              "test.yaml:9:19: profiles[0].pluginConfig[0].args.apiVersion: must be \"descheduler/v1alpha2\", got a "
              "number",
              "test.yaml:10:7: profiles[0].pluginConfig[0].args.kind: must be \"XArgs\" for plugin \"X\", got a list",
          });
}

TEST_CASE("pluginConfig entries need a name") {
    CHECK(
        kd::core::test::text_errors(kHeader + "profiles:\n- name: p\n  plugins: {}\n  pluginConfig:\n  - args: {}\n") ==
        std::vector<std::string>{"test.yaml: invalid DeschedulerConfiguration, 1 problem:",
                                 "test.yaml:7:5: profiles[0].pluginConfig[0].name: required: the plugin this config "
                                 "is for"});
}
