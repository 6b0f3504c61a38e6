// PodsPerNodeCap: a balance plugin that keeps at most `maxPodsPerNode` pods (of the chosen
// namespaces and labels) on each node by evicting the youngest ones above the cap. The second
// example of a third-party kdesched plugin: args with kd::Namespaces and kd::LabelSelector, and
// the eviction loop from kd::evict_in_order, so nodeFit and the eviction limits are the host's.
#pragma once

#include <kdesched/eviction_loop.hpp>
#include <kdesched/label_selector.hpp>
#include <kdesched/namespaces.hpp>
#include <kdesched/plugin.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace example {

struct PodsPerNodeCapArgs {
    // Optional in the type only so that a missing key is told apart from a wrong value: required.
    std::optional<int64_t> maxPodsPerNode;
    std::optional<kd::Namespaces> namespaces;        // absent = every namespace
    std::optional<kd::LabelSelector> labelSelector;  // absent or empty = every pod

    template <class V>
    void fields(V& v) {
        v("maxPodsPerNode", maxPodsPerNode);
        v("namespaces", namespaces);
        v("labelSelector", labelSelector);
    }
    // kd::Namespaces and kd::LabelSelector validate themselves (decode.hpp runs nested validate()).
    void validate(kd::Errors& errs, const std::string& path) const {
        std::string p = kd::field_path(path, "maxPodsPerNode");
        if (!maxPodsPerNode)
            errs.add(p, "required (the most pods a node may keep, >= 1)");
        else if (*maxPodsPerNode < 1)
            errs.add(p, "must be >= 1 (got " + std::to_string(*maxPodsPerNode) + ")");
    }
};

class PodsPerNodeCap {
public:
    static constexpr const char* kName = "PodsPerNodeCap";
    static constexpr const char* kVersion = "1.0.0";
    static constexpr const char* kDescription = "evicts the youngest pods above maxPodsPerNode on each node";
    using Args = PodsPerNodeCapArgs;

    PodsPerNodeCap(kd::Host&, Args args) : args_(std::move(args)), cap_(static_cast<size_t>(*args_.maxPodsPerNode)) {}

    void balance(kd::Cycle& cycle) {
        auto snap = cycle.snapshot();
        for (auto node : snap.nodes())
            if (!balance_node(cycle, snap, node)) return;  // the total limit: nothing more can go
    }

private:
    // Returns false when the cycle's total eviction limit was reached.
    bool balance_node(const kd::Cycle& cycle, const kd::Snapshot& snap, const kd::Node& node) {
        // The pods the cap is about: every one in scope counts, even one a filter protects (it
        // still takes its place on the node); only those the filters allow may leave.
        std::vector<kd::Pod> counted;
        for (auto pod : snap.pods_on_node(node.name()))
            if (counts(pod)) counted.push_back(pod);
        if (counted.size() <= cap_) return true;

        // Youngest first; namespace and name break ties so that the order (and so the result)
        // does not depend on the host's pod order.
        std::sort(counted.begin(), counted.end(), [](const kd::Pod& a, const kd::Pod& b) {
            return std::make_tuple(-a.creation_ms(), a.ns(), a.name()) <
                   std::make_tuple(-b.creation_ms(), b.ns(), b.name());
        });
        std::vector<kd::Pod> candidates;
        for (const auto& pod : counted)
            if (cycle.filter(pod).allowed) candidates.push_back(pod);  // the host records a rejection

        const size_t excess = counted.size() - cap_;
        const std::string reason = "node " + std::string(node.name()) + " runs " + std::to_string(counted.size()) +
                                   " pods, more than maxPodsPerNode " + std::to_string(cap_);
        kd::EvictionLoop how;
        how.reason = reason;
        how.stop_at_node_limit = true;  // one node's pods: its limit ends this node, not the cycle
        how.at_most = excess;
        kd::EvictionTally tally = kd::evict_in_order(cycle, candidates, how);

        // The pods the loop never asked about, for `kdesched simulate --explain`.
        std::string why =
            tally.stopped_by == KD_EVICT_LIMIT_TOTAL ? "LimitReached: the cycle's total limit"
            : tally.stopped_by == KD_EVICT_LIMIT_NODE
                ? "LimitReached: the node's limit"
                : "WithinCap: " + std::string(node.name()) + " is down to the cap of " + std::to_string(cap_);
        for (size_t i = candidates.size() - tally.untried; i < candidates.size(); ++i)
            cycle.report_pod(candidates[i], "skipped", why);
        return tally.stopped_by != KD_EVICT_LIMIT_TOTAL;
    }

    bool counts(const kd::Pod& pod) const {
        // A pod already leaving or finished no longer holds a place.
        if (pod.terminating() || pod.phase() == KD_POD_SUCCEEDED || pod.phase() == KD_POD_FAILED) return false;
        if (args_.namespaces && !args_.namespaces->allows(pod.ns())) return false;
        return !args_.labelSelector ||
               args_.labelSelector->matches([&](const std::string& key) { return pod.labels().get(key); });
    }

    Args args_;
    size_t cap_;
};

}  // namespace example
