#include "eviction.hpp"

#include "classify.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kd::plugins::lownodeload {

namespace {

// Appends Go's fmt "%.2f" (C's printf agrees on finite values; Go spells infinities "+Inf"/"-Inf").
void append_fixed2(std::string& out, double v) {
    if (std::isnan(v)) {
        out += "NaN";
    } else if (std::isinf(v)) {
        out += v > 0 ? "+Inf" : "-Inf";
    } else {
        char buf[64];
        int n = std::snprintf(buf, sizeof buf, "%.2f", v);
        out.append(buf, static_cast<size_t>(n));
    }
}

std::string pod_ref(const kd::Pod& pod) {
    std::string s;
    s.reserve(pod.ns().size() + pod.name().size() + 1);
    s.append(pod.ns()).append("/").append(pod.name());
    return s;
}

constexpr const char* kNodeBalanced = "NodeBalanced";

// Why a source with `used` against `high` and targets with `total` room left stops giving up
// pods, or nullptr.
const char* stop_code(const int64_t* used, const int64_t* high, const int64_t* total, size_t n) {
    if (!over(used, high, n)) return kNodeBalanced;
    for (size_t r = 0; r < n; ++r)
        if (total[r] <= 0) return "CapacityExhausted";
    return nullptr;
}

// Takes one evicted pod's usage (and one pod in the "pods" slot) off `v`.
void subtract_pod(int64_t* v, const int64_t* usage, size_t n, size_t pods_slot) {
    for (size_t r = 0; r < n; ++r) v[r] = sat_sub(v[r], r == pods_slot ? 1000 : usage[r]);
}

}  // namespace

void overutilized_reason(std::string& out, const Pool& pool, const PoolState& state, uint32_t node, bool prod) {
    const int64_t* used = state.vec(node, prod ? PoolState::kProdUsage : PoolState::kUsage);
    const int64_t* high = state.vec(node, prod ? PoolState::kProdHigh : PoolState::kHigh);
    const int64_t* alloc = state.vec(node, PoolState::kAlloc);
    const auto& named = prod ? pool.percents.in_prod_high : pool.percents.in_high;
    const auto& percent = prod ? pool.percents.prod_high : pool.percents.high;
    out.assign("node is overutilized, ");
    bool first = true;
    for (size_t r = 0; r < pool.slots.thresholds; ++r) {
        if (!named[r] || used[r] <= high[r]) continue;
        // Float division like Go: a zero allocatable gives +Inf rather than a crash.
        double pct = 100.0 * static_cast<double>(used[r]) / static_cast<double>(alloc[r]);
        if (!first) out += ", ";
        first = false;
        out += prod ? "prod " : "node ";
        out += pool.slots.names[r];
        out += " usage(";
        append_fixed2(out, pct);
        out += "%)>threshold(";
        append_fixed2(out, percent[r]);
        out += "%)";
    }
}

std::string overutilized_reason(const Pool& pool, const PoolState& state, uint32_t node, bool prod) {
    std::string out;
    overutilized_reason(out, pool, state, node, prod);
    return out;
}

bool PhaseRunner::passes_node_fit(const kd::Pod& pod, size_t t, const kd::Node& node) {
    // NodeFit (koord's pkg/descheduler/node) as kd::NodeRequestTotals::check, with the request
    // sums taken from it once per target and kept as "free = allocatable − requested" per
    // resource: check() looks the node up by name and scans its lists again for every resource
    // of every candidate.
    if (node.unschedulable()) return false;
    if (!kd::pod_tolerates_node_taints(pod, node)) return false;
    if (!kd::pod_matches_node_selector(pod, node)) return false;
    const kd_resource_list want = pod.requests().raw();  // a copy: the view is a temporary
    if (want.count == 0) return true;
    auto& range = scratch.free_range[t];
    if (range.first > range.second) {
        range.first = static_cast<uint32_t>(scratch.free.size());
        auto add = [&](std::string_view name, int64_t milli) {
            for (size_t i = range.first; i < scratch.free.size(); ++i)
                if (same_name(scratch.free[i].name, name)) return;  // the first entry wins, as Resources::milli
            scratch.free.push_back({name, milli});
        };
        const kd_resource_list& alloc = node.raw()->allocatable;
        for (size_t i = 0; i < alloc.count; ++i) {
            std::string_view name = kd::sv(alloc.items[i].name);
            add(name, alloc.items[i].milli - requests.requested(node, name));
        }
        // Requested but not allocatable: 0 available minus what is requested.
        for (const auto& total : requests.totals(node)) add(total.name, -total.milli);
        range.second = static_cast<uint32_t>(scratch.free.size());
    }
    for (size_t i = 0; i < want.count; ++i) {
        std::string_view name = kd::sv(want.items[i].name);
        int64_t free = 0;  // neither allocatable nor requested
        for (uint32_t k = range.first; k < range.second; ++k) {
            if (same_name(scratch.free[k].name, name)) {
                free = scratch.free[k].milli;
                break;
            }
        }
        if (want.items[i].milli > free) return false;
    }
    return true;
}

