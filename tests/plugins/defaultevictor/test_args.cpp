// DefaultEvictorArgs: strict decoding, validation with field paths, unsupported fields rejected at
// create, and the protections resolved from the deprecated flags or podProtections.
#include "args.hpp"
#include "create_error.hpp"
#include "default_evictor.hpp"

#include <kdesched/testing.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using kd::plugins::defaultevictor::DefaultEvictor;
using kd::plugins::defaultevictor::DefaultEvictorArgs;
using kd::plugins::defaultevictor::effective_protections;

TEST_CASE("args: defaults", "[args]") {
    auto a = kd::parse<DefaultEvictorArgs>("{}");
    CHECK(a.nodeSelector.empty());
    CHECK_FALSE(a.evictLocalStoragePods);
    CHECK_FALSE(a.evictDaemonSetPods);
    CHECK_FALSE(a.evictSystemCriticalPods);
    CHECK_FALSE(a.ignorePvcPods);
    CHECK_FALSE(a.evictFailedBarePods);
    CHECK_FALSE(a.labelSelector);
    CHECK_FALSE(a.priorityThreshold);
    CHECK_FALSE(a.nodeFit);
    CHECK(a.minReplicas == 0);
    CHECK_FALSE(a.minPodAge);
    CHECK_FALSE(a.ignorePodsWithoutPDB);
    CHECK_FALSE(a.podProtections.in_use());
    CHECK_FALSE(a.namespaceLabelSelector);
    auto p = effective_protections(a);
    CHECK(p.localStorage);
    CHECK(p.daemonSet);
    CHECK(p.systemCritical);
    CHECK(p.failedBarePods);
    CHECK_FALSE(p.pvc);
}

TEST_CASE("args: every field decodes", "[args]") {
    auto a = kd::parse<DefaultEvictorArgs>(R"({
        "nodeSelector": "pool=batch", "evictLocalStoragePods": true, "evictDaemonSetPods": true,
        "evictSystemCriticalPods": true, "ignorePvcPods": true, "evictFailedBarePods": true,
        "labelSelector": {"matchLabels": {"app": "web"}}, "priorityThreshold": {"value": 10000},
        "nodeFit": true, "minReplicas": 2, "minPodAge": "5m", "ignorePodsWithoutPDB": false,
        "namespaceLabelSelector": null})");
    CHECK(a.nodeSelector == "pool=batch");
    CHECK(a.labelSelector->matchLabels.at("app") == "web");
    CHECK(a.priorityThreshold->value == 10000);
    CHECK(a.minReplicas == 2);
    CHECK(a.minPodAge->ms() == 300'000);
    auto p = effective_protections(a);
    CHECK_FALSE(p.localStorage);
    CHECK_FALSE(p.daemonSet);
    CHECK_FALSE(p.systemCritical);
    CHECK_FALSE(p.failedBarePods);
    CHECK(p.pvc);
}

TEST_CASE("args: podProtections replace the deprecated flags", "[args]") {
    auto a = kd::parse<DefaultEvictorArgs>(
        R"({"podProtections":{"defaultDisabled":["PodsWithLocalStorage","FailedBarePods"],)"
        R"("extraEnabled":["PodsWithPVC"]}})");
    auto p = effective_protections(a);
    CHECK_FALSE(p.localStorage);
    CHECK(p.daemonSet);
    CHECK(p.systemCritical);
    CHECK_FALSE(p.failedBarePods);
    CHECK(p.pvc);
}

// Upstream's "NewConfig_EnableOneExtra(PodsWithResourceClaims)_ReturnsDefaultPlusOne" and the
// case enabling PodsWithPVC and PodsWithResourceClaims (defaultevictor_test.go@v0.35.1).
TEST_CASE("args: PodsWithResourceClaims is an extra protection", "[args][upstream]") {
    auto one = effective_protections(
        kd::parse<DefaultEvictorArgs>(R"({"podProtections":{"extraEnabled":["PodsWithResourceClaims"]}})"));
    CHECK(one.resourceClaims);
    CHECK_FALSE(one.pvc);
    CHECK(one.localStorage);
    CHECK(one.daemonSet);
    CHECK(one.systemCritical);
    CHECK(one.failedBarePods);
    auto two = effective_protections(
        kd::parse<DefaultEvictorArgs>(R"({"podProtections":{"defaultDisabled":["DaemonSetPods","FailedBarePods"],)"
                                      R"("extraEnabled":["PodsWithPVC","PodsWithResourceClaims"]}})"));
    CHECK(two.resourceClaims);
    CHECK(two.pvc);
    CHECK(two.localStorage);
    CHECK(two.systemCritical);
    CHECK_FALSE(two.daemonSet);
    CHECK_FALSE(two.failedBarePods);
    CHECK_FALSE(effective_protections(kd::parse<DefaultEvictorArgs>("{}")).resourceClaims);
    CHECK(create_error(R"({"podProtections":{"extraEnabled":["PodsWithResourceClaims"]}})") == "");
}

