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

// How evict_in_order asks: with which reason and options, and when it stops.
struct EvictionLoop {
    std::string_view reason;  // why, for Events and logs ("pod is older than 1h")
    EvictOptions options{};   // the PreEvictionFilter runs unless options say otherwise
    // End the loop at the node's limit too: for a loop over one node's pods (upstream's
    // nodeutilization, which then moves on to the next node).
    bool stop_at_node_limit = false;
    // Evict at most this many (the plugin's own cap: "down to N pods on this node").
    size_t at_most = SIZE_MAX;
};

// What evict_in_order did, and why it ended.
struct EvictionTally {
    size_t evicted = 0;  // accepted, or would be in dry run
    size_t refused = 0;  // filtered, over a limit (the one that ended the loop too), or failed
    size_t untried = 0;  // pods the loop ended before
    // Why the loop ended early: KD_EVICT_LIMIT_TOTAL, KD_EVICT_LIMIT_NODE (stop_at_node_limit);
    // KD_EVICT_ACCEPTED when it reached at_most or went through every pod.
    kd_evict_code stopped_by = KD_EVICT_ACCEPTED;
    // The loop evicted at_most pods (whether or not pods were left: see untried).
    bool reached_at_most = false;
};

namespace detail {
// How many elements a range has: its size(), or counted. Not std::distance: the snapshot's
// ranges (kd::PtrRange) have iterators std::iterator_traits does not describe.
template <class Range>
size_t count_of(const Range& range) {
    if constexpr (requires { std::size(range); }) {
        return static_cast<size_t>(std::size(range));
    } else {
        size_t n = 0;
        for (auto it = std::begin(range), end = std::end(range); it != end; ++it) ++n;
        return n;
    }
}
// The host filters and evicts each pod reading its record and its spec; pods in a plugin's order
// (oldest first, by usage) lie anywhere in memory, so a range that can be indexed has the pods a
// few places ahead asked for while the current one is evicted.
template <class Range>
void prefetch_ahead(const Range& pods, size_t i, size_t total) {
    if constexpr (requires { pods[i]; }) {
        if (i + 8 < total) __builtin_prefetch(Pod(pods[i + 8]).raw());
        if (i + 4 < total) __builtin_prefetch(Pod(pods[i + 4]).raw()->spec);
    }
}
// evict_in_order's default on_outcome.
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
    size_t total = detail::count_of(pods), asked = 0;
    // Checked before each request, as upstream's nodeutilization checks maxNoOfPodsToEvictPerNode
    // (pkg/framework/plugins/nodeutilization/nodeutilization.go, v0.35.1), so no request is made
    // past the cap; at_most 0 asks for nothing.
    tally.reached_at_most = how.at_most == 0;
    for (const auto& element : pods) {
        if (tally.reached_at_most) break;
        detail::prefetch_ahead(pods, asked, total);
        Pod pod(element);  // from a kd::Pod or a const kd_pod*
        ++asked;
        EvictOutcome out = cycle.evict(pod, how.reason, how.options);
        on_outcome(pod, out);
        if (out.evicted()) {
            tally.reached_at_most = ++tally.evicted >= how.at_most;
            continue;
        }
        ++tally.refused;
        if (out.code == KD_EVICT_LIMIT_TOTAL || (out.code == KD_EVICT_LIMIT_NODE && how.stop_at_node_limit)) {
            tally.stopped_by = out.code;
            break;
        }
    }
    tally.untried = total - asked;
    return tally;
}

}  // namespace kd
