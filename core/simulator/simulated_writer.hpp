// The simulator's ClusterWriter: eviction calls made during a cycle are queued (the model must
// not change under the cycle's snapshot) and applied by the cluster actors once the cycle ends.
#pragma once

#include "runtime/host_context.hpp"

#include <set>
#include <string>
#include <vector>

namespace kd::core {

struct QueuedEviction {
    std::string uid, pod, node, reason, plugin;
};

class SimulatedWriter : public ClusterWriter {
public:
    std::string evict_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin) override;
    // The evictions of the cycle that just ran, in call order; clears the queue.
    std::vector<QueuedEviction> take();

private:
    std::vector<QueuedEviction> queue_;
    std::set<std::string> queued_uids_;
};

}  // namespace kd::core
