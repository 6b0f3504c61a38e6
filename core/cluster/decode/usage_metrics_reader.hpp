// metrics.k8s.io/v1beta1 NodeMetrics and PodMetrics read from a DOM of one object: for snapshot
// files (file_context.cpp) and the daemon's poll of metrics-server (usage_metrics_poller.cpp).
#pragma once

#include "cluster/usage_metrics.hpp"

#include <rapidjson/document.h>

#include <string_view>

namespace kd::core::decode {

// "NodeMetrics" or "PodMetrics": the kinds read_node_usage and read_pod_usage read.
bool is_usage_metrics_kind(std::string_view kind);

// Each throws FieldProblemError for a malformed field (a usage that is not a quantity, a node
// without a name).
NodeUsage read_node_usage(const rapidjson::Value& obj);
PodUsage read_pod_usage(const rapidjson::Value& obj);

}  // namespace kd::core::decode