// Upstream's Test_protectedPVCStorageClasses (defaultevictor_test.go@v0.35.1) and its validation
// case "Protected storage classes without storage class name" (validation_test.go@v0.35.1).
TEST_CASE("args: podProtections.config.PodsWithPVC.protectedStorageClasses", "[args][upstream]") {
    CHECK(kd::parse<DefaultEvictorArgs>("{}").podProtections.protected_storage_classes().empty());
    CHECK(kd::parse<DefaultEvictorArgs>(R"({"podProtections":{"config":{}}})")
              .podProtections.protected_storage_classes()
              .empty());
    auto a = kd::parse<DefaultEvictorArgs>(
        R"({"podProtections":{"config":{"PodsWithPVC":{"protectedStorageClasses":[{"name":"sc1"},{"name":"sc2"}]}}}})");
    CHECK(a.podProtections.protected_storage_classes() == std::vector<std::string>{"sc1", "sc2"});
    CHECK(
        create_error(
            R"({"podProtections":{"extraEnabled":["PodsWithPVC"],"config":{"PodsWithPVC":{"protectedStorageClasses":[)"
            R"({"name":"sc1"},{"name":"sc2"}]}}}})") == "");
    std::string err = create_error(
        R"({"podProtections":{"extraEnabled":["PodsWithPVC"],"config":{"PodsWithPVC":{"protectedStorageClasses":[)"
        R"({"name":""},{"name":"protected-storage-class-0"},{"name":""},{"name":"protected-storage-class-1"}]}}}})");
    CHECK_THAT(err, Catch::Matchers::Contains("protectedStorageClasses[0].name: must not be empty"));
    CHECK_THAT(err, Catch::Matchers::Contains("protectedStorageClasses[2].name: must not be empty"));
    CHECK_THAT(err, !Catch::Matchers::Contains("protectedStorageClasses[1]"));
    // A name is accepted at load time: the class is looked up in each cycle's snapshot.
    CHECK(create_error(R"({"priorityThreshold":{"name":"high"}})") == "");
}

