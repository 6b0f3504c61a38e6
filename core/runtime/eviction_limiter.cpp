#include "runtime/eviction_limiter.hpp"

namespace kd::core {

namespace {
uint32_t count_of(const std::unordered_map<std::string, uint32_t>& m, const std::string& k) {
    auto it = m.find(k);
    return it == m.end() ? 0 : it->second;
}
}  // namespace

kd_evict_code EvictionLimiter::check(const std::string& node, const std::string& ns) const {
    if (per_node_ && !node.empty() && count_of(by_node_, node) + 1 > *per_node_) return KD_EVICT_LIMIT_NODE;
    if (per_namespace_ && count_of(by_namespace_, ns) + 1 > *per_namespace_) return KD_EVICT_LIMIT_NAMESPACE;
    if (total_ && total_count_ + 1 > *total_) return KD_EVICT_LIMIT_TOTAL;
    return KD_EVICT_ACCEPTED;
}

void EvictionLimiter::record(const std::string& node, const std::string& ns) {
    if (!node.empty()) ++by_node_[node];
    ++by_namespace_[ns];
    ++total_count_;
}

void EvictionLimiter::reset() {
    by_node_.clear();
    by_namespace_.clear();
    total_count_ = 0;
}

}  // namespace kd::core
