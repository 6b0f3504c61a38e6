#include "pod_evictor.hpp"

#include <kdesched/rfc3339.hpp>

#include "json.hpp"

namespace kd::plugins::migrationcontroller {

PodEvictor::PodEvictor(const MigrationControllerArgs& args)
    : args_(args), bucket_(args.evictQPS.value, args.evictBurst) {}

std::string PodEvictor::reason_of(const Job& job) {
    if (!job.annotation(kAnnotationEvictReason).empty()) return std::string(job.annotation(kAnnotationEvictReason));
    if (!job.annotation(kAnnotationEvictTrigger).empty()) return std::string(job.annotation(kAnnotationEvictTrigger));
    return "NotSet";
}

namespace {

std::string soft_eviction_json(int64_t now_ms, const std::string& delete_options, std::string_view trigger,
                               const std::string& reason) {
    rapidjson::Document d(rapidjson::kObjectType);
    auto& a = d.GetAllocator();
    json::put(d, "timestamp", json::text(kd::format_rfc3339(now_ms), a), a);
    if (!delete_options.empty()) {
        rapidjson::Document options(&a);
        options.Parse(delete_options.data(), delete_options.size());
        if (!options.HasParseError()) json::put(d, "deleteOptions", rapidjson::Value(options, a), a);
    }
    json::put(d, "initiator", json::text(trigger, a), a);
    json::put(d, "reason", json::text(reason, a), a);
    return json::to_json(&d);
}

}  // namespace

std::string PodEvictor::evict(kd::Cycle& cycle, const kd::Pod& pod, const Job& job) {
    if (!bucket_.take(cycle.now_ms())) return "TooManyEvictions";
    std::string policy = args_.evictionPolicy;
    // The pod's label wins, then the job's (koordinator.sh/evict-policy, as in koord).
    if (auto label = pod.labels().get(kEvictPolicyLabel))
        policy = std::string(*label);
    else if (!job.label(kEvictPolicyLabel).empty())
        policy = std::string(job.label(kEvictPolicyLabel));
    std::string reason = reason_of(job);
    std::string trigger(job.annotation(kAnnotationEvictTrigger));
    std::string delete_options = job.delete_options();
    if (delete_options.empty()) delete_options = args_.defaultDeleteOptions.text;
    std::string error;
    if (policy == "Delete")
        error = cycle.delete_pod(pod, reason);
    else if (policy == "SoftEviction")
        error = cycle.annotate_pod(pod, kSoftEvictionAnnotation,
                                   soft_eviction_json(cycle.now_ms(), delete_options, trigger, reason));
    else
        error = cycle.evict_pod(pod, reason);
    cycle.count_eviction(pod, error.empty() ? "success" : "error", trigger);
    if (error.empty())
        cycle.record_event(
            "Pod", pod.ns(), pod.name(), "Normal", "Descheduled", "Migrating",
            "Pod evicted from node \"" + std::string(pod.node_name()) + "\" by the reason \"" + reason + "\"");
    return error;
}

}  // namespace kd::plugins::migrationcontroller
