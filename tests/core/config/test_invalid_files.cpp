// Invalid configuration files: each must fail with exactly these problems, at these positions.
#include "support.hpp"

using kd::core::test::file_errors;
using kd::core::test::kHeader;
using kd::core::test::text_errors;
using Lines = std::vector<std::string>;

namespace {

std::string heading(const std::string& file, int problems) {
    return file + ": invalid DeschedulerConfiguration, " + std::to_string(problems) +
           (problems == 1 ? " problem:" : " problems:");
}

}  // namespace

TEST_CASE("unknown top-level key") {
    const std::string f = "invalid/unknown-top-level-key.yaml";
    CHECK(file_errors(f) ==
          Lines{heading(f, 1),
                f + ":4:1: dryrun: unknown field (known fields: apiVersion, kind, leaderElection, clientConnection, "
                    "enableProfiling, enableContentionProfiling, healthzBindAddress, metricsBindAddress, "
                    "deschedulingInterval, dryRun, profiles, nodeSelector, maxNoOfPodsToEvictPerNode, "
                    "maxNoOfPodsToEvictPerNamespace, maxNoOfPodsToEvictTotal)"});
}

TEST_CASE("unknown key inside a profile") {
    const std::string f = "invalid/unknown-profile-key.yaml";
    CHECK(file_errors(f) == Lines{heading(f, 1), f + ":6:3: profiles[0].pluginConfigs: unknown field (known fields: "
                                                     "name, nodeSelector, plugins, pluginConfig)"});
}

TEST_CASE("preEvictionFilter is not an extension point, and the message says where it belongs") {
    const std::string f = "invalid/pre-eviction-filter.yaml";
    CHECK(file_errors(f) ==
          Lines{heading(f, 1), f + ":6:5: profiles[0].plugins.preEvictionFilter: unknown field: there is no "
                                   "preEvictionFilter extension point; PreEvictionFilter belongs to filter plugins, "
                                   "so enable the plugin under plugins.filter (known fields: deschedule, balance, "
                                   "evict, filter)"});
}

TEST_CASE("duplicate keys, in the schema and inside args") {
    const std::string f = "invalid/duplicate-key.yaml";
    CHECK(file_errors(f) == Lines{heading(f, 2),
                                  f + ":11:7: profiles[0].pluginConfig[0].args.useDeviationThresholds: duplicate key "
                                      "(first at line 10, column 7)",
                                  f + ":12:1: dryRun: duplicate key (first at line 3, column 1)"});
}

TEST_CASE("wrong types") {
    const std::string f = "invalid/wrong-type.yaml";
    CHECK(file_errors(f) == Lines{heading(f, 5), f + ":3:9: dryRun: must be true or false, got a string",
                                  f + ":4:26: maxNoOfPodsToEvictTotal: out of range (0 to 4294967295)",
                                  f + ":6:10: clientConnection.burst: must be an integer, got 1.5",
                                  f + ":8:9: profiles[0].name: must be a string, got a number",
                                  f + ":10:5: profiles[0].plugins.evict: must be an object, got a list"});
}

TEST_CASE("bad durations") {
    const std::string f = "invalid/bad-duration.yaml";
    CHECK(file_errors(f) ==
          Lines{heading(f, 2),
                f + ":3:23: deschedulingInterval: invalid duration \"10 seconds\" (use e.g. \"500ms\", \"10s\", "
                    "\"1m30s\")",
                f + ":5:18: leaderElection.leaseDuration: must be a duration string such as \"10s\" or \"5m\", got a "
                    "number"});
    const std::string n = "invalid/negative-interval.yaml";
    CHECK(file_errors(n) == Lines{heading(n, 1), n + ":3:23: deschedulingInterval: must not be negative (0 runs one "
                                                     "descheduling cycle and stops)"});
}

TEST_CASE("bad bind addresses") {
    const std::string f = "invalid/bad-address.yaml";
    CHECK(file_errors(f) == Lines{heading(f, 2),
                                  f + ":3:21: healthzBindAddress: invalid address \"localhost:10251\": host "
                                      "\"localhost\" must be an IP address (e.g. 0.0.0.0 or ::)",
                                  f + ":4:21: metricsBindAddress: invalid address \"0.0.0.0:70000\": port \"70000\" "
                                      "must be a number between 1 and 65535"});
}

TEST_CASE("duplicate profile names") {
    const std::string f = "invalid/duplicate-profile-names.yaml";
    CHECK(file_errors(f) ==
          Lines{heading(f, 1), f + ":8:9: profiles[2].name: duplicate profile name \"balance\" (also profiles[0])"});
}

