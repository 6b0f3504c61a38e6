// The balancing of one constraint's topology domains (topologyIsBalanced, sortDomains and
// balanceDomains in
// pkg/framework/plugins/removepodsviolatingtopologyspreadconstraint/topologyspreadconstraint.go@v0.35.1).
#pragma once

#include "node_fit.hpp"
#include "topology_spread_constraint.hpp"

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kd::plugins::sigs {

// The pods a constraint counts, per value of its topology key (domains without pods included),
// each domain's pods in the order they were listed.
using SpreadDomains = std::map<std::string, std::vector<Pod>, std::less<>>;

// The nodes a constraint includes, by their value of its topology key, each list in the extension
// point's node order: where pods moved out of a domain may land. Made once per topology key for
// the constraints that include every node.
using NodesByValue = std::unordered_map<std::string_view, std::vector<Node>>;
NodesByValue nodes_by_value(const SpreadConstraint& c, const std::vector<Node>& nodes);

// True when no two domains differ by more than maxSkew pods.
bool spread_is_balanced(const SpreadDomains& domains, int32_t max_skew);

// What balancing one constraint chose: the pods to evict, in order, and the pods it would have
// evicted but for topologyBalanceNodeFit (they fit no node of a domain below the ideal average).
struct SpreadChoice {
    std::vector<Pod> evict;
    std::vector<Pod> unfit;
};

// Moves pods, on paper, from the largest domains to the smallest until each is within maxSkew of
// the other or at the ideal average (`counted` pods over all domains); `by_value`: the
// constraint's nodes_by_value.
SpreadChoice balance_domains(const SpreadConstraint& constraint, SpreadDomains domains, size_t counted,
                             const NodesByValue& by_value, bool node_fit, UpstreamNodeFit& fit);

}  // namespace kd::plugins::sigs
