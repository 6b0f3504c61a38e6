#include "simulator/simulated_writer.hpp"

#include <kdesched/view.hpp>

#include <utility>

namespace kd::core {

std::string SimulatedWriter::evict_pod(const kd_pod& pod, std::string_view reason, std::string_view plugin) {
    kd::Pod p(&pod);
    std::string uid(p.uid());
    // A second Eviction of a pod already going away fails as it would against the API server.
    if (!queued_uids_.insert(uid).second) return "pod " + p.key() + " is already being evicted";
    queue_.push_back({uid, p.key(), std::string(p.node_name()), std::string(reason), std::string(plugin)});
    return "";
}

std::vector<QueuedEviction> SimulatedWriter::take() {
    queued_uids_.clear();
    return std::exchange(queue_, {});
}

}  // namespace kd::core
