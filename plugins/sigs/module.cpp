// The library's one exported symbol: the kubernetes-sigs/descheduler plugins, one module.
#include "high_node_utilization.hpp"
#include "inter_pod_anti_affinity.hpp"
#include "low_node_utilization.hpp"
#include "node_affinity.hpp"
#include "node_taints.hpp"
#include "pod_lifetime.hpp"
#include "remove_duplicates.hpp"
#include "remove_failed_pods.hpp"
#include "too_many_restarts.hpp"
#include "topology_spread.hpp"

KDESCHED_MODULE("kubernetes-sigs", kd::plugins::sigs::PodLifeTime, kd::plugins::sigs::RemoveFailedPods,
                kd::plugins::sigs::RemovePodsHavingTooManyRestarts, kd::plugins::sigs::LowNodeUtilization,
                kd::plugins::sigs::HighNodeUtilization, kd::plugins::sigs::RemovePodsViolatingTopologySpreadConstraint,
                kd::plugins::sigs::RemovePodsViolatingNodeTaints, kd::plugins::sigs::RemovePodsViolatingNodeAffinity,
                kd::plugins::sigs::RemovePodsViolatingInterPodAntiAffinity, kd::plugins::sigs::RemoveDuplicates)
