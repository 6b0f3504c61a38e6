// One LIST of metrics-server's usage (metrics.k8s.io/v1beta1 "nodes" or "pods"), shared by the
// daemon's poller (usage_metrics_poller.hpp) and `kdesched snapshot` (cli/command_snapshot.cpp),
// with why an answer gives no usage: metrics-server absent or its APIService unavailable (404,
// 503), the list forbidden (403, naming the RBAC rule to grant), or not a list.
#pragma once

#include "cluster/usage_metrics.hpp"
#include "kube/client/api_client.hpp"

#include <rapidjson/document.h>

#include <string>
#include <string_view>

namespace kd::core::kube {

struct UsageMetricsList {
    // "" when listed; else what went wrong and what to do, as one or two sentences ending in '.'
    // or '?', so that the caller can append what it means for it.
    std::string problem;
    rapidjson::Document answer;  // when listed: the List, whose "items" is an array
    bool listed() const { return problem.empty(); }
    rapidjson::Value& items() { return answer["items"]; }
};

// GET /apis/metrics.k8s.io/v1beta1/<resource> as JSON.
UsageMetricsList list_usage_metrics(ApiClient& client, std::string_view resource);

}  // namespace kd::core::kube
