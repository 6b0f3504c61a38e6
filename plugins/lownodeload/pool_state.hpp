// The per-pool working set of one Balance call: the pool's nodes that have usage (node_usage.hpp),
// their pods, and every per-node resource vector, in flat arrays so that a 10k-node pool costs a
// handful of allocations (reused from cycle to cycle), not several per node or per pod.
#pragma once

#include <kdesched/abi.h>
#include <kdesched/koord_pod.hpp>
#include <kdesched/view.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kd::plugins::lownodeload {

// The resources a pool works with, each given a slot index.
struct ResourceSlots {
    // Threshold resources first (the normalised low-threshold keys, sorted), then "pods" when it has
    // no threshold: the usage map always carries the pod count (as koord's does) and the node score
    // reads it.
    std::vector<std::string> names;
    size_t thresholds = 0;  // slots [0, thresholds) have thresholds ("resourceNames")
    size_t pods = 0;        // the slot of "pods"
    size_t size() const { return names.size(); }
};

// Koordinator priority class (apis/extension).
using PriorityClass = kd::koord::PriorityClass;

// The five classification buckets (koord's `processOneNodePool`); `none` = appropriately utilised.
enum class Bucket : uint8_t { none, low, high, prod_low, prod_high, both_low };

// One non-finished pod of a pool node.
struct PodEntry {
    const kd_pod* pod;
    int32_t metric;  // index into the node's NodeMetric podsMetric, -1 when it has none
    PriorityClass priority_class;
};

// One pool node that has a usable NodeMetric.
struct NodeEntry {
    const kd_node* node;
    const kd_node_metric* metric;
    uint32_t pod_begin = 0, pod_end = 0;  // range in PoolState::pods (filled when resolved)
    Bucket bucket = Bucket::none;
    // The node's pods have been listed and matched to their metrics: kProdUsage, the pods slot of
    // kUsage (when "pods" has no threshold) and the pod range are valid. Until then only kUsage
    // (threshold slots), kPodSum and kAlloc are. See NodeUsageLoader.
    bool resolved = false;
    // Every podsMetric quantity of the threshold slots is ≥ 0, so 0 ≤ prod usage ≤ kPodSum.
    bool non_negative = true;
    uint32_t entry_begin = 0;  // first podsMetric entry of this node in PoolState's entry arrays
};

// String equality inlined for the short names of the hot loops (resource and pod names): the
// length check rejects most pairs, and no libc call is made per comparison.
inline bool same_name(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    // The host interns names and lets a podsMetric entry share its pod's name: the same text is
    // often the same bytes, which is then settled without reading them (a cache miss each).
    if (a.data() == b.data()) return true;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) return false;
    return true;
}

// kd::Resources::find (first entry with that name) with same_name.
inline const kd_resource* find_resource(const kd_resource_list& list, std::string_view name) {
    for (size_t i = 0; i < list.count; ++i)
        if (same_name(kd::sv(list.items[i].name), name)) return &list.items[i];
    return nullptr;
}
// kd::Resources::milli: 0 when absent.
inline int64_t resource_milli(const kd_resource_list& list, std::string_view name) {
    const kd_resource* r = find_resource(list, name);
    return r ? r->milli : 0;
}

class PoolState {
public:
    // The per-node resource vectors, `slots` values each (milli-units).
    enum Vector : size_t {
        kUsage,      // systemUsage + Σ podsMetric (node_usage.hpp); pods slot = pod count × 1000
        kProdUsage,  // Σ podsMetric of prod pods; pods slot = prod pod count × 1000 (resolved nodes)
        kPodSum,     // Σ podsMetric (no systemUsage); pods slot = pod count × 1000 when known
        kAlloc,      // raw allocatable
        kLow,        // absolute thresholds (thresholds.hpp)
        kHigh,
        kProdLow,
        kProdHigh,
        kVectors
    };

    // Empties the state for a pool with `slots` resource slots (capacity is kept).
    // `nodes_hint`/`entries_hint`: expected node and podsMetric entry (≈ pod) counts, reserved up
    // front so that the first cycle does not copy the arrays over and over while they grow.
    void reset(size_t slots, size_t nodes_hint = 0, size_t entries_hint = 0) {
        slots_ = slots;
        nodes.clear();
        pods.clear();
        values_.clear();
        entry_values.clear();
        entry_present.clear();
        nodes.reserve(nodes_hint);
        pods.reserve(entries_hint);  // only resolved nodes add pods; untouched capacity costs no page
        values_.reserve(nodes_hint * kVectors * slots);
        entry_values.reserve(entries_hint * slots);
        entry_present.reserve(entries_hint * slots);
    }
    size_t slots() const { return slots_; }

    // Appends a node with zeroed vectors; returns its index.
    size_t add_node(const kd_node* node, const kd_node_metric* metric) {
        nodes.push_back(NodeEntry{node, metric});
        values_.resize(values_.size() + kVectors * slots_, 0);
        return nodes.size() - 1;
    }
    int64_t* vec(size_t node, Vector v) { return values_.data() + (node * kVectors + v) * slots_; }
    const int64_t* vec(size_t node, Vector v) const { return values_.data() + (node * kVectors + v) * slots_; }

    // Usage of podsMetric entry `j` of node `n` per slot (read once, at load, so that later steps
    // do not chase the metric's name strings again), and whether the entry names the resource.
    const int64_t* entry_usage(const NodeEntry& n, int32_t j) const {
        return entry_values.data() + (static_cast<size_t>(n.entry_begin) + static_cast<size_t>(j)) * slots_;
    }
    const uint8_t* entry_has(const NodeEntry& n, int32_t j) const {
        return entry_present.data() + (static_cast<size_t>(n.entry_begin) + static_cast<size_t>(j)) * slots_;
    }

    std::vector<NodeEntry> nodes;
    std::vector<PodEntry> pods;
    std::vector<int64_t> entry_values;   // slots() per podsMetric entry, node after node
    std::vector<uint8_t> entry_present;  // same layout: 1 when the entry names the slot's resource

private:
    size_t slots_ = 0;
    std::vector<int64_t> values_;
};

}  // namespace kd::plugins::lownodeload
