#include "common.hpp"

namespace kd::plugins::sigs {

int64_t total_restarts(const Pod& pod, ContainerLists lists) {
    int64_t sum = 0;
    for (auto c : pod.container_statuses())
        if (lists.reads(c.kind())) sum += c.restart_count();
    return sum;
}

std::string_view phase_name(kd_pod_phase phase) {
    switch (phase) {
        case KD_POD_PENDING:
            return "Pending";
        case KD_POD_RUNNING:
            return "Running";
        case KD_POD_SUCCEEDED:
            return "Succeeded";
        case KD_POD_FAILED:
            return "Failed";
        case KD_POD_UNKNOWN:
            return "Unknown";
    }
    return "";
}

std::optional<uint64_t> age_seconds(const Pod& pod, int64_t now_ms) {
    int64_t age_ms = now_ms - pod.creation_ms();
    if (age_ms < 0) return std::nullopt;
    return static_cast<uint64_t>(age_ms / 1000);
}

std::string go_list(std::vector<std::string> names) {
    std::sort(names.begin(), names.end());
    std::string out = "[";
    for (size_t i = 0; i < names.size(); ++i) {
        if (i) out += ' ';
        out += names[i];
    }
    return out + "]";
}

bool in_scope(const std::optional<Namespaces>& namespaces, const std::optional<LabelSelector>& selector,
              const Pod& pod) {
    if (namespaces && !namespaces->allows(pod.ns())) return false;
    if (selector && !selector->matches([&](const std::string& k) { return pod.labels().get(k); })) return false;
    return true;
}

bool evictor_admits(const Cycle& cycle, const Pod& pod) {
    Verdict v = cycle.filter(pod);
    if (v.allowed) v = cycle.pre_eviction_filter(pod);
    return v.allowed;
}

}  // namespace kd::plugins::sigs
