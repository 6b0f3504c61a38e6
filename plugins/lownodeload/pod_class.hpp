// Koordinator's view of a pod (its apis/extension) and the cost annotations the pod order reads:
// the SDK's, shared with the migration arbitrator.
#pragma once

#include <kdesched/koord_pod.hpp>

namespace kd::plugins::lownodeload {

using kd::koord::cost_annotation;
using kd::koord::kEvictionCostAnnotation;
using kd::koord::koord_qos;
using kd::koord::koord_qos_rank;
using kd::koord::KoordQoS;
using kd::koord::kPodDeletionCostAnnotation;
using kd::koord::kPriorityClassLabel;
using kd::koord::kQoSClassLabel;
using kd::koord::priority_class;
using kd::koord::priority_class_rank;

}  // namespace kd::plugins::lownodeload
