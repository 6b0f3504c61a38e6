// The library's one exported symbol: the kubernetes-sigs/descheduler plugins ported so far, one module.
#include "node_affinity.hpp"
#include "node_taints.hpp"
#include "pod_lifetime.hpp"
#include "remove_failed_pods.hpp"
#include "too_many_restarts.hpp"

KDESCHED_MODULE("kubernetes-sigs", kd::plugins::sigs::PodLifeTime, kd::plugins::sigs::RemoveFailedPods,
                kd::plugins::sigs::RemovePodsHavingTooManyRestarts, kd::plugins::sigs::RemovePodsViolatingNodeTaints,
                kd::plugins::sigs::RemovePodsViolatingNodeAffinity)