TEST_CASE("a missing or empty name among several profiles") {
    const std::string f = "invalid/empty-name-among-several.yaml";
    CHECK(file_errors(f) ==
          Lines{heading(f, 2),
                f + ":6:3: profiles[1].name: required: every profile needs a name when there are several",
                f + ":7:9: profiles[2].name: required: every profile needs a name when there are several"});
}

TEST_CASE("a profile without plugins") {
    const std::string f = "invalid/missing-plugins.yaml";
    CHECK(file_errors(f) == Lines{heading(f, 1), f + ":4:3: profiles[0].plugins: required: a profile must list its "
                                                     "plugins (\"plugins: {}\" keeps the defaults)"});
    // YAML null is Go's nil pointer: still missing.
    CHECK(text_errors(kHeader + "profiles:\n- name: p\n  plugins:\n") ==
          Lines{heading("test.yaml", 1),
                "test.yaml:5:3: profiles[0].plugins: required: a profile must list its "
                "plugins (\"plugins: {}\" keeps the defaults)"});
}

TEST_CASE("repeated pluginConfig") {
    const std::string f = "invalid/repeated-plugin-config.yaml";
    CHECK(file_errors(f) ==
          Lines{heading(f, 1),
                f + ":9:11: profiles[0].pluginConfig[2].name: repeated config for plugin \"LowNodeLoad\""});
}

TEST_CASE("args with the wrong apiVersion or kind, or not a mapping") {
    const std::string f = "invalid/wrong-args-type.yaml";
    CHECK(file_errors(f) == Lines{heading(f, 3),
                                  f + ":9:19: profiles[0].pluginConfig[0].args.apiVersion: must be "
                                      "\"descheduler/v1alpha2\", got \"descheduler/v1alpha1\"",
                                  f + ":10:13: profiles[0].pluginConfig[0].args.kind: must be \"LowNodeLoadArgs\" for "
                                      "plugin \"LowNodeLoad\", got \"MigrationControllerArgs\"",
                                  f + ":12:5: profiles[0].pluginConfig[1].args: must be a mapping, got a list"});
}

TEST_CASE("invalid node selectors, global and per profile") {
    const std::string f = "invalid/bad-node-selector.yaml";
    CHECK(file_errors(f) ==
          Lines{heading(f, 2),
                f + ":6:15: nodeSelector.matchExpressions[0].operator: unknown operator \"Equals\" (use In, NotIn, "
                    "Exists or DoesNotExist)",
                f + ":13:19: profiles[0].nodeSelector.matchLabels.bad key!: invalid label key: name \"bad key!\" must "
                    "be 1-63 characters of [A-Za-z0-9-_.], starting and ending with a letter or digit"});
}

TEST_CASE("wrong apiVersion or kind stops before field checks") {
    const std::string f = "invalid/wrong-api-version.yaml";
    CHECK(file_errors(f) == Lines{heading(f, 1), f + ":1:13: apiVersion: unsupported apiVersion "
                                                     "\"descheduler/v1alpha1\"; kdesched reads descheduler/v1alpha2"});
    CHECK(text_errors("apiVersion: descheduler/v1alpha2\nkind: Pod\nbogus: 1\n") ==
          Lines{heading("test.yaml", 1),
                "test.yaml:2:7: kind: must be \"DeschedulerConfiguration\" (Koordinator's) "
                "or \"DeschedulerPolicy\" (kubernetes-sigs/descheduler's), got \"Pod\""});
    CHECK(text_errors("- a\n- b\n") ==
          Lines{heading("test.yaml", 1),
                "test.yaml:1:1: the file must hold a DeschedulerConfiguration mapping, got a list"});
}

TEST_CASE("YAML syntax errors carry yaml-cpp's message and position") {
    CHECK(file_errors("invalid/yaml-syntax-error.yaml") ==
          Lines{"invalid/yaml-syntax-error.yaml:5:40: invalid YAML: illegal flow end"});
    CHECK(text_errors("a: 1\n b: 2\n") == Lines{"test.yaml:2:3: invalid YAML: illegal map value"});
}

