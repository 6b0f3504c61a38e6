#include "pod_filter.hpp"

#include <algorithm>

namespace kd::plugins::lownodeload {

PodFilter::PodFilter(const LowNodeLoadArgs& args) {
    if (args.evictableNamespaces) namespaces_ = *args.evictableNamespaces;
    for (const auto& s : args.podSelectors)
        if (s.selector) selectors_.push_back(*s.selector);
}

// Per pod of every source node: allows() is inline, the same two list scans as before it.
bool PodFilter::namespace_allowed(const kd::Pod& pod) const {
    return namespaces_.allows(pod.ns());
}

bool PodFilter::selectors_match(const kd::Pod& pod) const {
    if (selectors_.empty()) return true;
    kd::KeyValues labels = pod.labels();
    auto get = [&](const std::string& k) { return labels.get(k); };
    return std::any_of(selectors_.begin(), selectors_.end(),
                       [&](const kd::LabelSelector& s) { return s.matches(get); });
}

const char* PodFilter::rejection(const kd::Cycle& cycle, const kd::Pod& pod) const {
    if (!namespace_allowed(pod)) return "EvictableNamespaces";
    if (!cycle.filter(pod).allowed) return "Filter";
    if (!selectors_match(pod)) return "PodSelectors";
    return nullptr;
}

}  // namespace kd::plugins::lownodeload
