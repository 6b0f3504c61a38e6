// How YAML scalars become JSON: Kubernetes' reading (go-yaml v2) types plain scalars and keeps
// quoted and block scalars as strings. Observed through args, which are passed on as JSON.
#include "support.hpp"

using namespace kd::core;
using kd::core::test::kHeader;

namespace {

std::string args_json(const std::string& args_body) {
    DeschedulerConfiguration cfg = parse_configuration(
        kHeader + "profiles:\n- name: p\n  plugins: {}\n  pluginConfig:\n  - name: X\n    args:\n" + args_body,
        "t.yaml");
    return cfg.profiles.at(0).pluginConfig.at(0).argsJson;
}

}  // namespace

TEST_CASE("plain scalars are typed, quoted ones stay strings") {
    struct Case {
        std::string yaml, json;
    };
    auto c = GENERATE(values<Case>({
        {"10", "10"},
        {"\"10\"", "\"10\""},
        {"'10'", "\"10\""},
        {"-3", "-3"},
        {"1_000", "1000"},
        {"0x1F", "31"},
        {"0o17", "15"},
        {"017", "15"},
        {"0b101", "5"},
        {"18446744073709551615", "18446744073709551615"},
        {"1.5", "1.5"},
        {"1e3", "1000.0"},
        {"08", "8.0"},
        {"true", "true"},
        {"yes", "true"},
        {"On", "true"},
        {"n", "false"},
        {"\"no\"", "\"no\""},
        {"~", "null"},
        {"null", "null"},
        {"", "null"},
        {"10s", "\"10s\""},
        {"_1", "\"_1\""},
        {"!!str 12", "\"12\""},
        {"!!int \"12\"", "12"},  // an explicit tag wins over quoting
        {"|\n        two\n        lines", "\"two\\nlines\\n\""},
        {"[1, \"a\", {b: c}]", "[1,\"a\",{\"b\":\"c\"}]"},
    }));
    CAPTURE(c.yaml);
    CHECK(args_json("      v: " + c.yaml + "\n") == "{\"v\":" + c.json + "}");
}

TEST_CASE("keys stay strings as written, and aliases are expanded") {
    CHECK(args_json("      1: a\n      on: b\n") == R"({"1":"a","on":"b"})");
    CHECK(args_json("      a: &x {k: 1}\n      b: *x\n") == R"({"a":{"k":1},"b":{"k":1}})");
}

TEST_CASE("scalars JSON cannot hold, and YAML features kdesched does not support, are reported") {
    auto errors = kd::core::test::text_errors(kHeader +
                                              "profiles:\n- name: p\n  plugins: {}\n  pluginConfig:\n"
                                              "  - name: X\n    args:\n      a: .inf\n      b: !!int x\n"
                                              "      c: !custom y\n      ? [k]\n      : v\n"
                                              "      d:\n        <<: {e: 1}\n");
    CHECK(errors == std::vector<std::string>{
                        "test.yaml: invalid DeschedulerConfiguration, 5 problems:",
                        "test.yaml:9:10: profiles[0].pluginConfig[0].args.a: \".inf\": infinite and NaN numbers "
                        "cannot be represented",
                        "test.yaml:10:10: profiles[0].pluginConfig[0].args.b: \"x\" is not a valid !!int value",
                        "test.yaml:11:10: profiles[0].pluginConfig[0].args.c: unsupported YAML tag \"!custom\"",
                        "test.yaml:12:9: profiles[0].pluginConfig[0].args: mapping keys must be plain strings",
                        "test.yaml:15:9: profiles[0].pluginConfig[0].args.d.<<: YAML merge keys (<<) are not "
                        "supported; write the fields out",
                    });
}

TEST_CASE("YAML 1.1 booleans decode into boolean fields") {
    DeschedulerConfiguration cfg = parse_configuration(kHeader + "dryRun: yes\nenableProfiling: off\n", "t.yaml");
    CHECK(cfg.dryRun);
    CHECK_FALSE(cfg.enableProfiling);
}
