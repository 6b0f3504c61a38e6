#include "cluster/pod_derivations.hpp"

#include <kdesched/quantity.hpp>

#include <rapidjson/document.h>

#include <algorithm>
#include <map>

namespace kd::core {

kd_pod_phase pod_phase(std::string_view phase) {
    if (phase == "Running") return KD_POD_RUNNING;
    if (phase == "Succeeded") return KD_POD_SUCCEEDED;
    if (phase == "Failed") return KD_POD_FAILED;
    if (phase == "Unknown") return KD_POD_UNKNOWN;
    return KD_POD_PENDING;
}

kd_qos_class compute_qos(const PodDraft& pod) {
    std::map<std::string_view, int64_t> requests, limits;
    bool guaranteed = true;
    auto visit = [&](const PodDraft::Container& c) {
        for (const auto& [name, milli] : c.requests)
            if ((name == "cpu" || name == "memory") && milli != 0) requests[name] += milli;
        bool cpu_limit = false, memory_limit = false;
        for (const auto& [name, milli] : c.limits) {
            if ((name == "cpu" || name == "memory") && milli != 0) {
                limits[name] += milli;
                cpu_limit |= name == "cpu";
                memory_limit |= name == "memory";
            }
        }
        if (!cpu_limit || !memory_limit) guaranteed = false;
    };
    for (const auto& c : pod.init_containers) visit(c);
    for (const auto& c : pod.containers) visit(c);
    if (requests.empty() && limits.empty()) return KD_QOS_BEST_EFFORT;
    if (guaranteed && requests.size() == limits.size()) {
        for (const auto& [name, milli] : requests) {
            auto it = limits.find(name);
            if (it == limits.end() || it->second != milli) return KD_QOS_BURSTABLE;
        }
        return KD_QOS_GUARANTEED;
    }
    return KD_QOS_BURSTABLE;
}

kd_qos_class qos_from_status(std::string_view qos, const PodDraft& pod) {
    if (qos == "Guaranteed") return KD_QOS_GUARANTEED;
    if (qos == "Burstable") return KD_QOS_BURSTABLE;
    if (qos == "BestEffort") return KD_QOS_BEST_EFFORT;
    return compute_qos(pod);
}

void effective_requests(const PodDraft& pod, std::vector<std::pair<std::string_view, int64_t>>& out) {
    out.clear();
    auto slot = [&](std::string_view name) -> int64_t& {
        for (auto& [n, v] : out)
            if (n == name) return v;
        return out.emplace_back(name, 0).second;
    };
    // Sidecars (init containers with restartPolicy Always) keep running: they add to everything
    // started after them and to the regular containers (Kubernetes' PodRequests).
    std::map<std::string_view, int64_t> sidecars, init_peak;
    for (const auto& c : pod.init_containers) {
        if (c.restart_always) {
            for (const auto& [name, milli] : c.requests) sidecars[name] += milli;
            for (const auto& [name, milli] : sidecars) init_peak[name] = std::max(init_peak[name], milli);
        } else {
            for (const auto& [name, milli] : c.requests)
                init_peak[name] = std::max(init_peak[name], milli + sidecars[name]);
        }
    }
    for (const auto& c : pod.containers)
        for (const auto& [name, milli] : c.requests) slot(name) += milli;
    for (const auto& [name, milli] : sidecars) slot(name) += milli;
    for (const auto& [name, milli] : init_peak) slot(name) = std::max(slot(name), milli);
    for (const auto& [name, milli] : pod.overhead) slot(name) += milli;
    std::sort(out.begin(), out.end());
}

std::vector<std::pair<std::string_view, int64_t>> effective_requests(const PodDraft& pod) {
    std::vector<std::pair<std::string_view, int64_t>> out;
    effective_requests(pod, out);
    return out;
}

std::optional<std::vector<std::pair<std::string, int64_t>>> raw_allocatable(const NodeDraft& node) {
    std::string_view text;
    for (const auto& [k, v] : node.meta.annotations)
        if (k == "node.koordinator.sh/raw-allocatable") text = v;
    if (text.empty()) return std::nullopt;
    rapidjson::Document doc;
    doc.Parse(text.data(), text.size());
    if (doc.HasParseError() || !doc.IsObject()) return std::nullopt;
    std::vector<std::pair<std::string, int64_t>> out;
    for (auto it = doc.MemberBegin(); it != doc.MemberEnd(); ++it) {
        std::optional<int64_t> milli;
        if (it->value.IsString())
            milli = kd::parse_quantity_milli(std::string_view(it->value.GetString(), it->value.GetStringLength()));
        else if (it->value.IsNumber())
            milli = kd::parse_quantity_milli(std::to_string(it->value.GetDouble()));
        if (!milli) return std::nullopt;
        out.emplace_back(std::string(it->name.GetString(), it->name.GetStringLength()), *milli);
    }
    return out;
}

}  // namespace kd::core