TEST_CASE("args: errors carry field paths", "[args]") {
    struct Case {
        const char* args;
        const char* expected;
    };
    const Case cases[] = {
        {R"({"bogus":1})", "bogus: unknown field"},
        {R"({"evictLocalStoragePods":"yes"})", "evictLocalStoragePods: must be true or false, got a string"},
        {R"({"nodeFit":1})", "nodeFit: must be true or false, got a number"},
        {R"({"minReplicas":-1})", "minReplicas: out of range (0 to 18446744073709551615)"},
        {R"({"minReplicas":1.5})", "minReplicas: must be an integer"},
        {R"({"minPodAge":"ten minutes"})", "minPodAge: invalid duration \"ten minutes\""},
        {R"({"minPodAge":600})", "minPodAge: must be a duration string"},
        {R"({"nodeSelector":"pool in (a"})",
         "nodeSelector: invalid label selector \"pool in (a\": found 'end of string'"},
        {R"({"nodeSelector":"pool=a,"})",
         "nodeSelector: invalid label selector \"pool=a,\": found 'end of string', expected: identifier after ','"},
        {R"({"nodeSelector":"-bad=a"})", "nodeSelector: invalid label selector \"-bad=a\": invalid label key \"-bad\""},
        {R"({"labelSelector":{"matchExpressions":[{"key":"a","operator":"Equals","values":["x"]}]}})",
         "labelSelector.matchExpressions[0].operator: unknown operator \"Equals\""},
        {R"({"labelSelector":{"matchExpressions":[{"key":"a","operator":"In"}]}})",
         "labelSelector.matchExpressions[0].values: must be non-empty when operator is In"},
        {R"({"labelSelector":{"matchLabel":{}}})", "labelSelector.matchLabel: unknown field"},
        {R"({"priorityThreshold":{"value":100,"name":"high"}})",
         "priorityThreshold: only one of value and name can be set (got value 100 and name \"high\")"},
        {R"({"priorityThreshold":{"value":2000000001}})",
         "priorityThreshold.value: must be <= 2000000000 (system-critical priority), got 2000000001"},
        {R"({"priorityThreshold":{"value":3000000000}})",
         "priorityThreshold.value: out of range (-2147483648 to 2147483647)"},
        {R"({"priorityThreshold":{"valu":1}})", "priorityThreshold.valu: unknown field"},
        {R"({"ignorePodsWithoutPDB":true,"podProtections":{"extraEnabled":["PodsWithPVC"]}})",
         "ignorePodsWithoutPDB: cannot be combined with podProtections"},
        {R"({"namespaceLabelSelector":{"matchLabels":{"team":"a"},"matchExpressions":[{"key":"x","operator":"Near"}]}})",
         "namespaceLabelSelector.matchExpressions[0].operator: unknown operator \"Near\" (use In, NotIn, Exists or "
         "DoesNotExist)"},
        {R"({"podProtections":{"extraEnabled":["DaemonSetPods"]}})",
         "podProtections.extraEnabled[0]: unknown pod protection \"DaemonSetPods\" (extraEnabled accepts: "
         "PodsWithPVC, PodsWithoutPDB, PodsWithResourceClaims)"},
        {R"({"podProtections":{"defaultDisabled":["DaemonSetPods","DaemonSetPods"]}})",
         "podProtections.defaultDisabled[1]: duplicate entry \"DaemonSetPods\""},
        {R"({"podProtections":{"defaultDisabled":["PodsWithPVC"]}})",
         "podProtections.defaultDisabled[0]: unknown pod protection \"PodsWithPVC\" (defaultDisabled accepts: "
         "PodsWithLocalStorage, DaemonSetPods, SystemCriticalPods, FailedBarePods)"},
        {R"({"podProtections":{"config":{"PodsWithPVC":{"protectedStorageClasses":[{"name":"a"},{"nam":"b"}]}}}})",
         "podProtections.config.PodsWithPVC.protectedStorageClasses[1].nam: unknown field"},
        {R"({"podProtections":{"config":{"PodsWithPVC":{"protectedStorageClasses":[{"name":"a"},{"name":""}]}}}})",
         "podProtections.config.PodsWithPVC.protectedStorageClasses[1].name: must not be empty"},
        {R"({"podProtections":{"config":{"PodsWithPVCs":{}}}})", "podProtections.config.PodsWithPVCs: unknown field"},
        {R"({"podProtections":{"config":{"PodsWithPVC":{"protectedStorageClasses":"fast"}}}})",
         "podProtections.config.PodsWithPVC.protectedStorageClasses: must be a list"},
        {R"({"podProtections":{"extraEnabled":["PodsWithPVC"]},"evictDaemonSetPods":true})",
         "evictDaemonSetPods: cannot be combined with podProtections"},
        {R"([])", "must be an object, got a list"},
        {R"({"nodeFit":)", "invalid JSON at offset"},
    };
    for (const auto& c : cases) {
        INFO("args: " << c.args);
        std::string err = create_error(c.args);
        CHECK_THAT(err, Catch::Matchers::Contains(c.expected));
    }
}

TEST_CASE("args: namespaceLabelSelector is checked even without matchLabels (upstream does not read it then)",
          "[args]") {
    CHECK(create_error(R"({"namespaceLabelSelector":{"matchExpressions":[{"key":"x","operator":"Near"}]}})") ==
          "namespaceLabelSelector.matchExpressions[0].operator: unknown operator \"Near\" (use In, NotIn, Exists or "
          "DoesNotExist)");
}

TEST_CASE("args: every problem is reported at once", "[args]") {
    std::string err = create_error(R"({"ignorePodsWithoutPDB":true,"priorityThreshold":{"name":"x","value":1},)"
                                   R"("podProtections":{"extraEnabled":["PodsWithoutPDB"]},)"
                                   R"("namespaceLabelSelector":{"matchLabels":{"a":"b!"}},"nodeSelector":"a in ()x"})");
    CHECK_THAT(err, Catch::Matchers::Contains("ignorePodsWithoutPDB: cannot be combined with podProtections"));
    CHECK_THAT(err, Catch::Matchers::Contains("priorityThreshold: only one of value and name can be set"));
    CHECK_THAT(err, Catch::Matchers::Contains("namespaceLabelSelector.matchLabels.a: invalid label value \"b!\""));
    CHECK_THAT(err, Catch::Matchers::Contains("nodeSelector: invalid label selector"));
}
