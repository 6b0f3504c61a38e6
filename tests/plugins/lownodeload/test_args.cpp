// LowNodeLoadArgs: decoding, defaults (with the anomalyCondition quirk), pool inheritance and
// conversion, validation messages with field paths, and koord's start-up detectorCacheTimeout
// adjustment.
#include "args.hpp"
#include "pools.hpp"
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <vector>

using namespace lnl_test;
using kd::plugins::lownodeload::build_pools;
using kd::plugins::lownodeload::kDefaultNodePoolName;
using kd::plugins::lownodeload::ResourceThresholds;
using kd::plugins::lownodeload::ResourceWeights;

namespace {

LowNodeLoadArgs parse(const std::string& json) {
    return kd::parse<LowNodeLoadArgs>(json);
}

std::string parse_error(const std::string& json) {
    try {
        parse(json);
    } catch (const kd::DecodeError& e) {
        return e.what();
    }
    return "";
}

kd::Duration minutes(int m) {
    return kd::Duration(std::chrono::minutes(m));
}

}  // namespace

TEST_CASE("args: defaults of an empty args object", "[args]") {
    auto a = parse("{}");
    CHECK(a.paused == false);
    CHECK(a.dryRun == false);
    CHECK(a.numberOfNodes == 0);
    CHECK(a.nodeMetricExpirationSeconds == 180);
    CHECK(a.nodeFit == true);
    CHECK(a.useDeviationThresholds == false);
    CHECK(a.detectorCacheTimeout == minutes(5));
    REQUIRE(a.anomalyCondition);
    CHECK(a.anomalyCondition->timeout == minutes(1));
    CHECK(a.anomalyCondition->consecutiveAbnormalities == 5);
    CHECK(a.anomalyCondition->consecutiveNormalities == 3);
    CHECK(a.resourceWeights == ResourceWeights{{"cpu", 1}, {"memory", 1}});
    CHECK_FALSE(a.evictableNamespaces);
    CHECK_FALSE(a.nodeSelector);
    CHECK(a.podSelectors.empty());
    CHECK(a.nodePools.empty());
    CHECK_FALSE(a.lowThresholds);
    CHECK_FALSE(a.highThresholds);
}

TEST_CASE("args: explicit values are kept", "[args]") {
    auto a = parse(R"({"paused": true, "dryRun": true, "numberOfNodes": 3, "nodeMetricExpirationSeconds": 60,
                       "nodeFit": false, "useDeviationThresholds": true, "detectorCacheTimeout": "30s",
                       "evictableNamespaces": {"exclude": ["kube-system"]},
                       "podSelectors": [{"name": "web", "selector": {"matchLabels": {"app": "web"}}}]})");
    CHECK(a.paused == true);
    CHECK(a.dryRun == true);
    CHECK(a.numberOfNodes == 3);
    CHECK(a.nodeMetricExpirationSeconds == 60);
    CHECK(a.nodeFit == false);
    CHECK(a.useDeviationThresholds == true);
    CHECK(a.detectorCacheTimeout == kd::Duration(std::chrono::seconds(30)));
    REQUIRE(a.evictableNamespaces);
    CHECK(a.evictableNamespaces->exclude == std::vector<std::string>{"kube-system"});
    REQUIRE(a.podSelectors.size() == 1);
    CHECK(a.podSelectors[0].name == "web");
}

TEST_CASE("args: resourceWeights defaulting", "[args]") {
    auto a = parse(
        R"({"lowThresholds": {"cpu": 10, "pods": 5}, "highThresholds": {"cpu": 20, "pods": 10, "nvidia.com/gpu": 50},
                       "prodLowThresholds": {"ephemeral-storage": 5}, "prodHighThresholds": {"ephemeral-storage": 6},
                       "resourceWeights": {"cpu": 0, "memory": 3, "hugepages-2Mi": 7, "pods": -2}})");
    // cpu/memory and every low/high resource get 1 unless positive; prod-only resources are not added;
    // other user weights are kept.
    CHECK(a.resourceWeights ==
          ResourceWeights{{"cpu", 1}, {"memory", 3}, {"hugepages-2Mi", 7}, {"pods", 1}, {"nvidia.com/gpu", 1}});
}

