// Namespace and PodDisruptionBudget in their JSON wire form (v1, policy/v1), with the fields the
// model keeps: what plugins read through kd_snapshot.list_objects (plugin API 1.7).
#pragma once

#include "cluster/small_kinds.hpp"

#include <string>

namespace kd::core {

std::string to_json(const Namespace& ns);
std::string to_json(const PodDisruptionBudget& pdb);

}  // namespace kd::core
