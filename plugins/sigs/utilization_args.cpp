#include "utilization_args.hpp"

namespace kd::plugins::sigs {

namespace {

// Both plugins refuse evictableNamespaces.include: they only ever exclude namespaces.
void refuse_included_namespaces(const std::optional<Namespaces>& namespaces, Errors& errs, const std::string& path) {
    if (namespaces && !namespaces->include.empty())
        errs.add(field_path(path, "evictableNamespaces.include"),
                 "only Exclude namespaces can be set, inclusion is not supported");
}

}  // namespace

std::string threshold_problem(const ResourceThresholds& thresholds) {
    if (thresholds.empty()) return "no resource threshold is configured";
    // Upstream walks a Go map, so which bad resource it names is random; ours names the first by name.
    for (const auto& [name, percent] : thresholds)
        if (percent < 0 || percent > 100) return name + " threshold not in [0, 100] range";
    return "";
}

void LowNodeUtilizationArgs::validate(Errors& errs, const std::string& path) const {
    refuse_included_namespaces(evictableNamespaces, errs, path);
    // Upstream stops at the first problem of the thresholds; the relations between the two maps
    // are checked only when each is valid on its own, so one mistake gives one message.
    std::string low = threshold_problem(thresholds), high = threshold_problem(targetThresholds);
    if (!low.empty()) errs.add(field_path(path, "thresholds"), "thresholds config is not valid: " + low);
    if (!high.empty()) errs.add(field_path(path, "targetThresholds"), "targetThresholds config is not valid: " + high);
    if (low.empty() && high.empty()) {
        bool same_resources = thresholds.size() == targetThresholds.size();
        for (const auto& [name, percent] : thresholds) same_resources = same_resources && targetThresholds.count(name);
        if (!same_resources) {
            errs.add(field_path(path, "targetThresholds"),
                     "thresholds and targetThresholds configured different resources");
        } else if (!useDeviationThresholds) {
            for (const auto& [name, percent] : thresholds)
                if (percent > targetThresholds.at(name))
                    errs.add(field_path(field_path(path, "thresholds"), name),
                             "thresholds' " + name + " percentage is greater than targetThresholds'");
        }
    }
    // metricsUtilization validates itself (the decoder calls MetricsUtilization::validate).
}

void MetricsUtilization::validate(Errors& errs, const std::string& path) const {
    const std::string quoted_k8s = std::string("\"") + kKubernetesMetrics + "\"";
    // Not upstream's: kdesched reads no Prometheus, and says so with the other problems at once.
    if (source == kPrometheusMetrics)
        errs.add(field_path(path, "source"),
                 "\"Prometheus\" is not supported: kdesched has no Prometheus client; use \"source: "
                 "KubernetesMetrics\" (metrics-server) or remove metricsUtilization for requests-based utilization");
    if (source == kKubernetesMetrics && metricsServer)
        errs.add(path, "it is not allowed to set both " + quoted_k8s + " source and metricsServer");
    if (source == kKubernetesMetrics && prometheus)
        errs.add(field_path(path, "prometheus"),
                 "prometheus configuration is not allowed to set when source is set to " + quoted_k8s);
    if (source == kPrometheusMetrics && (!prometheus || prometheus->query.empty()))
        errs.add(
            field_path(path, "prometheus.query"),
            std::string("prometheus query is required when metrics source is set to \"") + kPrometheusMetrics + "\"");
}

void HighNodeUtilizationArgs::validate(Errors& errs, const std::string& path) const {
    refuse_included_namespaces(evictableNamespaces, errs, path);
    std::string problem = threshold_problem(thresholds);
    if (!problem.empty()) errs.add(field_path(path, "thresholds"), problem);
    for (size_t i = 0; i < evictionModes.size(); ++i)
        if (evictionModes[i] != kOnlyThresholdingResources)
            errs.add(index_path(field_path(path, "evictionModes"), i), "invalid eviction mode " + evictionModes[i]);
}

}  // namespace kd::plugins::sigs
