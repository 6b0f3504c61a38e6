// The order in which upstream's RemovePodsViolatingInterPodAntiAffinity walks a node's pods
// (podutil.SortPodsBasedOnPriorityLowToHigh, pkg/descheduler/pod/pods.go@v0.35.1): the pods least
// worth keeping first.
#pragma once

#include <kdesched/view.hpp>

#include <vector>

namespace kd::plugins::sigs {

// The annotation by which a pod asks to be evicted last among its equals
// (pkg/descheduler/evictions/utils/utils.go@v0.35.1).
inline constexpr const char* kPreferNoEvictionAnnotation = "descheduler.alpha.kubernetes.io/prefer-no-eviction";

// Sorts `pods` stably: pods without spec.priority first, then by ascending priority; within one
// priority BestEffort, Burstable, Guaranteed; within one QoS class, pods without the
// prefer-no-eviction annotation before those with it; remaining ties keep their order.
void sort_priority_low_to_high(std::vector<Pod>& pods);

}  // namespace kd::plugins::sigs
