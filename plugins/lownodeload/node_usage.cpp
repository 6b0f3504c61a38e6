#include "node_usage.hpp"

#include "pod_class.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <string_view>

namespace kd::plugins::lownodeload {

namespace {

size_t key_hash(std::string_view ns, std::string_view name) {
    std::hash<std::string_view> h;
    return h(ns) * 31 + h(name);
}

bool same_pod(const kd_pod* p, std::string_view ns, std::string_view name) {
    kd::Pod pod(p);
    return same_name(pod.name(), name) && same_name(pod.ns(), ns);
}

}  // namespace

void NodeUsageLoader::build_index(const PoolState& state, const NodeEntry& n) {
    size_t count = n.pod_end - n.pod_begin;
    size_t cap = 16;
    while (cap < count * 2) cap <<= 1;
    table_.assign(cap, -1);
    mask_ = cap - 1;
    for (size_t i = 0; i < count; ++i) {
        const kd_pod* p = state.pods[n.pod_begin + i].pod;
        size_t slot = key_hash(kd::Pod(p).ns(), kd::Pod(p).name()) & mask_;
        while (table_[slot] >= 0) slot = (slot + 1) & mask_;
        table_[slot] = static_cast<int32_t>(i);
    }
    indexed_ = true;
}

int32_t NodeUsageLoader::find_pod(const PoolState& state, const NodeEntry& n, size_t j, std::string_view ns,
                                  std::string_view name) {
    size_t count = n.pod_end - n.pod_begin;
    if (j < count && same_pod(state.pods[n.pod_begin + j].pod, ns, name)) return static_cast<int32_t>(j);
    if (count == 0) return -1;
    if (!indexed_) build_index(state, n);
    for (size_t slot = key_hash(ns, name) & mask_; table_[slot] >= 0; slot = (slot + 1) & mask_)
        if (same_pod(state.pods[n.pod_begin + table_[slot]].pod, ns, name)) return table_[slot];
    return -1;
}

namespace {

const kd_pod_metric* metric_entry(const kd_node_metric* m, size_t j) {
    return KD_AT(kd_pod_metric, m->pods, m->pods->struct_size, j);
}

// Finished pods hold no resources (descheduler's ListPodsOnANode skips them).
bool finished(const kd::Pod& p) {
    return p.phase() == KD_POD_SUCCEEDED || p.phase() == KD_POD_FAILED;
}

}  // namespace

bool NodeUsageLoader::load(PoolState& state, const kd::Snapshot& snapshot, kd::Node node, const ResourceSlots& slots,
                           int64_t now_ms, int64_t expiration_seconds) {
    const kd_snapshot* raw = snapshot.raw();
    return load(state, node, raw->node_metric(raw, kd::to_kd(node.name())), nullptr, snapshot, slots, now_ms,
                expiration_seconds);
}

bool NodeUsageLoader::load(PoolState& state, kd::Node node, const kd_node_metric* m, const kd_node_metric* next,
                           const kd::Snapshot& snapshot, const ResourceSlots& slots, int64_t now_ms,
                           int64_t expiration_seconds) {
    if (next)
        for (size_t j = 0; j < next->pod_count && j < 8; ++j) __builtin_prefetch(metric_entry(next, j)->usage.items);
    if (!m || !m->has_node_metric || m->update_time_ms == 0) return false;
    // A huge expiration never expires (instead of overflowing the multiplication).
    if (expiration_seconds <= std::numeric_limits<int64_t>::max() / 1000 &&
        now_ms - m->update_time_ms >= expiration_seconds * 1000)
        return false;

    const size_t idx = state.add_node(node.raw(), m);
    int64_t* usage = state.vec(idx, PoolState::kUsage);
    int64_t* pod_sum = state.vec(idx, PoolState::kPodSum);
    int64_t* alloc = state.vec(idx, PoolState::kAlloc);
    for (size_t r = 0; r < slots.size(); ++r) {
        alloc[r] = resource_milli(node.raw()->raw_allocatable, slots.names[r]);
        if (r != slots.pods) usage[r] = resource_milli(m->system_usage, slots.names[r]);
    }
    // Every podsMetric entry counts toward usage, listed pod or not. The entries, their resource
    // lists and the names are three pointer hops apart: prefetching a few entries ahead lets the
    // cache misses of consecutive entries overlap.
    bool non_negative = true;
    const size_t count = m->pod_count;
    const size_t k_slots = slots.size();
    const size_t first = state.entry_values.size() / k_slots;
    state.entry_values.resize((first + count) * k_slots);
    state.entry_present.resize((first + count) * k_slots);
    int64_t* values = state.entry_values.data() + first * k_slots;
    uint8_t* present = state.entry_present.data() + first * k_slots;
    for (size_t j = 0; j < count; ++j, values += k_slots, present += k_slots) {
        if (j + 8 < count) __builtin_prefetch(metric_entry(m, j + 8)->usage.items);
        if (j + 4 < count) {
            const kd_resource_list& ahead = metric_entry(m, j + 4)->usage;
            for (size_t k = 0; k < ahead.count && k < 4; ++k) __builtin_prefetch(ahead.items[k].name.data);
        }
        const kd_resource_list& u = metric_entry(m, j)->usage;
        for (size_t r = 0; r < k_slots; ++r) {
            // A pod's own "pods" usage only matters where "pods" has a threshold (fitCheck, score).
            if (r == slots.pods && r >= slots.thresholds) {
                values[r] = 0;
                present[r] = 0;
                continue;
            }
            const kd_resource* found = find_resource(u, slots.names[r]);
            int64_t q = found ? found->milli : 0;
            values[r] = q;
            present[r] = found != nullptr;
            if (r == slots.pods) continue;  // the pods slot of usage is the pod count
            usage[r] += q;
            pod_sum[r] += q;
            non_negative = non_negative && q >= 0;
        }
    }
    NodeEntry& n = state.nodes[idx];
    n.entry_begin = static_cast<uint32_t>(first);
    n.non_negative = non_negative;
    if (slots.pods < slots.thresholds) {
        // "pods" has a threshold: classification needs the count of every node.
        uint32_t pods = 0;
        for (auto p : snapshot.pods_on_node(node.name())) pods += !finished(p);
        usage[slots.pods] = pod_sum[slots.pods] = static_cast<int64_t>(pods) * 1000;
    }
    return true;
}

void NodeUsageLoader::resolve(PoolState& state, const kd::Snapshot& snapshot, size_t idx, const ResourceSlots& slots) {
    if (state.nodes[idx].resolved) return;
    const kd_node_metric* m = state.nodes[idx].metric;
    const uint32_t begin = static_cast<uint32_t>(state.pods.size());
    size_t prod_pods = 0;
    auto on_node = snapshot.pods_on_node(kd::sv(state.nodes[idx].node->name));
    // The priority class reads each pod's template and its labels, two pointer hops from the pod
    // (which the host has already asked the cache for): asking for every pod's next hop before
    // reading any overlaps the misses of the node's pods instead of taking them one after another.
    prefetch_specs(on_node);
    for (auto p : on_node) __builtin_prefetch(p.raw()->spec->labels.items);
    for (auto p : on_node) {
        if (finished(p)) continue;
        PriorityClass c = priority_class(p);
        prod_pods += c == PriorityClass::prod;
        state.pods.push_back({p.raw(), -1, c});
    }
    NodeEntry& n = state.nodes[idx];
    n.pod_begin = begin;
    n.pod_end = static_cast<uint32_t>(state.pods.size());
    indexed_ = false;

    // Only entries of this node's prod pods count toward prod usage. A later entry for the same
    // pod replaces the earlier one as "the pod's metric" (a Go map assignment).
    int64_t* prod_usage = state.vec(idx, PoolState::kProdUsage);
    std::fill(prod_usage, prod_usage + slots.size(), 0);
    for (size_t j = 0; j < m->pod_count; ++j) {
        const kd_pod_metric* pm = metric_entry(m, j);
        int32_t local = find_pod(state, n, j, kd::sv(pm->namespace_), kd::sv(pm->name));
        if (local < 0) continue;
        PodEntry& e = state.pods[n.pod_begin + local];
        e.metric = static_cast<int32_t>(j);
        if (e.priority_class != PriorityClass::prod) continue;
        const int64_t* values = state.entry_usage(n, static_cast<int32_t>(j));
        for (size_t r = 0; r < slots.size(); ++r)
            if (r != slots.pods) prod_usage[r] += values[r];
    }
    const int64_t pods = static_cast<int64_t>(n.pod_end - n.pod_begin) * 1000;
    state.vec(idx, PoolState::kUsage)[slots.pods] = pods;
    state.vec(idx, PoolState::kPodSum)[slots.pods] = pods;
    prod_usage[slots.pods] = static_cast<int64_t>(prod_pods) * 1000;
    n.resolved = true;
}

}  // namespace kd::plugins::lownodeload
