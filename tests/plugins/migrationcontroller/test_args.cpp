// MigrationControllerArgs (descheduler/v1alpha2): defaults, evictQPS as number or string,
// objectLimiters' conditional default, and every validation error with its field path.
#include "test_util.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

using namespace mc_test;
using std::chrono::milliseconds;
using std::chrono::minutes;

namespace {

// The field paths of every problem with `json` ({} when it is valid).
std::vector<std::string> error_paths(const std::string& json, std::string* joined = nullptr) {
    try {
        kd::parse<MigrationControllerArgs>(json);
    } catch (const kd::DecodeError& e) {
        std::vector<std::string> out;
        for (const auto& item : e.errors().items()) out.push_back(item.path);
        if (joined) *joined = e.what();
        return out;
    }
    return {};
}

// What create() reports through the C descriptor ("" when it succeeds).
std::string create_error(const std::string& args) {
    FakeHost host;
    try {
        host.instantiate<MigrationController>(args);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("args: defaults", "[args]") {
    auto a = kd::parse<MigrationControllerArgs>("{}");
    CHECK_FALSE(a.dryRun);
    CHECK(a.maxConcurrentReconciles == 1);
    CHECK_FALSE(a.evictFailedBarePods);
    CHECK_FALSE(a.evictAllBarePods);
    CHECK_FALSE(a.evictLocalStoragePods);
    CHECK_FALSE(a.evictSystemCriticalPods);
    CHECK_FALSE(a.ignorePvcPods);
    CHECK_FALSE(a.priorityThreshold);
    CHECK_FALSE(a.labelSelector);
    CHECK_FALSE(a.namespaces);
    CHECK_FALSE(a.nodeFit);
    CHECK(a.nodeSelector.empty());
    CHECK(a.skipEvictionGates.empty());
    CHECK_FALSE(a.maxMigratingGlobally);
    REQUIRE(a.maxMigratingPerNode);
    CHECK(*a.maxMigratingPerNode == 2);
    CHECK_FALSE(a.maxMigratingPerNamespace);
    CHECK_FALSE(a.maxMigratingPerWorkload);
    CHECK_FALSE(a.maxUnavailablePerWorkload);
    CHECK_FALSE(a.skipCheckExpectedReplicas);
    REQUIRE(a.objectLimiters.size() == 1);
    REQUIRE(a.objectLimiters.count("workload") == 1);
    CHECK(a.objectLimiters.at("workload").duration.value == minutes(5));
    CHECK_FALSE(a.objectLimiters.at("workload").maxMigrating);
    CHECK(a.objectLimiters.at("workload").burst == 0);
    CHECK(a.defaultJobMode == "ReservationFirst");
    CHECK(a.defaultJobTTL.value == minutes(5));
    CHECK(a.schedulerNames == std::vector<std::string>{"koord-scheduler"});
    CHECK(a.evictQPS.value == 10);
    CHECK(a.evictBurst == 1);
    CHECK(a.evictionPolicy == "Eviction");
    CHECK(a.defaultDeleteOptions.text.empty());
    CHECK(a.arbitrationArgs.enabled);
    CHECK(a.arbitrationArgs.interval.value == milliseconds(500));
    CHECK(create_error("{}").empty());
}

TEST_CASE("args: every field decodes", "[args]") {
    auto a = kd::parse<MigrationControllerArgs>(R"({
        "dryRun": true, "maxConcurrentReconciles": 4, "evictFailedBarePods": true, "evictAllBarePods": true,
        "evictLocalStoragePods": true, "evictSystemCriticalPods": true, "ignorePvcPods": true,
        "priorityThreshold": {"value": 1000, "name": "high"}, "labelSelector": {"matchLabels": {"app": "web"}},
        "namespaces": {"exclude": ["kube-system"]}, "nodeFit": true, "nodeSelector": "pool=a",
        "skipEvictionGates": ["PVC", "NodeFit"], "maxMigratingGlobally": 3, "maxMigratingPerNode": 0,
        "maxMigratingPerNamespace": 4, "maxMigratingPerWorkload": "25%", "maxUnavailablePerWorkload": 2,
        "skipCheckExpectedReplicas": true,
        "objectLimiters": {"namespace": {"duration": "1m", "maxMigrating": 3, "burst": 2}},
        "defaultJobMode": "EvictDirectly", "defaultJobTTL": "10m", "schedulerNames": ["a", "b"],
        "evictQPS": 2.5, "evictBurst": 3, "evictionPolicy": "SoftEviction",
        "defaultDeleteOptions": {"gracePeriodSeconds": 30},
        "arbitrationArgs": {"enabled": false, "interval": "2s"}})");
    CHECK(a.dryRun);
    CHECK(a.maxConcurrentReconciles == 4);
    CHECK(a.priorityThreshold->value == 1000);
    CHECK(a.priorityThreshold->name == "high");
    CHECK(a.namespaces->exclude == std::vector<std::string>{"kube-system"});
    CHECK(a.skips("PVC"));
    CHECK(a.skips("NodeFit"));
    CHECK_FALSE(a.skips("BarePods"));
    CHECK(*a.maxMigratingGlobally == 3);
    CHECK(*a.maxMigratingPerNode == 0);
    CHECK(*a.maxMigratingPerNamespace == 4);
    CHECK(a.maxMigratingPerWorkload->text() == "25%");
    CHECK(a.maxUnavailablePerWorkload->text() == "2");
    CHECK(*a.skipCheckExpectedReplicas);
    // objectLimiters given: no workload default added.
    REQUIRE(a.objectLimiters.size() == 1);
    CHECK(a.objectLimiters.at("namespace").duration.value == minutes(1));
    CHECK(a.objectLimiters.at("namespace").maxMigrating->int_value == 3);
    CHECK(a.objectLimiters.at("namespace").burst == 2);
    CHECK(a.defaultJobMode == "EvictDirectly");
    CHECK(a.defaultJobTTL.value == minutes(10));
    CHECK(a.schedulerNames == std::vector<std::string>{"a", "b"});
    CHECK(a.evictQPS.value == 2.5);
    CHECK(a.evictBurst == 3);
    CHECK(a.evictionPolicy == "SoftEviction");
    CHECK(a.defaultDeleteOptions.text == R"({"gracePeriodSeconds":30})");
    CHECK_FALSE(a.arbitrationArgs.enabled);
    CHECK(a.arbitrationArgs.interval.value == std::chrono::seconds(2));
}

TEST_CASE("args: evictQPS as a number or a numeric string", "[args]") {
    struct Case {
        const char* json;
        double qps;
    };
    for (const Case& c : std::vector<Case>{{R"({"evictQPS": "10"})", 10},
                                           {R"({"evictQPS": "0.5"})", 0.5},
                                           {R"({"evictQPS": 3})", 3},
                                           {R"({"evictQPS": 0.25})", 0.25}}) {
        SECTION(c.json) {
            CHECK(kd::parse<MigrationControllerArgs>(c.json).evictQPS.value == c.qps);
        }
    }
}

TEST_CASE("args: objectLimiters defaults to workload 5m only when empty", "[args]") {
    auto empty = kd::parse<MigrationControllerArgs>(R"({"objectLimiters": {}})");
    REQUIRE(empty.objectLimiters.size() == 1);
    CHECK(empty.objectLimiters.at("workload").duration.value == minutes(5));
    auto given = kd::parse<MigrationControllerArgs>(R"({"objectLimiters": {"workload": {"duration": "30s"}}})");
    REQUIRE(given.objectLimiters.size() == 1);
    CHECK(given.objectLimiters.at("workload").duration.value == std::chrono::seconds(30));
}

TEST_CASE("args: every validation error carries its field path", "[args]") {
    struct Case {
        const char* name;
        std::string json;
        std::vector<std::string> paths;
        std::string message;  // a fragment of the joined message
    };
    std::vector<Case> cases = {
        {"unknown gate",
         R"({"skipEvictionGates": ["PVC", "Foo"]})",
         {"skipEvictionGates[1]"},
         "unknown eviction gate \"Foo\""},
        {"bad mode",
         R"({"defaultJobMode": "Later"})",
         {"defaultJobMode"},
         "must be ReservationFirst or EvictDirectly, got \"Later\""},
        {"qps zero", R"({"evictQPS": 0})", {"evictQPS"}, "must be greater than 0"},
        {"qps negative string", R"({"evictQPS": "-1"})", {"evictQPS"}, "must be greater than 0"},
        {"qps not numeric", R"({"evictQPS": "fast"})", {"evictQPS"}, "must be a number or a numeric string"},
        {"burst zero", R"({"evictBurst": 0})", {"evictBurst"}, "must be greater than 0"},
        {"burst negative", R"({"evictBurst": -2})", {"evictBurst"}, "must be greater than 0"},
        {"bad policy",
         R"({"evictionPolicy": "Kill"})",
         {"evictionPolicy"},
         "must be Eviction, Delete or SoftEviction, got \"Kill\""},
        {"namespaces include and exclude",
         R"({"namespaces": {"include": ["a"], "exclude": ["b"]}})",
         {"namespaces"},
         "only one of Include/Exclude namespaces can be set"},
        {"maxConcurrentReconciles 0",
         R"({"maxConcurrentReconciles": 0})",
         {"maxConcurrentReconciles"},
         "must be at least 1"},
        {"bad percent maxMigratingPerWorkload",
         R"({"maxMigratingPerWorkload": "ten%"})",
         {"maxMigratingPerWorkload"},
         "must be an integer or a percentage"},
        {"bad percent maxUnavailablePerWorkload",
         R"({"maxUnavailablePerWorkload": "50"})",
         {"maxUnavailablePerWorkload"},
         "must be an integer or a percentage"},
        {"bad percent in an object limiter",
         R"({"objectLimiters": {"workload": {"duration": "5m", "maxMigrating": "1.5%"}}})",
         {"objectLimiters.workload.maxMigrating"},
         "must be an integer or a percentage"},
        {"unknown objectLimiters key",
         R"({"objectLimiters": {"pod": {"duration": "5m"}}})",
         {"objectLimiters.pod"},
         "unknown object limiter \"pod\""},
        {"negative object limiter burst",
         R"({"objectLimiters": {"namespace": {"duration": "5m", "burst": -1}}})",
         {"objectLimiters.namespace.burst"},
         "must be >= 0"},
        {"negative maxMigratingGlobally", R"({"maxMigratingGlobally": -1})", {"maxMigratingGlobally"}, "must be >= 0"},
        {"negative maxMigratingPerNode", R"({"maxMigratingPerNode": -1})", {"maxMigratingPerNode"}, "must be >= 0"},
        {"negative maxMigratingPerNamespace",
         R"({"maxMigratingPerNamespace": -1})",
         {"maxMigratingPerNamespace"},
         "must be >= 0 (0 means unlimited), got -1"},
        {"zero arbitration interval",
         R"({"arbitrationArgs": {"interval": "0s"}})",
         {"arbitrationArgs.interval"},
         "must be greater than 0"},
        {"unknown field", R"({"evictQps": 3})", {"evictQps"}, ""},
        {"several at once",
         R"({"evictBurst": 0, "evictionPolicy": "X", "defaultJobMode": "Y"})",
         {"defaultJobMode", "evictBurst", "evictionPolicy"},
         ""},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            std::string joined;
            auto paths = error_paths(c.json, &joined);
            std::sort(paths.begin(), paths.end());
            CHECK(paths == c.paths);
            CHECK(joined.find(c.message) != std::string::npos);
            // The same text reaches the host through create().
            std::string err = create_error(c.json);
            CHECK_FALSE(err.empty());
            for (const auto& p : c.paths) CHECK(err.find(p) != std::string::npos);
        }
    }
}

TEST_CASE("args: zero and positive migration counts are valid, as in ValidateMigrationControllerArgs", "[args]") {
    for (const char* field : {"maxMigratingGlobally", "maxMigratingPerNode", "maxMigratingPerNamespace"})
        for (int value : {0, 10, 100}) {
            INFO(field << " = " << value);
            CHECK(create_error("{\"" + std::string(field) + "\": " + std::to_string(value) + "}").empty());
        }
}

TEST_CASE("args: a bad nodeSelector fails create", "[args]") {
    CHECK(create_error(R"({"nodeSelector": "a in (b"})").find("nodeSelector") != std::string::npos);
    CHECK(create_error(R"({"nodeSelector": "pool=a,zone!=b"})").empty());
}
