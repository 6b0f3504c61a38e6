#include "args.hpp"

#include <kdesched/selector_string.hpp>

#include <algorithm>
#include <array>
#include <string_view>

namespace kd::plugins::defaultevictor {
namespace {

constexpr std::array<std::string_view, 4> kDefaultProtections = {"PodsWithLocalStorage", "DaemonSetPods",
                                                                 "SystemCriticalPods", "FailedBarePods"};
constexpr std::array<std::string_view, 3> kExtraProtections = {"PodsWithPVC", "PodsWithoutPDB",
                                                               "PodsWithResourceClaims"};

template <size_t N>
bool one_of(const std::array<std::string_view, N>& set, std::string_view v) {
    return std::find(set.begin(), set.end(), v) != set.end();
}

template <size_t N>
std::string listed(const std::array<std::string_view, N>& set) {
    std::string out;
    for (auto s : set) out += (out.empty() ? "" : ", ") + std::string(s);
    return out;
}

void validate_protection_list(const std::vector<std::string>& list, bool extra, const std::string& path,
                              kd::Errors& errs) {
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string& name = list[i];
        std::string p = kd::index_path(path, i);
        if (std::find(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(i), name) !=
            list.begin() + static_cast<std::ptrdiff_t>(i)) {
            errs.add(p, "duplicate entry \"" + name + "\"");
            continue;
        }
        if (!extra) {
            if (!one_of(kDefaultProtections, name))
                errs.add(p, "unknown pod protection \"" + name +
                                "\" (defaultDisabled accepts: " + listed(kDefaultProtections) + ")");
            continue;
        }
        if (!one_of(kExtraProtections, name))
            errs.add(
                p, "unknown pod protection \"" + name + "\" (extraEnabled accepts: " + listed(kExtraProtections) + ")");
    }
}

}  // namespace

void DefaultEvictorArgs::validate(kd::Errors& errs, const std::string& path) const {
    if (!nodeSelector.empty()) {
        std::string why;
        if (!StringLabelSelector::parse(nodeSelector, &why))
            errs.add(kd::field_path(path, "nodeSelector"), "invalid label selector \"" + nodeSelector + "\": " + why);
    }

    if (priorityThreshold) {
        std::string p = kd::field_path(path, "priorityThreshold");
        const auto& t = *priorityThreshold;
        if (t.value && !t.name.empty())
            errs.add(p, "only one of value and name can be set (got value " + std::to_string(*t.value) +
                            " and name \"" + t.name + "\")");
        if (t.value && *t.value > kSystemCriticalPriority)
            errs.add(kd::field_path(p, "value"), "must be <= " + std::to_string(kSystemCriticalPriority) +
                                                     " (system-critical priority), got " + std::to_string(*t.value));
    }

    std::string pp = kd::field_path(path, "podProtections");
    validate_protection_list(podProtections.defaultDisabled, false, kd::field_path(pp, "defaultDisabled"), errs);
    validate_protection_list(podProtections.extraEnabled, true, kd::field_path(pp, "extraEnabled"), errs);
    if (podProtections.config && podProtections.config->PodsWithPVC) {
        // Upstream checks the names only when extraEnabled has PodsWithPVC; an empty name never
        // matches a claim, so it is refused wherever it is written.
        std::string classes =
            kd::field_path(kd::field_path(kd::field_path(pp, "config"), "PodsWithPVC"), "protectedStorageClasses");
        const auto& list = podProtections.config->PodsWithPVC->protectedStorageClasses;
        for (size_t i = 0; i < list.size(); ++i)
            if (list[i].name.empty())
                errs.add(kd::field_path(kd::index_path(classes, i), "name"),
                         "must not be empty: name the StorageClass whose claims PodsWithPVC protects");
    }
    if (podProtections.in_use()) {
        // Upstream silently drops the deprecated flags once podProtections is used; refusing the mix
        // keeps a flag from being ignored without a word.
        const std::pair<const char*, bool> legacy[] = {
            {"evictLocalStoragePods", evictLocalStoragePods},     {"evictDaemonSetPods", evictDaemonSetPods},
            {"evictSystemCriticalPods", evictSystemCriticalPods}, {"ignorePvcPods", ignorePvcPods},
            {"ignorePodsWithoutPDB", ignorePodsWithoutPDB},       {"evictFailedBarePods", evictFailedBarePods}};
        for (const auto& [name, set] : legacy)
            if (set)
                errs.add(kd::field_path(path, name),
                         "cannot be combined with podProtections (this deprecated flag would be ignored); express it "
                         "in podProtections.defaultDisabled / extraEnabled");
    }
}

std::vector<std::string> PodProtections::protected_storage_classes() const {
    std::vector<std::string> out;
    if (config && config->PodsWithPVC)
        for (const auto& c : config->PodsWithPVC->protectedStorageClasses) out.push_back(c.name);
    return out;
}

Protections effective_protections(const DefaultEvictorArgs& args) {
    Protections p;
    if (!args.podProtections.in_use()) {
        p.localStorage = !args.evictLocalStoragePods;
        p.daemonSet = !args.evictDaemonSetPods;
        p.systemCritical = !args.evictSystemCriticalPods;
        p.failedBarePods = !args.evictFailedBarePods;
        p.pvc = args.ignorePvcPods;
        p.withoutPdb = args.ignorePodsWithoutPDB;
        return p;
    }
    for (const auto& name : args.podProtections.defaultDisabled) {
        if (name == "PodsWithLocalStorage") p.localStorage = false;
        if (name == "DaemonSetPods") p.daemonSet = false;
        if (name == "SystemCriticalPods") p.systemCritical = false;
        if (name == "FailedBarePods") p.failedBarePods = false;
    }
    for (const auto& name : args.podProtections.extraEnabled) {
        if (name == "PodsWithPVC") p.pvc = true;
        if (name == "PodsWithoutPDB") p.withoutPdb = true;
        if (name == "PodsWithResourceClaims") p.resourceClaims = true;
    }
    return p;
}

}  // namespace kd::plugins::defaultevictor
