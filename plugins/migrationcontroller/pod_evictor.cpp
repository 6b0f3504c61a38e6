#include "pod_evictor.hpp"

#include <kdesched/rfc3339.hpp>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

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
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    w.StartObject();
    std::string ts = kd::format_rfc3339(now_ms);
    w.Key("timestamp");
    w.String(ts.c_str());
    if (!delete_options.empty()) {
        w.Key("deleteOptions");
        w.RawValue(delete_options.c_str(), delete_options.size(), rapidjson::kObjectType);
    }
    w.Key("initiator");
    w.String(trigger.data(), static_cast<rapidjson::SizeType>(trigger.size()));
    w.Key("reason");
    w.String(reason.c_str());
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize());
}

}  // namespace

std::string PodEvictor::evict(kd::Cycle& cycle, const kd::Pod& pod, const Job& job) {
    if (!bucket_.take(cycle.now_ms())) return "TooManyEvictions";
    std::string policy = args_.evictionPolicy;
    // The pod's label wins, then the job's (C.9).
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
