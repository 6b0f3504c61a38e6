#include "pod_filter.hpp"

#include <algorithm>

namespace kd::plugins::lownodeload {

PodFilter::PodFilter(const LowNodeLoadArgs& args) {
    if (args.evictableNamespaces) {
        include_ = args.evictableNamespaces->include;
        exclude_ = args.evictableNamespaces->exclude;
    }
    for (const auto& s : args.podSelectors)
        if (s.selector) selectors_.push_back(*s.selector);
}

bool PodFilter::namespace_allowed(const kd::Pod& pod) const {
    std::string_view ns = pod.ns();
    if (!include_.empty()) return std::find(include_.begin(), include_.end(), ns) != include_.end();
    return std::find(exclude_.begin(), exclude_.end(), ns) == exclude_.end();
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