TEST_CASE("args: anomalyCondition defaulting is an if/else-if chain [quirk]", "[args]") {
    struct Case {
        const char* json;
        std::optional<kd::Duration> timeout;
        uint32_t abnormalities, normalities;
    };
    const std::vector<Case> cases = {
        {R"({})", minutes(1), 5, 3},
        {R"({"anomalyCondition": {"consecutiveAbnormalities": 2}})", std::nullopt, 2, 3},
        {R"({"anomalyCondition": {"consecutiveNormalities": 4}})", std::nullopt, 5, 4},
        {R"({"anomalyCondition": {"consecutiveAbnormalities": 2, "consecutiveNormalities": 7, "timeout": "30s"}})",
         kd::Duration(std::chrono::seconds(30)), 2, 7},
    };
    for (const auto& c : cases) {
        INFO(c.json);
        auto a = parse(c.json);
        REQUIRE(a.anomalyCondition);
        CHECK(a.anomalyCondition->timeout == c.timeout);
        CHECK(a.anomalyCondition->consecutiveAbnormalities == c.abnormalities);
        CHECK(a.anomalyCondition->consecutiveNormalities == c.normalities);
    }
    // Both counts 0 (or an empty object): abnormalities is defaulted, normalities is not → invalid.
    const std::string want =
        "anomalyCondition.consecutiveNormalities: must be > 0 (got 0; it is not defaulted when "
        "consecutiveAbnormalities is 0 or omitted, set it explicitly)";
    CHECK(parse_error(R"({"anomalyCondition": {}})") == want);
    CHECK(parse_error(R"({"anomalyCondition": {"consecutiveAbnormalities": 0, "consecutiveNormalities": 0}})") == want);
}

TEST_CASE("args: pools inherit absent maps and the anomalyCondition from the top level", "[args]") {
    auto a = parse(R"({
        "lowThresholds": {"cpu": 30}, "highThresholds": {"cpu": 70},
        "prodLowThresholds": {"cpu": 20}, "prodHighThresholds": {"cpu": 60},
        "resourceWeights": {"cpu": 2},
        "anomalyCondition": {"consecutiveAbnormalities": 4, "consecutiveNormalities": 6, "timeout": "2m"},
        "nodePools": [
          {"name": "a", "lowThresholds": {"cpu": 10}},
          {"name": "b", "highThresholds": {}, "resourceWeights": {"memory": 9},
           "anomalyCondition": {"consecutiveNormalities": 1}}
        ]})");
    REQUIRE(a.nodePools.size() == 2);
    const auto& pa = a.nodePools[0];
    CHECK(pa.lowThresholds == ResourceThresholds{{"cpu", 10}});
    CHECK(pa.highThresholds == ResourceThresholds{{"cpu", 70}});
    CHECK(pa.prodLowThresholds == ResourceThresholds{{"cpu", 20}});
    CHECK(pa.prodHighThresholds == ResourceThresholds{{"cpu", 60}});
    CHECK(pa.resourceWeights == ResourceWeights{{"cpu", 2}, {"memory", 1}});
    REQUIRE(pa.anomalyCondition);
    CHECK(pa.anomalyCondition->consecutiveAbnormalities == 4);
    CHECK(pa.anomalyCondition->consecutiveNormalities == 6);
    CHECK(pa.anomalyCondition->timeout == minutes(2));

    const auto& pb = a.nodePools[1];
    CHECK(pb.highThresholds == ResourceThresholds{});  // given (empty): not inherited
    CHECK(pb.lowThresholds == ResourceThresholds{{"cpu", 30}});
    CHECK(pb.resourceWeights == ResourceWeights{{"memory", 9}});  // own map: no cpu/memory defaults
    REQUIRE(pb.anomalyCondition);
    CHECK(pb.anomalyCondition->consecutiveAbnormalities == 4);  // zero count filled from the top
    CHECK(pb.anomalyCondition->consecutiveNormalities == 1);
    CHECK_FALSE(pb.anomalyCondition->timeout);  // the timeout is not inherited (→ 60 s in the detector)
}

