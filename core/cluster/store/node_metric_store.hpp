// The model's NodeMetrics, by node name. Each owns its arrays: usage values differ per pod, so
// there is nothing to share. A pod entry names its pod with the pod's own text when the pod is
// known (PodStore), else with a copy in the unique text.
#pragma once

#include "cluster/drafts.hpp"
#include "cluster/store/model_pools.hpp"
#include "cluster/store/name_hash.hpp"
#include "cluster/store/pod_store.hpp"

#include <kdesched/abi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kd::core {

class NodeMetricStore {
public:
    NodeMetricStore();
    ~NodeMetricStore();
    NodeMetricStore(const NodeMetricStore&) = delete;
    NodeMetricStore& operator=(const NodeMetricStore&) = delete;

    // Adds the NodeMetric of node `d.meta.name`, or replaces it.
    void put(const NodeMetricDraft& d, ModelPools& pools, const PodStore& pods);
    // Deletes the NodeMetric of `node_name`, its text retired to `text`; false when unknown.
    bool erase(std::string_view node_name, UniqueText& text);
    // Sets every NodeMetric's status.updateTime.
    void touch(int64_t update_ms);

    const kd_node_metric* of_node(std::string_view node_name) const;
    std::vector<std::string> keys() const;

    // Compaction of the unique text: copies the pod names the NodeMetrics own into `fresh`.
    void move_unique_text(TextArena& fresh);

private:
    struct MetricRecord {
        kd_node_metric metric{};
        std::vector<kd_resource> resources;  // system usage first, then every pod's usage
        std::vector<kd_pod_metric> pods;
        size_t own_name_bytes = 0;  // names copied into the unique text (pods unknown when it arrived)
    };

    std::unordered_map<std::string, std::unique_ptr<MetricRecord>, StringViewHash, std::equal_to<>> by_node_;
    std::vector<const kd_pod*> known_;  // reused between NodeMetrics
};

}  // namespace kd::core
