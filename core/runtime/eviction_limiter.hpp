// The global eviction limits (Koordinator's `AllowEvict` in the evictorProxy): per node, per
// namespace and in total, shared by every profile and reset at the start of each cycle.
#pragma once

#include <kdesched/abi.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace kd::core {

class EvictionLimiter {
public:
    EvictionLimiter(std::optional<uint32_t> per_node, std::optional<uint32_t> per_namespace,
                    std::optional<uint32_t> total)
        : per_node_(per_node), per_namespace_(per_namespace), total_(total) {}

    // KD_EVICT_ACCEPTED when one more eviction of this pod stays within every limit, else the
    // limit that stops it (node is checked only for a bound pod).
    kd_evict_code check(std::string_view node, std::string_view ns) const;
    void record(std::string_view node, std::string_view ns);
    // The limit a KD_EVICT_LIMIT_* code names (nullopt for any other code).
    std::optional<uint32_t> limit_of(kd_evict_code code) const;
    // The `result` label upstream's PodEvictor counts a stopped eviction under (its limit errors'
    // texts, pkg/descheduler/evictions/errors.go@v0.35.1); nullptr for a code that is no limit.
    static const char* metric_result(kd_evict_code code);
    void reset();

private:
    std::optional<uint32_t> per_node_, per_namespace_, total_;
    // Transparent hashing: counted by string_view without building a std::string per request.
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
    };
    using Counts = std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>>;
    Counts by_node_, by_namespace_;
    uint32_t total_count_ = 0;
};

}  // namespace kd::core
