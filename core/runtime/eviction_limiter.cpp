#include "runtime/eviction_limiter.hpp"

namespace kd::core {

namespace {
template <class Counts>
uint32_t count_of(const Counts& m, std::string_view k) {
    auto it = m.find(k);
    return it == m.end() ? 0 : it->second;
}
}  // namespace

kd_evict_code EvictionLimiter::check(std::string_view node, std::string_view ns) const {
    if (per_node_ && !node.empty() && count_of(by_node_, node) + 1 > *per_node_) return KD_EVICT_LIMIT_NODE;
    if (per_namespace_ && count_of(by_namespace_, ns) + 1 > *per_namespace_) return KD_EVICT_LIMIT_NAMESPACE;
    if (total_ && total_count_ + 1 > *total_) return KD_EVICT_LIMIT_TOTAL;
    return KD_EVICT_ACCEPTED;
}

void EvictionLimiter::record(std::string_view node, std::string_view ns) {
    auto bump = [](Counts& m, std::string_view k) {
        auto it = m.find(k);
        if (it == m.end()) it = m.emplace(std::string(k), 0).first;
        ++it->second;
    };
    if (!node.empty()) bump(by_node_, node);
    bump(by_namespace_, ns);
    ++total_count_;
}

std::optional<uint32_t> EvictionLimiter::limit_of(kd_evict_code code) const {
    switch (code) {
        case KD_EVICT_LIMIT_NODE:
            return per_node_;
        case KD_EVICT_LIMIT_NAMESPACE:
            return per_namespace_;
        case KD_EVICT_LIMIT_TOTAL:
            return total_;
        default:
            return std::nullopt;
    }
}

const char* EvictionLimiter::metric_result(kd_evict_code code) {
    switch (code) {
        case KD_EVICT_LIMIT_NODE:
            return "maximum number of evicted pods per node reached";
        case KD_EVICT_LIMIT_NAMESPACE:
            return "maximum number of evicted pods per namespace reached";
        case KD_EVICT_LIMIT_TOTAL:
            return "maximum number of evicted pods per a descheduling cycle reached";
        default:
            return nullptr;
    }
}

void EvictionLimiter::reset() {
    by_node_.clear();
    by_namespace_.clear();
    total_count_ = 0;
}

}  // namespace kd::core