TEST_CASE("empty files and several documents are refused") {
    CHECK(text_errors("") == Lines{"test.yaml: the file is empty; expected a DeschedulerConfiguration"});
    CHECK(text_errors("# nothing\n---\n") ==
          Lines{"test.yaml: the file is empty; expected a DeschedulerConfiguration"});
    CHECK(text_errors(kHeader + "---\n" + kHeader) ==
          Lines{"test.yaml:4:1: the file holds 2 YAML documents; a configuration file holds exactly one "
                "DeschedulerConfiguration"});
}

TEST_CASE("an unreadable file names the path and the OS reason") {
    CHECK(file_errors("invalid/does-not-exist.yaml") ==
          Lines{"invalid/does-not-exist.yaml: cannot read the configuration file: No such file or directory"});
    CHECK(file_errors("invalid") ==
          Lines{"invalid: the configuration file is a directory (give the path of a regular file or a pipe)"});
}

TEST_CASE("leader election settings that client-go would reject") {
    CHECK(
        text_errors(kHeader + "leaderElection:\n  leaseDuration: 5s\n  retryPeriod: 9s\n  resourceLock: endpoints\n") ==
        Lines{heading("test.yaml", 3),
              // renewDeadline is not in the file: reported at its parent.
              "test.yaml:3:1: leaderElection.renewDeadline: must be greater than 1.2 × retryPeriod (10s vs "
              "retryPeriod 9s)",
              "test.yaml:4:18: leaderElection.leaseDuration: must be greater than renewDeadline (5s <= 10s)",
              "test.yaml:6:17: leaderElection.resourceLock: unsupported lock type \"endpoints\" (only \"leases\" is "
              "supported)"});
    CHECK(text_errors(kHeader + "leaderElection:\n  retryPeriod: -1s\nclientConnection:\n  burst: -1\n") ==
          Lines{heading("test.yaml", 2), "test.yaml:4:16: leaderElection.retryPeriod: must be greater than zero",
                "test.yaml:6:10: clientConnection.burst: must not be negative"});
    // Nothing is checked when leader election is off.
    CHECK_NOTHROW(kd::core::parse_configuration(
        kHeader + "leaderElection:\n  leaderElect: false\n  leaseDuration: 1s\n  resourceLock: x\n", "t"));
}

TEST_CASE("every problem of every profile is reported at once, sorted by position") {
    const std::string f = "invalid/several-profiles-several-errors.yaml";
    CHECK(file_errors(f) ==
          Lines{heading(f, 7),
                f + ":3:23: deschedulingInterval: invalid duration \"soon\" (use e.g. \"500ms\", \"10s\", \"1m30s\")",
                f + ":10:9: profiles[0].plugins.balance.enabled[1].nmae: unknown field (known fields: name)",
                f + ":14:13: profiles[0].pluginConfig[0].args.kind: must be \"LowNodeLoadArgs\" for plugin "
                    "\"LowNodeLoad\", got \"LowNodeLoadArg\"",
                f + ":15:3: profiles[1].plugins: required: a profile must list its plugins (\"plugins: {}\" keeps "
                    "the defaults)",
                f + ":18:11: profiles[1].pluginConfig[1].name: repeated config for plugin \"MigrationController\"",
                f + ":19:9: profiles[2].name: duplicate profile name \"first\" (also profiles[0])",
                f + ":22:16: profiles[2].plugins.filter.enabled: must be a list, got a string"});
}

TEST_CASE("more profiles, or more plugins in one list, than the limits are refused naming the limit") {
    std::string profiles = kHeader + "profiles:\n";
    for (int i = 0; i < 65; ++i) profiles += "- name: p" + std::to_string(i) + "\n";
    CHECK(text_errors(profiles) == Lines{heading("test.yaml", 1),
                                         "test.yaml:3:1: profiles: 65 profiles, more than 64 (kMaxProfiles, the limit "
                                         "on one file): run several kdesched instances instead"});
    std::string plugins = kHeader + "profiles:\n- name: p\n  plugins:\n    balance:\n      enabled:\n";
    for (int i = 0; i < 65; ++i) plugins += "      - name: P" + std::to_string(i) + "\n";
    CHECK(text_errors(plugins) == Lines{heading("test.yaml", 1),
                                        "test.yaml:7:7: profiles[0].plugins.balance.enabled: 65 plugins listed, more "
                                        "than 64 (kMaxPluginsPerList, the limit on one list)"});
    // 64 of each is fine.
    profiles = kHeader + "profiles:\n";
    for (int i = 0; i < 64; ++i) profiles += "- name: p" + std::to_string(i) + "\n  plugins: {}\n";
    CHECK(kd::core::parse_configuration(profiles, "test.yaml").profiles.size() == 64);
}