TEST_CASE("args: the top level becomes the prepended __default_node_pool__", "[args]") {
    auto a = parse(R"({"nodeSelector": {"matchLabels": {"pool": "x"}}, "useDeviationThresholds": true,
                       "lowThresholds": {"cpu": 10}, "highThresholds": {"cpu": 20},
                       "nodePools": [{"name": "p1"}, {"name": "p2", "nodeSelector": {}}]})");
    auto pools = build_pools(a);
    REQUIRE(pools.size() == 3);
    CHECK(pools[0].name == kDefaultNodePoolName);
    REQUIRE(pools[0].selector);
    CHECK(pools[0].selector->matchLabels.at("pool") == "x");
    CHECK(pools[0].deviation);
    CHECK(pools[1].name == "p1");
    CHECK_FALSE(pools[1].selector);   // nil selector: every node
    CHECK_FALSE(pools[1].deviation);  // a plain bool in pools: not inherited
    CHECK(pools[1].thresholds.high.at("cpu") == 20);
    CHECK(pools[2].name == "p2");
    CHECK(pools[2].selector);  // empty but present
    // Without any thresholds the default pool still exists (memory at 100 %).
    auto empty = build_pools(parse("{}"));
    REQUIRE(empty.size() == 1);
    CHECK(empty[0].thresholds.low == ResourceThresholds{{"memory", 100}});
    // consecutiveAbnormalities 1 bypasses the detector; the default condition keeps it.
    CHECK_FALSE(build_pools(parse(R"({"anomalyCondition": {"consecutiveAbnormalities": 1}})"))[0].anomaly);
    auto gated = build_pools(parse("{}"))[0].anomaly;
    REQUIRE(gated);
    CHECK(gated->consecutive_abnormalities == 5);
    CHECK(gated->consecutive_normalities == 3);
    CHECK(gated->timeout_ms == 60'000);
}

TEST_CASE("args: validation messages with field paths", "[args]") {
    struct Case {
        const char* name;
        std::string json;
        std::string error;
    };
    const std::vector<Case> cases = {
        {"numberOfNodes", R"({"numberOfNodes": -1})", "numberOfNodes: must be >= 0 (got -1)"},
        {"expiration zero", R"({"nodeMetricExpirationSeconds": 0})",
         "nodeMetricExpirationSeconds: must be > 0 (got 0)"},
        {"namespaces", R"({"evictableNamespaces": {"include": ["a"], "exclude": ["b"]}})",
         "evictableNamespaces: only one of Include/Exclude namespaces can be set"},
        {"negative threshold", R"({"lowThresholds": {"cpu": -5}})", "lowThresholds.cpu: must be >= 0 (got -5)"},
        {"low above high", R"({"lowThresholds": {"cpu": 55}, "highThresholds": {"cpu": 40}})",
         "highThresholds.cpu: must be >= lowThresholds.cpu (got 40 < 55)"},
        {"pool low above high",
         R"({"nodePools": [{"name": "a"}, {"name": "b", "lowThresholds": {"cpu": 55}, "highThresholds": {"cpu": 40}}]})",
         "nodePools[1].highThresholds.cpu: must be >= lowThresholds.cpu (got 40 < 55)"},
        {"pool low above inherited high",
         R"({"highThresholds": {"cpu": 70}, "nodePools": [{"name": "a", "lowThresholds": {"cpu": 80.5}}]})",
         "nodePools[0].lowThresholds.cpu: must be <= highThresholds.cpu (got 80.5 > 70; highThresholds inherited "
         "from the top level)"},
        {"pool high below inherited low",
         R"({"lowThresholds": {"cpu": 50}, "nodePools": [{"name": "a", "highThresholds": {"cpu": 40}}]})",
         "nodePools[0].highThresholds.cpu: must be >= lowThresholds.cpu (got 40 < 50; lowThresholds inherited from "
         "the top level)"},
        {"prodHigh above high", R"({"highThresholds": {"cpu": 80}, "prodHighThresholds": {"cpu": 90}})",
         "highThresholds.cpu: must be >= prodHighThresholds.cpu (got 80 < 90)"},
        {"prodLow above prodHigh", R"({"prodLowThresholds": {"cpu": 20}, "prodHighThresholds": {"cpu": 10}})",
         "prodHighThresholds.cpu: must be >= prodLowThresholds.cpu (got 10 < 20)"},
        {"pool anomaly", R"({"anomalyCondition": {"consecutiveAbnormalities": 2, "consecutiveNormalities": 2},
                             "nodePools": [{"name": "a", "anomalyCondition": {"timeout": "1m"}}]})",
         ""},
        {"node selector", R"({"nodeSelector": {"matchExpressions": [{"key": "a", "operator": "Has"}]}})",
         "nodeSelector.matchExpressions[0].operator: unknown operator \"Has\" (use In, NotIn, Exists or "
         "DoesNotExist)"},
        {"pool selector", R"({"nodePools": [{"name": "a", "nodeSelector": {"matchLabels": {"bad key!": "x"}}}]})",
         "nodePools[0].nodeSelector.matchLabels.bad key!: invalid label key: name \"bad key!\" must be 1-63 "
         "characters of [A-Za-z0-9-_.], starting and ending with a letter or digit"},
        {"pod selector",
         R"({"podSelectors": [{"name": "x", "selector": {"matchExpressions": [{"key": "a", "operator": "In"}]}}]})",
         "podSelectors[0].selector.matchExpressions[0].values: must be non-empty when operator is In"},
        {"unknown field", R"({"podPickr": {}})", ""},  // checked by prefix below
        {"wrong type", R"({"numberOfNodes": "3"})", "numberOfNodes: must be an integer, got a string"},
        {"negative count", R"({"anomalyCondition": {"consecutiveAbnormalities": -1}})",
         "anomalyCondition.consecutiveAbnormalities: out of range (0 to 4294967295)"},
        {"bad duration", R"({"detectorCacheTimeout": "5 minutes"})",
         "detectorCacheTimeout: invalid duration \"5 minutes\" (use e.g. \"500ms\", \"10s\", \"1m30s\")"},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            std::string err = parse_error(c.json);
            if (std::string(c.name) == "unknown field") {
                CHECK(err.rfind("podPickr: unknown field (known fields: paused, dryRun, ", 0) == 0);
            } else {
                CHECK(err == c.error);
            }
        }
    }
}

