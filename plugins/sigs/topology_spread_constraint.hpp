// One pod's topology spread constraint as the plugin balances it: the selector with matchLabelKeys
// merged in, and the node inclusion policies resolved against the pod that declared it
// (newTopologySpreadConstraint in
// pkg/framework/plugins/removepodsviolatingtopologyspreadconstraint/topologyspreadconstraint.go@v0.35.1).
// minDomains is not part of it: upstream ignores it when balancing.
#pragma once

#include <kdesched/label_selector.hpp>
#include <kdesched/view.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kd::plugins::sigs {

class SpreadConstraint {
public:
    // The constraint `c` of `pod`'s spec, or nullopt with `why` set when its labelSelector is
    // invalid (upstream logs the error and passes over the constraint).
    static std::optional<SpreadConstraint> of(const Pod& pod, const TopologySpreadConstraint& c, std::string& why);

    int32_t max_skew() const { return max_skew_; }
    const std::string& topology_key() const { return topology_key_; }
    // Whether the pod is one the constraint counts.
    bool selects(const Pod& pod) const;
    // nodeAffinityPolicy and nodeTaintsPolicy: whether the node's domain takes part at all.
    bool includes(const Node& node) const;
    // True when includes() holds for every node (no policy honours a node constraint of the pod).
    bool includes_every_node() const;
    // A label every pod the constraint selects carries, when its selector requires one
    // (matchLabels, matchLabelKeys, or In with one value): where a label index can start.
    std::optional<std::pair<std::string_view, std::string_view>> required_label() const;
    // Equal for two constraints upstream holds identical (the same skew, key, selector, policies
    // and, where a policy honours them, the same node affinity and tolerations): one is enough.
    const std::string& identity() const { return identity_; }

private:
    explicit SpreadConstraint(const Pod& owner) : owner_(owner) {}
    void make_identity();

    Pod owner_;  // the pod whose node affinity and tolerations the honoured policies read
    int32_t max_skew_ = 1;
    std::string topology_key_;
    std::optional<LabelSelector> selector_;  // none: the constraint had no labelSelector, so selects nothing
    std::vector<std::pair<std::string, std::string>> key_labels_;  // from matchLabelKeys, ANDed with the selector
    bool honor_affinity_ = true;
    bool honor_taints_ = false;
    std::string identity_;
};

}  // namespace kd::plugins::sigs