bool PhaseRunner::fits_any_target(const kd::Pod& pod, const std::vector<uint32_t>& targets) {
    TargetIndex& index = scratch.index;
    const int64_t* need = scratch.need.data();
    // First target (in order) within its high threshold after adding the pod's usage and passing
    // NodeFit. Thresholds first: they are cheap, and the answer is the same as NodeFit-first
    // because both must hold and nothing is kept on a target that fails either.
    for (size_t t = index.next_fit(0, need); t < index.size(); t = index.next_fit(t + 1, need)) {
        if (!passes_node_fit(pod, t, kd::Node(state.nodes[targets[t]].node))) continue;
        // [quirk] the pod's usage stays on the target: a tentative reservation for the next
        // candidates, kept even if this pod is never evicted.
        index.reserve(t, need);
        return true;
    }
    return false;
}

const char* PhaseRunner::stop_reason(uint32_t src, const std::vector<int64_t>& total, bool prod,
                                     DetectorCache& detectors) {
    const int64_t* used = state.vec(src, prod ? PoolState::kProdUsage : PoolState::kUsage);
    const int64_t* high = state.vec(src, prod ? PoolState::kProdHigh : PoolState::kHigh);
    const char* why = stop_code(used, high, total.data(), pool.slots.thresholds);
    if (why == kNodeBalanced) {
        // Balanced: the node starts its anomaly count over.
        if (AnomalyDetector* d = detectors.find(kd::sv(state.nodes[src].node->name), cycle.now_ms()))
            d->reset(cycle.now_ms());
    }
    return why;
}

size_t PhaseRunner::pods_needed(uint32_t src, const std::vector<int64_t>& total, bool prod) {
    const NodeEntry& node = state.nodes[src];
    const size_t n = pool.slots.thresholds;
    const int64_t* used = state.vec(src, prod ? PoolState::kProdUsage : PoolState::kUsage);
    const int64_t* high = state.vec(src, prod ? PoolState::kProdHigh : PoolState::kHigh);
    scratch.used_left.assign(used, used + n);
    scratch.total_left.assign(total.begin(), total.begin() + static_cast<std::ptrdiff_t>(n));
    for (size_t k = 0; k < scratch.keys.size(); ++k) {
        if (stop_code(scratch.used_left.data(), high, scratch.total_left.data(), n)) return k;
        const PodEntry& entry = state.pods[scratch.keys[k].pod];
        if (entry.metric < 0) continue;  // as evict_pods: nothing known to subtract
        const int64_t* usage = state.entry_usage(node, entry.metric);
        subtract_pod(scratch.used_left.data(), usage, n, pool.slots.pods);
        subtract_pod(scratch.total_left.data(), usage, n, pool.slots.pods);
    }
    return scratch.keys.size();
}

size_t PhaseRunner::consult_picker(uint32_t src, const std::vector<int64_t>& total, bool prod) {
    const size_t all = scratch.keys.size();
    if (!picker) return all;
    const size_t needed = pods_needed(src, total, prod);
    // Only a choice among more candidates than needed is the picker's to make.
    if (needed == 0 || needed >= all) return all;
    std::string_view node = kd::sv(state.nodes[src].node->name);
    return rank_by_picker(cycle, *picker, node, state, scratch.keys, needed, picker_log) ? needed : all;
}

