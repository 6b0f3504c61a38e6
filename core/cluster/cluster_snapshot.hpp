// One cycle's kd_snapshot over a ClusterModel (see cluster_model.hpp).
#pragma once

#include <kdesched/abi.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kd::core {

class ClusterModel;

// One cycle's kd_snapshot over a model: pointer arrays and lookup tables, no object copies.
class ClusterSnapshot {
public:
    ClusterSnapshot(const ClusterModel& model, int64_t now_ms);
    const kd_snapshot& raw() const { return snap_; }

private:
    static kd_pod_ref_list pods_on_node_cb(const kd_snapshot* s, kd_str node);
    static const kd_node_metric* node_metric_cb(const kd_snapshot* s, kd_str node);
    static const kd_pod* find_pod_cb(const kd_snapshot* s, kd_str ns, kd_str name);
    static const kd_node* find_node_cb(const kd_snapshot* s, kd_str name);
    static kd_str list_objects_cb(const kd_snapshot* s, kd_str kind);
    static void pod_workload_cb(const kd_snapshot* s, const kd_pod* pod, kd_workload* out);
    // Pods of a top workload (a Deployment: those of all its ReplicaSets), built on first use.
    const std::vector<const kd_pod*>& workload_pods(const struct Workload& top) const;

    const ClusterModel& model_;
    std::vector<const kd_node*> ready_nodes_;
    std::vector<const kd_pod*> pods_;
    std::vector<const kd_pod*> pods_by_node_;                                          // grouped by node
    std::unordered_map<std::string_view, std::pair<uint32_t, uint32_t>> node_ranges_;  // offset, count
    kd_snapshot snap_{};
    mutable std::map<std::string, std::string, std::less<>> object_lists_;  // by kind, built on first use
    mutable std::unordered_map<std::string_view, std::vector<const kd_pod*>> workload_pods_;  // by workload UID
    // ReplicaSet UIDs by their Deployment's UID (slot order), built on first use.
    mutable std::unordered_map<std::string_view, std::vector<std::string_view>> replica_sets_;
    mutable bool replica_sets_built_ = false;
};

}  // namespace kd::core
