// Scoring and sorting (koord's loadaware `ResourceUsageScorer` and pod order): the node usage score
// that orders source nodes, and the chain of comparators that orders the pods of one source node
// (evicted first = first).
#pragma once

#include "pool_state.hpp"

#include <kdesched/koord_pod.hpp>
#include <kdesched/view.hpp>

#include <cstdint>
#include <vector>

namespace kd::plugins::lownodeload {

// ResourceUsageScorer: Σ_r min(used, alloc)×1000/alloc × w_r / Σ w_r over every slot (the usage map
// always has "pods"); cpu in milli, others in whole units; integer arithmetic as Koordinator.
int64_t node_usage_score(const int64_t* used, const int64_t* alloc, const ResourceSlots& slots,
                         const std::vector<int64_t>& weights);

// Sorts node indices by node_usage_score of the `usage` vector (kUsage or kProdUsage), highest
// first. Ties keep their order (Go's sort.Slice leaves it unspecified).
void sort_nodes_by_usage(std::vector<uint32_t>& nodes, const PoolState& state, PoolState::Vector usage,
                         const ResourceSlots& slots, const std::vector<int64_t>& weights);

// Usage score of one pod on a source node: over the node's over-threshold resources present in the
// pod's metric, ratio = podUsage / (usage − threshold), f = ratio < 1 ? ratio : 1/ratio + 1,
// score = Σ f×w / Σ w (0 when Σ w = 0).
// `pod_usage`/`present`: the pod's podsMetric usage per slot and whether it names the resource.
double pod_usage_score(const int64_t* pod_usage, const uint8_t* present, const int64_t* used, const int64_t* threshold,
                       const ResourceSlots& slots, const std::vector<int64_t>& weights);

// Everything the pod order compares, computed once per candidate: the SDK's rank keys (shared with
// the migration arbitrator) plus the usage step.
struct PodOrderKey : kd::koord::PodRank {
    bool has_metric = false;
    double usage_score = 0;  // higher first
    uint32_t pod = 0;        // index into PoolState::pods
};

// The key of a pod; `metric`/`present` are its podsMetric usage per slot (nullptr when it has none).
PodOrderKey make_pod_order_key(const PodEntry& entry, uint32_t index, const int64_t* metric, const uint8_t* present,
                               const int64_t* used, const int64_t* threshold, const ResourceSlots& slots,
                               const std::vector<int64_t>& weights);

// The comparators, in order; each returns <0 when `a` is evicted first, >0 when `b` is, 0 on a tie.
int compare_priority_class(const PodOrderKey& a, const PodOrderKey& b);
int compare_priority(const PodOrderKey& a, const PodOrderKey& b);
int compare_k8s_qos(const PodOrderKey& a, const PodOrderKey& b);
int compare_koord_qos(const PodOrderKey& a, const PodOrderKey& b);
int compare_deletion_cost(const PodOrderKey& a, const PodOrderKey& b);
int compare_eviction_cost(const PodOrderKey& a, const PodOrderKey& b);
int compare_usage(const PodOrderKey& a, const PodOrderKey& b);     // with a metric first, then higher score
int compare_creation(const PodOrderKey& a, const PodOrderKey& b);  // newer first

// True when `a` is evicted before `b` (the whole chain).
bool pod_evicted_before(const PodOrderKey& a, const PodOrderKey& b);

// Sorts keys by the chain; ties keep their order (Go's sort.Sort leaves it unspecified).
void sort_pods(std::vector<PodOrderKey>& keys);

}  // namespace kd::plugins::lownodeload
