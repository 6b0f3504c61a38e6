// The candidate filter (`podFilter` of koord's loadaware `balancePods`): evictableNamespaces, then
// the profile's filter plugins (Evictor.Filter), then podSelectors. It applies to eviction
// candidates only; usage counts every pod.
#pragma once

#include "args.hpp"

#include <kdesched/label_selector.hpp>
#include <kdesched/namespaces.hpp>
#include <kdesched/plugin.hpp>

#include <string>
#include <vector>

namespace kd::plugins::lownodeload {

class PodFilter {
public:
    explicit PodFilter(const LowNodeLoadArgs& args);
    // True when the pod may be a candidate. Calls the host's filter (only when the namespace passes).
    bool operator()(const kd::Cycle& cycle, const kd::Pod& pod) const { return rejection(cycle, pod) == nullptr; }
    // Why the pod is not a candidate: "EvictableNamespaces", "Filter" (a filter plugin said no; the
    // host knows which and why), "PodSelectors"; nullptr when it is one.
    const char* rejection(const kd::Cycle& cycle, const kd::Pod& pod) const;
    // The namespace and podSelectors parts alone (no host call).
    bool namespace_allowed(const kd::Pod& pod) const;
    bool selectors_match(const kd::Pod& pod) const;

private:
    kd::Namespaces namespaces_;                 // evictableNamespaces; empty: every namespace
    std::vector<kd::LabelSelector> selectors_;  // entries without a selector are dropped, as Koordinator does
};

}  // namespace kd::plugins::lownodeload