TEST_CASE("args: every problem is reported at once", "[args]") {
    std::string err = parse_error(R"({"numberOfNodes": -2, "lowThresholds": {"cpu": 90, "memory": -1},
                                      "highThresholds": {"cpu": 80},
                                      "nodePools": [{"name": "a", "prodLowThresholds": {"cpu": 5},
                                                     "prodHighThresholds": {"cpu": 4}}]})");
    CHECK(err ==
          "numberOfNodes: must be >= 0 (got -2)\n"
          "lowThresholds.memory: must be >= 0 (got -1)\n"
          "highThresholds.cpu: must be >= lowThresholds.cpu (got 80 < 90)\n"
          "nodePools[0].prodHighThresholds.cpu: must be >= prodLowThresholds.cpu (got 4 < 5)");
}

TEST_CASE("args: creation through the C descriptor reports the field path", "[args]") {
    CHECK(create_error(R"({"nodePools": [{"name": "a"}, {"name": "b", "lowThresholds": {"cpu": 55},
                                          "highThresholds": {"cpu": 40}}]})") ==
          "nodePools[1].highThresholds.cpu: must be >= lowThresholds.cpu (got 40 < 55)");
    CHECK(create_error(kArgs).empty());
}

TEST_CASE("args: detectorCacheTimeout is raised to the descheduling interval [quirk]", "[args]") {
    CHECK(make_plugin("{}", 0).node_detectors().ttl_ms() == 5 * kMinute);
    CHECK(make_plugin("{}", 10 * kSecond).node_detectors().ttl_ms() == 5 * kMinute);
    CHECK(make_plugin("{}", 10 * kMinute).node_detectors().ttl_ms() == 10 * kMinute);
    CHECK(make_plugin("{}", 10 * kMinute).prod_detectors().ttl_ms() == 10 * kMinute);
    CHECK(make_plugin(R"({"detectorCacheTimeout": "1s"})", 30 * kSecond).node_detectors().ttl_ms() == 30 * kSecond);
    CHECK(make_plugin(R"({"detectorCacheTimeout": "1h"})", 30 * kSecond).node_detectors().ttl_ms() == 60 * kMinute);
}
