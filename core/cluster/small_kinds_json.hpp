// Namespace and PodDisruptionBudget (plugin API 1.7), PriorityClass and PersistentVolumeClaim
// (1.8) in their JSON wire form (v1, policy/v1, scheduling.k8s.io/v1), with the fields the model
// keeps: what plugins read through kd_snapshot.list_objects.
#pragma once

#include "cluster/small_kinds.hpp"

#include <string>

namespace kd::core {

std::string to_json(const Namespace& ns);
std::string to_json(const PodDisruptionBudget& pdb);
std::string to_json(const PriorityClass& pc);
std::string to_json(const PersistentVolumeClaim& pvc);

}  // namespace kd::core
