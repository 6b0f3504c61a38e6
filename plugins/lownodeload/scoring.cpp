#include "scoring.hpp"

#include "pod_class.hpp"

#include <kdesched/quantity.hpp>

#include <algorithm>
#include <utility>

namespace kd::plugins::lownodeload {

int64_t node_usage_score(const int64_t* used, const int64_t* alloc, const ResourceSlots& slots,
                         const std::vector<int64_t>& weights) {
    int64_t score = 0, weight_sum = 0;
    for (size_t r = 0; r < slots.size(); ++r) {
        int64_t w = weights[r];
        int64_t capacity = natural_units(slots.names[r], alloc[r]);
        int64_t requested = std::min(natural_units(slots.names[r], used[r]), capacity);
        int64_t s = capacity == 0 ? 0 : requested * 1000 / capacity;
        score += s * w;
        weight_sum += w;
    }
    return weight_sum == 0 ? 0 : score / weight_sum;
}

void sort_nodes_by_usage(std::vector<uint32_t>& nodes, const PoolState& state, PoolState::Vector usage,
                         const ResourceSlots& slots, const std::vector<int64_t>& weights) {
    std::vector<std::pair<int64_t, uint32_t>> scored;
    scored.reserve(nodes.size());
    for (uint32_t n : nodes)
        scored.emplace_back(node_usage_score(state.vec(n, usage), state.vec(n, PoolState::kAlloc), slots, weights), n);
    std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (size_t i = 0; i < nodes.size(); ++i) nodes[i] = scored[i].second;
}

double pod_usage_score(const int64_t* pod_usage, const uint8_t* present, const int64_t* used, const int64_t* threshold,
                       const ResourceSlots& slots, const std::vector<int64_t>& weights) {
    double score = 0;
    int64_t weight_sum = 0;
    for (size_t r = 0; r < slots.thresholds; ++r) {
        if (used[r] <= threshold[r]) continue;  // only over-threshold resources weigh
        if (!present[r]) continue;
        const int64_t q = pod_usage[r];
        int64_t w = weights[r];
        const std::string& name = slots.names[r];
        double excess = static_cast<double>(natural_units(name, used[r] - threshold[r]));
        double ratio = static_cast<double>(natural_units(name, q)) / excess;
        // A pod equal to the excess scores 2; larger pods (1, 2); smaller pods [0, 1).
        double f = ratio < 1 ? ratio : 1 / ratio + 1;
        score += f * static_cast<double>(w);
        weight_sum += w;
    }
    return weight_sum == 0 ? 0 : score / static_cast<double>(weight_sum);
}

PodOrderKey make_pod_order_key(const PodEntry& entry, uint32_t index, const int64_t* metric, const uint8_t* present,
                               const int64_t* used, const int64_t* threshold, const ResourceSlots& slots,
                               const std::vector<int64_t>& weights) {
    kd::Pod pod(entry.pod);
    PodOrderKey k;
    k.class_rank = priority_class_rank(entry.priority_class);
    k.priority = pod.priority().value_or(0);
    k.k8s_qos = static_cast<int>(pod.qos_class());
    k.koord_qos_rank = koord_qos_rank(koord_qos(pod));
    k.deletion_cost = cost_annotation(pod, kPodDeletionCostAnnotation);
    k.eviction_cost = cost_annotation(pod, kEvictionCostAnnotation);
    k.has_metric = metric != nullptr;
    k.usage_score = metric ? pod_usage_score(metric, present, used, threshold, slots, weights) : 0;
    k.creation_ms = pod.creation_ms();
    k.pod = index;
    return k;
}

namespace {

template <class T>
int ascending(T a, T b) {
    return a < b ? -1 : b < a ? 1 : 0;
}

}  // namespace

int compare_priority_class(const PodOrderKey& a, const PodOrderKey& b) {
    return ascending(a.class_rank, b.class_rank);
}
int compare_priority(const PodOrderKey& a, const PodOrderKey& b) {
    return ascending(a.priority, b.priority);
}
int compare_k8s_qos(const PodOrderKey& a, const PodOrderKey& b) {
    return ascending(a.k8s_qos, b.k8s_qos);
}
int compare_koord_qos(const PodOrderKey& a, const PodOrderKey& b) {
    return ascending(a.koord_qos_rank, b.koord_qos_rank);
}
int compare_deletion_cost(const PodOrderKey& a, const PodOrderKey& b) {
    return ascending(a.deletion_cost, b.deletion_cost);
}
int compare_eviction_cost(const PodOrderKey& a, const PodOrderKey& b) {
    return ascending(a.eviction_cost, b.eviction_cost);
}
int compare_usage(const PodOrderKey& a, const PodOrderKey& b) {
    if (a.has_metric != b.has_metric) return a.has_metric ? -1 : 1;
    return ascending(b.usage_score, a.usage_score);
}
int compare_creation(const PodOrderKey& a, const PodOrderKey& b) {
    return ascending(b.creation_ms, a.creation_ms);
}

bool pod_evicted_before(const PodOrderKey& a, const PodOrderKey& b) {
    for (auto cmp : {compare_priority_class, compare_priority, compare_k8s_qos, compare_koord_qos,
                     compare_deletion_cost, compare_eviction_cost, compare_usage, compare_creation}) {
        int c = cmp(a, b);
        if (c != 0) return c < 0;
    }
    return false;
}

void sort_pods(std::vector<PodOrderKey>& keys) {
    std::stable_sort(keys.begin(), keys.end(), pod_evicted_before);
}

}  // namespace kd::plugins::lownodeload
