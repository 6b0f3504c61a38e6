// Koordinator's view of a pod (spec B.11): priority class and QoS, plus the cost annotations the
// pod order reads (B.8).
#pragma once

#include "pool_state.hpp"

#include <kdesched/view.hpp>

#include <cstdint>
#include <string_view>

namespace kd::plugins::lownodeload {

inline constexpr std::string_view kPriorityClassLabel = "koordinator.sh/priority-class";
inline constexpr std::string_view kQoSClassLabel = "koordinator.sh/qosClass";
inline constexpr std::string_view kPodDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost";
inline constexpr std::string_view kEvictionCostAnnotation = "scheduling.koordinator.sh/eviction-cost";

// Koordinator QoS class.
enum class KoordQoS : uint8_t { none, lse, lsr, ls, be, system };

// Label koordinator.sh/qosClass when valid, else from the Kubernetes QoS class
// (Guaranteed → LSR, Burstable → LS, BestEffort → BE).
KoordQoS koord_qos(const kd::Pod& pod);

// Label koordinator.sh/priority-class (an unknown value reads as none); without the label, from
// spec.priority ranges; when none, from the QoS (SYSTEM/LSE/LSR/LS → prod, BE → batch).
// So an unlabeled Burstable pod without priority is prod, an unlabeled BestEffort pod is batch.
PriorityClass priority_class(const kd::Pod& pod);

// Sort ranks (B.8): free 1 < batch 2 < mid 3 < prod 4 < none 5.
int priority_class_rank(PriorityClass c);
// BE 1 < LS 2 < LSR 3 < LSE = SYSTEM 4 < none 5.
int koord_qos_rank(KoordQoS q);

// An int32 cost annotation as Kubernetes reads pod-deletion-cost: no leading '+', no leading zero
// (except "0"); absent or invalid → 0.
int32_t cost_annotation(const kd::Pod& pod, std::string_view key);

}  // namespace kd::plugins::lownodeload
