// What the model derives from a decoded object rather than storing it as read: a pod's phase,
// Kubernetes QoS class and effective requests, and a node's raw allocatable.
#pragma once

#include "cluster/drafts.hpp"

#include <kdesched/abi.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kd::core {

kd_pod_phase pod_phase(std::string_view phase);

// QoS as the kubelet computes it (GetPodQOS) from every container's requests and limits.
kd_qos_class compute_qos(const PodDraft& pod);
// status.qosClass when it names a class, else computed.
kd_qos_class qos_from_status(std::string_view qos, const PodDraft& pod);

// What the scheduler reserves: per resource, max(Σ containers, max of init containers) + overhead,
// sorted by name. The first form fills `out` (a vector reused from pod to pod allocates nothing).
void effective_requests(const PodDraft& pod, std::vector<std::pair<std::string_view, int64_t>>& out);
std::vector<std::pair<std::string_view, int64_t>> effective_requests(const PodDraft& pod);

// The node.koordinator.sh/raw-allocatable annotation (a JSON ResourceList) when present and
// valid; nullopt means "use status.allocatable" (as Koordinator's loadaware plugin reads it).
std::optional<std::vector<std::pair<std::string, int64_t>>> raw_allocatable(const NodeDraft& node);

}  // namespace kd::core
