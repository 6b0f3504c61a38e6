#include "kube/watch/usage_metrics_list.hpp"

#include "kube/client/resources.hpp"

namespace kd::core::kube {

UsageMetricsList list_usage_metrics(ApiClient& client, std::string_view resource) {
    const std::string path = "/apis/" + std::string(kMetricsApiVersion) + "/" + std::string(resource);
    UsageMetricsList out;
    ApiResult r = client.call({"GET", path, {{"Accept", "application/json"}}, "", ""});
    if (r.code == 404 || r.code == 503) {
        out.problem = std::string(kMetricsApiVersion) + " is not served (" + r.describe() +
                      "): is metrics-server installed and its APIService available (kubectl get apiservice "
                      "v1beta1.metrics.k8s.io)?";
        return out;
    }
    if (!r.ok()) {
        out.problem =
            "cannot list " + std::string(resource) + " of metrics.k8s.io: " + r.describe() +
            (r.code == 403
                 ? "; grant " + rbac_rule("list", resource, "metrics.k8s.io") +
                       " to the user kdesched runs as (deploy/base/rbac.yaml grants it to kdesched's ServiceAccount)"
                 : std::string()) +
            ".";
        return out;
    }
    out.answer.Parse(r.body.data(), r.body.size());
    const auto& doc = out.answer;
    if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("items") || !doc["items"].IsArray()) {
        out.problem = "GET " + path + " answered something that is not a list with items.";
    }
    return out;
}

}  // namespace kd::core::kube
