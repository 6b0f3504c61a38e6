#include "priority_order.hpp"

#include <algorithm>
#include <climits>
#include <tuple>

namespace kd::plugins::sigs {

void sort_priority_low_to_high(std::vector<Pod>& pods) {
    // Upstream's comparator says "less" for two equal pods without the annotation, so Go's
    // sort.Slice leaves their order to its algorithm; here it is a strict order and ties stay put.
    auto rank = [](const Pod& p) {
        auto priority = p.priority();
        return std::make_tuple(priority.has_value(), priority.value_or(INT_MIN), static_cast<int>(p.qos_class()),
                               p.annotations().has(kPreferNoEvictionAnnotation));
    };
    std::stable_sort(pods.begin(), pods.end(), [&](const Pod& a, const Pod& b) { return rank(a) < rank(b); });
}

}  // namespace kd::plugins::sigs
