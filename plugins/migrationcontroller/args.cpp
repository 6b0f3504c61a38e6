#include "args.hpp"

#include "json.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>

namespace kd::plugins::migrationcontroller {

namespace {

constexpr std::array<std::string_view, 14> kGates = {"MaxUnavailablePerWorkload",
                                                     "MaxMigratingPerWorkload",
                                                     "MaxMigratingPerNode",
                                                     "MaxMigratingPerNamespace",
                                                     "MaxMigratingGlobally",
                                                     "ExpectedReplicas",
                                                     "PVC",
                                                     "BarePods",
                                                     "LocalStorage",
                                                     "SystemCritical",
                                                     "PriorityThreshold",
                                                     "LabelSelector",
                                                     "Namespaces",
                                                     "NodeFit"};

bool valid_percent_or_int(const kd::IntOrString& v) {
    return !v.is_string || kd::scaled_value(v, 100, false).has_value();
}

}  // namespace

void MigrationControllerArgs::apply_defaults() {
    if (objectLimiters.empty()) objectLimiters["workload"].duration = kd::Duration{std::chrono::minutes(5)};
}

bool MigrationControllerArgs::skips(std::string_view gate) const {
    return std::find(skipEvictionGates.begin(), skipEvictionGates.end(), gate) != skipEvictionGates.end();
}

void MigrationControllerArgs::validate(kd::Errors& errs, const std::string& path) const {
    auto at = [&](const char* f) { return kd::field_path(path, f); };
    if (maxConcurrentReconciles < 1) errs.add(at("maxConcurrentReconciles"), "must be at least 1");
    // namespaces validates itself (kd::Namespaces).
    for (size_t i = 0; i < skipEvictionGates.size(); ++i)
        if (std::find(kGates.begin(), kGates.end(), skipEvictionGates[i]) == kGates.end())
            errs.add(at("skipEvictionGates") + "[" + std::to_string(i) + "]",
                     "unknown eviction gate \"" + skipEvictionGates[i] +
                         "\" (valid: MaxUnavailablePerWorkload, MaxMigratingPerWorkload, MaxMigratingPerNode, "
                         "MaxMigratingPerNamespace, MaxMigratingGlobally, ExpectedReplicas, PVC, BarePods, "
                         "LocalStorage, SystemCritical, PriorityThreshold, LabelSelector, Namespaces, NodeFit)");
    // ValidateMigrationControllerArgs: 0 and unset mean unlimited, a negative count is a mistake.
    for (auto [name, v] : {std::pair{"maxMigratingGlobally", &maxMigratingGlobally},
                           std::pair{"maxMigratingPerNode", &maxMigratingPerNode},
                           std::pair{"maxMigratingPerNamespace", &maxMigratingPerNamespace}})
        if (*v && **v < 0) errs.add(at(name), "must be >= 0 (0 means unlimited), got " + std::to_string(**v));
    for (auto [name, v] : {std::pair{"maxMigratingPerWorkload", &maxMigratingPerWorkload},
                           std::pair{"maxUnavailablePerWorkload", &maxUnavailablePerWorkload}})
        if (*v && !valid_percent_or_int(**v))
            errs.add(at(name), "must be an integer or a percentage such as \"25%\", got \"" + (*v)->text() + "\"");
    for (const auto& [key, l] : objectLimiters) {
        std::string p = at("objectLimiters") + "." + key;
        if (key != "workload" && key != "namespace")
            errs.add(p, "unknown object limiter \"" + key + "\" (valid: workload, namespace)");
        if (l.duration.value.count() < 0) errs.add(p + ".duration", "must be >= 0");
        if (l.burst < 0) errs.add(p + ".burst", "must be >= 0");
        if (l.maxMigrating && !valid_percent_or_int(*l.maxMigrating))
            errs.add(p + ".maxMigrating", "must be an integer or a percentage such as \"25%\"");
    }
    if (defaultJobMode != kReservationFirst && defaultJobMode != kEvictDirectly)
        errs.add(at("defaultJobMode"), "must be ReservationFirst or EvictDirectly, got \"" + defaultJobMode + "\"");
    if (defaultJobTTL.value.count() < 0) errs.add(at("defaultJobTTL"), "must be >= 0");
    if (!(evictQPS.value > 0)) errs.add(at("evictQPS"), "must be greater than 0");
    if (evictBurst <= 0) errs.add(at("evictBurst"), "must be greater than 0");
    if (evictionPolicy != "Eviction" && evictionPolicy != "Delete" && evictionPolicy != "SoftEviction")
        errs.add(at("evictionPolicy"), "must be Eviction, Delete or SoftEviction, got \"" + evictionPolicy + "\"");
    if (arbitrationArgs.interval.value.count() <= 0) errs.add(at("arbitrationArgs.interval"), "must be greater than 0");
}

}  // namespace kd::plugins::migrationcontroller

namespace kd {

void Decoder<plugins::migrationcontroller::RawJson>::decode(const rapidjson::Value& v,
                                                            plugins::migrationcontroller::RawJson& out,
                                                            const std::string& path, Errors& errs) {
    if (v.IsNull()) return;
    if (!v.IsObject()) {
        errs.add(path, "must be an object (DeleteOptions)");
        return;
    }
    out.text = plugins::migrationcontroller::json::to_json(&v);
}

void Decoder<plugins::migrationcontroller::FloatOrString>::decode(const rapidjson::Value& v,
                                                                  plugins::migrationcontroller::FloatOrString& out,
                                                                  const std::string& path, Errors& errs) {
    if (v.IsNumber()) {
        out.value = v.GetDouble();
        return;
    }
    if (v.IsString()) {
        std::string s(v.GetString(), v.GetStringLength());
        char* end = nullptr;
        double d = std::strtod(s.c_str(), &end);
        if (!s.empty() && end == s.c_str() + s.size()) {
            out.value = d;
            return;
        }
    }
    errs.add(path, "must be a number or a numeric string such as \"10\" or \"0.5\"");
}

}  // namespace kd
