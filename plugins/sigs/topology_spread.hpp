// RemovePodsViolatingTopologySpreadConstraint (kubernetes-sigs/descheduler
// pkg/framework/plugins/removepodsviolatingtopologyspreadconstraint@v0.35.1): a balance plugin
// that evens out, constraint by constraint, the number of matching pods per topology domain by
// evicting pods from the largest domains, down to the ideal average.
#pragma once

#include "common.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kd::plugins::sigs {

struct RemovePodsViolatingTopologySpreadConstraintArgs {
    std::optional<Namespaces> namespaces;
    std::optional<LabelSelector> labelSelector;
    // The whenUnsatisfiable actions whose constraints are balanced; empty means DoNotSchedule
    // (upstream defaults an empty list, not only an absent one).
    std::vector<std::string> constraints;
    // Evict a pod only when it fits some node of a domain below the ideal average.
    bool topologyBalanceNodeFit = true;

    template <class V>
    void fields(V& v) {
        v("namespaces", namespaces);
        v("labelSelector", labelSelector);
        v("constraints", constraints);
        v("topologyBalanceNodeFit", topologyBalanceNodeFit);
    }
    void validate(Errors& errs, const std::string& path) const;
    // The actions in force, the default applied.
    std::vector<std::string> balanced_actions() const;
};

class RemovePodsViolatingTopologySpreadConstraint {
public:
    static constexpr const char* kName = "RemovePodsViolatingTopologySpreadConstraint";
    static constexpr const char* kVersion = "0.35.1";
    static constexpr const char* kDescription =
        "evicts pods from the largest topology domains of their spread constraints until every domain is within "
        "maxSkew of the ideal average";
    using Args = RemovePodsViolatingTopologySpreadConstraintArgs;

    RemovePodsViolatingTopologySpreadConstraint(Host&, Args args) : args_(std::move(args)) {}
    void balance(Cycle& cycle);

private:
    Args args_;
};

}  // namespace kd::plugins::sigs
