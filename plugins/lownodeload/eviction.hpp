// One eviction phase (koord's loadaware `balancePods`/`evictPods`): candidates per source node
// (filter + fitCheck with its tentative reservation), the pod order, the continue condition with
// its detector reset, the Evictor call with the exact reason string, and the accounting.
#pragma once

#include "anomaly.hpp"
#include "capacity.hpp"
#include "picker_ranking.hpp"
#include "pod_filter.hpp"
#include "pool_state.hpp"
#include "pools.hpp"
#include "scoring.hpp"

#include <kdesched/node_fit.hpp>
#include <kdesched/plugin.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace kd::plugins::lownodeload {

// Eviction limits already hit in this Balance call. The host's counters only grow within a cycle,
// so once a limit answers for a node, a namespace or the total, every later request it covers
// would fail the same way: those requests are skipped (with no accounting, as a failed one).
class EvictLimits {
public:
    void clear() {
        total_ = false;
        nodes_.clear();
        namespaces_.clear();
    }
    // True when a previous answer already rules this pod out.
    bool blocks(const kd::Pod& pod) const {
        return total_ || nodes_.count(pod.node_name()) || namespaces_.count(pod.ns());
    }
    // Remembers a limit answer. Views point into the snapshot, valid for the whole hook call.
    void record(const kd::Pod& pod, kd_evict_code code) {
        if (code == KD_EVICT_LIMIT_TOTAL) total_ = true;
        if (code == KD_EVICT_LIMIT_NODE) nodes_.insert(pod.node_name());
        if (code == KD_EVICT_LIMIT_NAMESPACE) namespaces_.insert(pod.ns());
    }

private:
    bool total_ = false;
    std::unordered_set<std::string_view> nodes_, namespaces_;
};

// `"node is overutilized, " + join(", ", items)`, one item per over-threshold resource named in
// the pool's (normalised) high map, in name order:
// `<node|prod> <resource> usage(<pct %.2f>%)>threshold(<configured percent %.2f>%)`,
// pct = 100 × used / raw allocatable.
// Writes into `out` (a reused buffer: no allocation once it is large enough).
void overutilized_reason(std::string& out, const Pool& pool, const PoolState& state, uint32_t node, bool prod);
std::string overutilized_reason(const Pool& pool, const PoolState& state, uint32_t node, bool prod);

// Everything one phase needs; scratch vectors are reused across phases and cycles.
struct PhaseRunner {
    kd::Cycle& cycle;
    const Pool& pool;
    PoolState& state;
    kd::NodeRequestTotals& requests;  // NodeFit (node_fit.hpp) request sums, one per snapshot
    const PodFilter& filter;
    EvictLimits& limits;
    bool dry_run;   // plugin-level dryRun: log instead of calling the Evictor, account anyway
    bool node_fit;  // fitCheck on/off
    // Makes a source node's pods available (NodeUsageLoader::resolve), right before they are used
    // so that they are still in cache for filtering, fitting, sorting and evicting.
    std::function<void(uint32_t)> resolve;
    const kd::PodPickerArgs* picker;  // podPicker, nullptr when not configured
    PickerFallbackLog& picker_log;

    // Runs one phase: `sources` sorted, `targets` in order, `total` consumed in place.
    // `detectors`: the cache (node or prod) whose entry is Reset when a source stops being over.
    void run(const std::vector<uint32_t>& sources, const std::vector<uint32_t>& targets, std::vector<int64_t>& total,
             bool prod, DetectorCache& detectors);

    // Scratch, owned by the caller so that it survives across calls.
    struct Scratch {
        TargetIndex index;
        std::vector<uint32_t> removable;
        std::vector<PodOrderKey> keys;
        std::vector<int64_t> need;
        std::vector<int64_t> used_left, total_left;  // pods_needed's running accounts
        std::string reason;
        // Per target: allocatable − Σ requests by resource, built on first use (see fits_requests).
        struct Free {
            std::string_view name;
            int64_t milli;
        };
        std::vector<Free> free;
        std::vector<std::pair<uint32_t, uint32_t>> free_range;  // per target, into `free`; first > second = not built
    };
    Scratch& scratch;

private:
    bool fits_any_target(const kd::Pod& pod, const std::vector<uint32_t>& targets);
    bool passes_node_fit(const kd::Pod& pod, size_t t, const kd::Node& node);
    // nullptr while the source should go on giving up pods, else why it stops: "NodeBalanced" (no
    // longer over its high threshold; its detector is Reset) or "CapacityExhausted" (the targets
    // have no room left).
    const char* stop_reason(uint32_t src, const std::vector<int64_t>& total, bool prod, DetectorCache& detectors);
    // How many of the sorted candidates the built-in order would evict, every request succeeding,
    // before the source stops.
    size_t pods_needed(uint32_t src, const std::vector<int64_t>& total, bool prod);
    // With a picker and more candidates than needed: asks it and re-ranks. Returns how many pods
    // may be evicted from the source: the number needed once the picker has reordered them (so it
    // never evicts more than the built-in order would), else every candidate.
    size_t consult_picker(uint32_t src, const std::vector<int64_t>& total, bool prod);
    // Tells the host why a candidate stays (`kdesched simulate --explain`).
    void skipped(const kd::Pod& pod, const char* reason) const { cycle.report_pod(pod, "skipped", reason); }
    // Evicts the sorted candidates in order, at most `cap` of them.
    void evict_pods(uint32_t src, std::vector<int64_t>& total, bool prod, DetectorCache& detectors, size_t cap);
};

}  // namespace kd::plugins::lownodeload
