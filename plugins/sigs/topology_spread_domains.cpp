#include "topology_spread_domains.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace kd::plugins::sigs {

namespace {

struct Domain {
    std::string_view value;
    std::vector<Pod> pods;
};

// Upstream's hasSelectorOrAffinity: a nodeSelector or node affinity binds the pod to some nodes.
bool has_node_constraints(const Pod& pod) {
    return pod.node_selector().size() > 0 || pod.has_required_node_affinity() || !pod.affinity_terms().empty() ||
           !pod.preferred_node_terms().empty();
}

// The order upstream's sortDomains leaves a domain's pods in, front to back: pods with a
// nodeSelector or node affinity first, then the others; within each, pods without a priority,
// then ascending priority. Pods leave from the back, so a domain gives its highest-priority
// unconstrained pods first. Ties keep the listing order (upstream's sort is not stable).
bool comes_before(const Pod& a, const Pod& b) {
    bool bound_a = has_node_constraints(a), bound_b = has_node_constraints(b);
    if (bound_a != bound_b) return bound_a;
    auto pa = a.priority(), pb = b.priority();
    if (!pa || !pb) return !pa && pb;
    return *pa < *pb;
}

// Domains from the smallest to the largest; equal sizes in the order of their values (upstream
// iterates a map, so its order among equals varies).
std::vector<Domain> sorted_domains(SpreadDomains& domains) {
    std::vector<Domain> out;
    out.reserve(domains.size());
    for (auto& [value, pods] : domains) {
        std::stable_sort(pods.begin(), pods.end(), comes_before);
        out.push_back({value, std::move(pods)});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Domain& a, const Domain& b) { return a.pods.size() < b.pods.size(); });
    return out;
}

// The nodes of the domains below the ideal average, among those the constraint includes
// (upstream's filterEligibleNodes and filterNodesBelowIdealAvg): where moved pods should land.
// Their lists, domain by domain, rather than a copy of them.
std::vector<const std::vector<Node>*> nodes_below_average(const std::vector<Domain>& domains,
                                                          const NodesByValue& by_value, double ideal) {
    std::vector<const std::vector<Node>*> out;
    for (const Domain& d : domains) {
        if (static_cast<double>(d.pods.size()) >= ideal) continue;
        auto it = by_value.find(d.value);
        if (it != by_value.end()) out.push_back(&it->second);
    }
    return out;
}

}  // namespace

NodesByValue nodes_by_value(const SpreadConstraint& c, const std::vector<Node>& nodes) {
    NodesByValue by_value;
    for (const Node& node : nodes) {
        if (!c.includes_every_node() && !c.includes(node)) continue;
        if (auto value = node.labels().get(c.topology_key())) by_value[*value].push_back(node);
    }
    return by_value;
}

bool spread_is_balanced(const SpreadDomains& domains, int32_t max_skew) {
    if (domains.empty()) return true;
    auto [lo, hi] = std::minmax_element(domains.begin(), domains.end(),
                                        [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
    return static_cast<int64_t>(hi->second.size()) - static_cast<int64_t>(lo->second.size()) <= max_skew;
}

SpreadChoice balance_domains(const SpreadConstraint& c, SpreadDomains domains, size_t counted,
                             const NodesByValue& by_value, bool node_fit, UpstreamNodeFit& fit) {
    SpreadChoice choice;
    if (domains.empty()) return choice;
    const double ideal = static_cast<double>(counted) / static_cast<double>(domains.size());
    std::vector<Domain> sorted = sorted_domains(domains);
    const std::vector<const std::vector<Node>*> targets = nodes_below_average(sorted, by_value, ideal);

    std::unordered_map<const kd_pod*, bool> fits;
    auto fits_target = [&](const Pod& pod) {
        auto it = fits.find(pod.raw());
        if (it == fits.end()) {
            bool any = false;
            for (size_t t = 0; t < targets.size() && !any; ++t) any = fit.fits_any_other(pod, *targets[t]);
            it = fits.emplace(pod.raw(), any).first;
        }
        return it->second;
    };

    // i walks up from the smallest domain, j down from the largest; each step moves what the
    // pair allows: half the excess skew, and no more than takes j down to or i up to the
    // average (both rounded up).
    size_t i = 0, j = sorted.size() - 1;
    while (i < j) {
        if (static_cast<double>(sorted[j].pods.size()) <= ideal) --j;
        int64_t skew = static_cast<int64_t>(sorted[j].pods.size()) - static_cast<int64_t>(sorted[i].pods.size());
        if (skew <= c.max_skew()) {
            ++i;
            continue;
        }
        double above = std::ceil(static_cast<double>(sorted[j].pods.size()) - ideal);
        double below = std::ceil(ideal - static_cast<double>(sorted[i].pods.size()));
        double half = std::ceil(static_cast<double>(skew - c.max_skew()) / 2);
        int64_t moving = static_cast<int64_t>(std::min(std::min(above, below), half));
        if (moving <= 0) {
            ++i;
            continue;
        }
        // Pods that fit a node below the average go to the back, where pods leave from.
        auto& giver = sorted[j].pods;
        std::stable_partition(giver.begin(), giver.end(), [&](const Pod& p) { return !fits_target(p); });
        auto first = giver.end() - moving;
        for (auto it = first; it != giver.end(); ++it) {
            // A pod that fits nowhere below the average would come back to this domain: it stays,
            // but counts as moved so that the walk still ends (upstream's rule).
            if (node_fit && !fits_target(*it))
                choice.unfit.push_back(*it);
            else
                choice.evict.push_back(*it);
        }
        sorted[i].pods.insert(sorted[i].pods.end(), first, giver.end());
        giver.erase(first, giver.end());
    }
    return choice;
}

}  // namespace kd::plugins::sigs
