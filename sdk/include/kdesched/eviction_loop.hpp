// Asking the host to evict a list of pods, the way upstream's plugins do (kubernetes-sigs/
// descheduler pkg/framework/plugins/podlifetime/pod_lifetime.go, v0.35.1): in the caller's order,
// a pod refused by its node's or namespace's limit is passed over and the next one tried (it may
// be on another node), a filter's rejection or a failed eviction likewise, and the total limit
// ends the loop, since no later request can succeed in this cycle. What the host decided about
// each pod is already in `kdesched simulate --explain`; the tally says why the loop ended.
#pragma once

#include <kdesched/plugin.hpp>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <type_traits>

namespace kd {

struct EvictionLoop {
    std::string_view reason;  // why, for Events and logs ("pod is older than 1h")
    EvictOptions options{};   // the PreEvictionFilter runs unless options say otherwise
    // End the loop at the node's limit too: for a loop over one node's pods (upstream's
    // nodeutilization, which then moves on to the next node).
    bool stop_at_node_limit = false;
    // Evict at most this many (the plugin's own cap: "down to N pods on this node").
    size_t at_most = SIZE_MAX;
};

struct EvictionTally {
    size_t evicted = 0;  // accepted, or would be in dry run
    size_t refused = 0;  // filtered, over a node or namespace limit, or failed
    size_t untried = 0;  // pods the loop ended before
    // Why the loop ended early: KD_EVICT_LIMIT_TOTAL, KD_EVICT_LIMIT_NODE (stop_at_node_limit),
    // or KD_EVICT_ACCEPTED when it reached at_most or went through every pod.
    kd_evict_code stopped_by = KD_EVICT_ACCEPTED;
    bool reached_at_most = false;
};

namespace detail {
inline Pod as_pod(const Pod& p) {
    return p;
}
inline Pod as_pod(const kd_pod* p) {
    return Pod(p);
}
struct IgnoreOutcome {
    void operator()(const Pod&, const EvictOutcome&) const {}
};
}  // namespace detail

// Walks `pods` (kd::Pod or const kd_pod* elements) and asks the host to evict each; `on_outcome`
// (optional: void(const kd::Pod&, const kd::EvictOutcome&)) sees every answer, e.g. to count
// what a node has lost.
template <class Range, class OnOutcome = detail::IgnoreOutcome>
EvictionTally evict_in_order(const Cycle& cycle, const Range& pods, const EvictionLoop& how,
                             OnOutcome&& on_outcome = {}) {
    EvictionTally tally;
    size_t seen = 0, total = static_cast<size_t>(std::distance(std::begin(pods), std::end(pods)));
    for (const auto& element : pods) {
        if (tally.evicted >= how.at_most) {
            tally.reached_at_most = true;
            break;
        }
        Pod pod = detail::as_pod(element);
        ++seen;
        EvictOutcome out = cycle.evict(pod, how.reason, how.options);
        on_outcome(pod, out);
        if (out.evicted()) {
            ++tally.evicted;
            continue;
        }
        ++tally.refused;
        if (out.code == KD_EVICT_LIMIT_TOTAL || (out.code == KD_EVICT_LIMIT_NODE && how.stop_at_node_limit)) {
            tally.stopped_by = out.code;
            break;
        }
    }
    if (tally.evicted >= how.at_most && seen < total) tally.reached_at_most = true;
    tally.untried = total - seen;
    return tally;
}

}  // namespace kd
