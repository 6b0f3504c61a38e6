// MigrationControllerArgs (descheduler/v1alpha2), decoded strictly; every default is the member
// initialiser or applied by `apply_defaults` where the anchor defaults conditionally.
#pragma once

#include <kdesched/decode.hpp>
#include <kdesched/label_selector.hpp>
#include <kdesched/namespaces.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kd::plugins::migrationcontroller {

// Any JSON object kept as its text (deleteOptions is passed through to the PodMigrationJob).
struct RawJson {
    std::string text;  // "" = absent
};

// evictQPS: a number or a numeric string ("10", "0.5").
struct FloatOrString {
    double value = 10;
};

struct PriorityThreshold {
    std::optional<int32_t> value;
    std::string name;  // accepted; the migration filter reads only `value` (docs/compatibility.md)
    template <class V>
    void fields(V& v) {
        v("value", value);
        v("name", name);
    }
};

// namespaces: at most one of the two lists may be set. kd::Namespaces validates it with
// Koordinator's words (pkg/descheduler/apis/config/validation/validation_pluginargs.go, v1.8.0).
using Namespaces = kd::Namespaces;

// One object limiter: at most `maxMigrating` migrations per `duration` (a token bucket).
struct ObjectLimiterArgs {
    kd::Duration duration;
    std::optional<kd::IntOrString> maxMigrating;  // nil/0 → derived from maxMigratingPerWorkload
    int32_t burst = 0;                            // 0 → 1
    template <class V>
    void fields(V& v) {
        v("duration", duration);
        v("maxMigrating", maxMigrating);
        v("burst", burst);
    }
};

struct ArbitrationArgs {
    bool enabled = true;
    kd::Duration interval{std::chrono::milliseconds(500)};
    template <class V>
    void fields(V& v) {
        v("enabled", enabled);
        v("interval", interval);
    }
};

inline constexpr const char* kReservationFirst = "ReservationFirst";
inline constexpr const char* kEvictDirectly = "EvictDirectly";

struct MigrationControllerArgs {
    bool dryRun = false;
    int32_t maxConcurrentReconciles = 1;
    bool evictFailedBarePods = false;
    bool evictAllBarePods = false;
    bool evictLocalStoragePods = false;
    bool evictSystemCriticalPods = false;
    bool ignorePvcPods = false;
    std::optional<PriorityThreshold> priorityThreshold;
    std::optional<kd::LabelSelector> labelSelector;
    std::optional<Namespaces> namespaces;
    bool nodeFit = false;
    std::string nodeSelector;
    std::vector<std::string> skipEvictionGates;
    std::optional<int32_t> maxMigratingGlobally;
    std::optional<int32_t> maxMigratingPerNode = 2;
    std::optional<int32_t> maxMigratingPerNamespace;
    std::optional<kd::IntOrString> maxMigratingPerWorkload;
    std::optional<kd::IntOrString> maxUnavailablePerWorkload;
    std::optional<bool> skipCheckExpectedReplicas;
    std::map<std::string, ObjectLimiterArgs> objectLimiters;
    std::string defaultJobMode = kReservationFirst;
    kd::Duration defaultJobTTL{std::chrono::minutes(5)};
    std::vector<std::string> schedulerNames{"koord-scheduler"};
    FloatOrString evictQPS;
    int32_t evictBurst = 1;
    std::string evictionPolicy = "Eviction";
    RawJson defaultDeleteOptions;
    ArbitrationArgs arbitrationArgs;

    template <class V>
    void fields(V& v) {
        v("dryRun", dryRun);
        v("maxConcurrentReconciles", maxConcurrentReconciles);
        v("evictFailedBarePods", evictFailedBarePods);
        v("evictAllBarePods", evictAllBarePods);
        v("evictLocalStoragePods", evictLocalStoragePods);
        v("evictSystemCriticalPods", evictSystemCriticalPods);
        v("ignorePvcPods", ignorePvcPods);
        v("priorityThreshold", priorityThreshold);
        v("labelSelector", labelSelector);
        v("namespaces", namespaces);
        v("nodeFit", nodeFit);
        v("nodeSelector", nodeSelector);
        v("skipEvictionGates", skipEvictionGates);
        v("maxMigratingGlobally", maxMigratingGlobally);
        v("maxMigratingPerNode", maxMigratingPerNode);
        v("maxMigratingPerNamespace", maxMigratingPerNamespace);
        v("maxMigratingPerWorkload", maxMigratingPerWorkload);
        v("maxUnavailablePerWorkload", maxUnavailablePerWorkload);
        v("skipCheckExpectedReplicas", skipCheckExpectedReplicas);
        v("objectLimiters", objectLimiters);
        v("defaultJobMode", defaultJobMode);
        v("defaultJobTTL", defaultJobTTL);
        v("schedulerNames", schedulerNames);
        v("evictQPS", evictQPS);
        v("evictBurst", evictBurst);
        v("evictionPolicy", evictionPolicy);
        v("defaultDeleteOptions", defaultDeleteOptions);
        v("arbitrationArgs", arbitrationArgs);
    }

    // objectLimiters defaults to {workload: {duration: 5m}} only when the map is empty (as koord).
    void apply_defaults();
    // Every problem with its field path.
    void validate(kd::Errors& errs, const std::string& path) const;
    // True when `gate` (one of skipEvictionGates' values) is skipped.
    bool skips(std::string_view gate) const;
};

}  // namespace kd::plugins::migrationcontroller

namespace kd {

template <>
struct Decoder<plugins::migrationcontroller::RawJson> {
    static void decode(const rapidjson::Value& v, plugins::migrationcontroller::RawJson& out, const std::string& path,
                       Errors& errs);
};

template <>
struct Decoder<plugins::migrationcontroller::FloatOrString> {
    static void decode(const rapidjson::Value& v, plugins::migrationcontroller::FloatOrString& out,
                       const std::string& path, Errors& errs);
};

}  // namespace kd