void PhaseRunner::evict_pods(uint32_t src, std::vector<int64_t>& total, bool prod, DetectorCache& detectors,
                             size_t cap) {
    const NodeEntry& node = state.nodes[src];
    const size_t n = pool.slots.thresholds;
    size_t evicted = 0;
    for (size_t k = 0; k < scratch.keys.size(); ++k) {
        const char* stop = stop_reason(src, total, prod, detectors);
        if (!stop && evicted == cap) stop = "PickerLimit";
        if (stop) {
            for (; k < scratch.keys.size(); ++k) skipped(kd::Pod(state.pods[scratch.keys[k].pod].pod), stop);
            break;
        }
        const PodEntry& entry = state.pods[scratch.keys[k].pod];
        kd::Pod pod(entry.pod);
        if (const char* why = filter.rejection(cycle, pod)) {
            if (std::string_view(why) != "Filter") skipped(pod, why);
            continue;
        }
        if (dry_run) {
            cycle.info("Evict pod in dry run mode pod=\"" + pod_ref(pod) + "\" node=\"" +
                       std::string(kd::sv(node.node->name)) + "\" nodePool=\"" + pool.name + "\"");
        } else {
            if (limits.blocks(pod)) {
                skipped(pod, "LimitReached");
                continue;
            }
            overutilized_reason(scratch.reason, pool, state, src, prod);
            // Koordinator's LowNodeLoad never calls PreEvictionFilter (it checks node fit itself,
            // above): the host must not run it either (pkg/descheduler/framework/plugins/loadaware).
            kd::EvictOutcome out = cycle.evict(pod, scratch.reason, {.pre_eviction_filter = false});
            limits.record(pod, out.code);
            if (!out.evicted()) {
                cycle.debug("Failed to evict pod pod=\"" + pod_ref(pod) + "\" result=\"" +
                            kd::evict_code_name(out.code) + "\" reason=\"" + out.reason + "\"");
                continue;
            }
        }
        ++evicted;
        if (entry.metric < 0) continue;  // evicted, but nothing known to subtract
        const int64_t* usage = state.entry_usage(node, entry.metric);
        subtract_pod(total.data(), usage, n, pool.slots.pods);
        subtract_pod(state.vec(src, PoolState::kUsage), usage, n, pool.slots.pods);
        if (prod) subtract_pod(state.vec(src, PoolState::kProdUsage), usage, n, pool.slots.pods);
    }
}

void PhaseRunner::run(const std::vector<uint32_t>& sources, const std::vector<uint32_t>& targets,
                      std::vector<int64_t>& total, bool prod, DetectorCache& detectors) {
    if (targets.empty()) return;
    const size_t n = pool.slots.thresholds;
    if (node_fit) {
        scratch.index.build(state, targets, prod, n);
        scratch.free.clear();
        scratch.free_range.assign(targets.size(), {1, 0});
    }
    scratch.need.assign(n, 0);
    for (uint32_t src : sources) {
        resolve(src);
        const NodeEntry& node = state.nodes[src];
        scratch.removable.clear();
        for (uint32_t i = node.pod_begin; i < node.pod_end; ++i) {
            const PodEntry& entry = state.pods[i];
            if (prod && entry.priority_class != PriorityClass::prod) continue;
            kd::Pod pod(entry.pod);
            if (const char* why = filter.rejection(cycle, pod)) {
                if (std::string_view(why) != "Filter") skipped(pod, why);
                continue;
            }
            if (node_fit) {
                if (entry.metric < 0) {  // no usage to place on a target
                    skipped(pod, "NoPodMetric");
                    continue;
                }
                const int64_t* usage = state.entry_usage(node, entry.metric);
                std::copy(usage, usage + n, scratch.need.begin());
                if (!fits_any_target(pod, targets)) {
                    skipped(pod, "NodeFit");
                    continue;
                }
            }
            scratch.removable.push_back(i);
        }
        if (scratch.removable.empty()) {
            cycle.debug("No removable pods on node node=\"" + std::string(kd::sv(node.node->name)) + "\" nodePool=\"" +
                        pool.name + "\"");
            continue;
        }
        const int64_t* used = state.vec(src, prod ? PoolState::kProdUsage : PoolState::kUsage);
        const int64_t* high = state.vec(src, prod ? PoolState::kProdHigh : PoolState::kHigh);
        scratch.keys.clear();
        for (uint32_t i : scratch.removable) {
            const PodEntry& entry = state.pods[i];
            const bool has = entry.metric >= 0;
            scratch.keys.push_back(make_pod_order_key(entry, i, has ? state.entry_usage(node, entry.metric) : nullptr,
                                                      has ? state.entry_has(node, entry.metric) : nullptr, used, high,
                                                      pool.slots, pool.weights));
        }
        sort_pods(scratch.keys);
        const size_t cap = consult_picker(src, total, prod);
        evict_pods(src, total, prod, detectors, cap);
    }
}

}  // namespace kd::plugins::lownodeload
