#include "runtime/plugin_instance.hpp"

#include "error.hpp"
#include "runtime/instance_owner.hpp"

namespace kd::core {

void PluginInstance::create(const kd_host& host, const std::string& args_json, int64_t descheduling_interval_ms) {
    host_ = host;
    const std::string& profile = owner_.name();
    std::string instance_id = owner_.context().instance_id + "/" + profile;
    kd_create_info info{sizeof(kd_create_info), kd_str{profile.data(), profile.size()}, descheduling_interval_ms,
                        kd_str{instance_id.data(), instance_id.size()}, owner_.context().metrics_sources};
    ErrorSink err;
    kd_status st = entry_.descriptor->create(&host_, &info, args_json.data(), args_json.size(), &handle_, &err.sink);
    if (st != KD_OK || !handle_) {
        if (handle_) entry_.descriptor->destroy(handle_);
        handle_ = nullptr;
        throw Error("plugin " + entry_.name, err.message.empty() ? "create failed without a message" : err.message);
    }
}

PluginInstance::~PluginInstance() {
    if (handle_) entry_.descriptor->destroy(handle_);
}

HookStatus PluginInstance::deschedule(const kd_call& call) {
    ErrorSink err;
    if (entry_.descriptor->deschedule(handle_, &call, &err.sink) == KD_OK) return {};
    return {false, err.message.empty() ? "deschedule failed without a message" : err.message};
}

HookStatus PluginInstance::balance(const kd_call& call) {
    ErrorSink err;
    if (entry_.descriptor->balance(handle_, &call, &err.sink) == KD_OK) return {};
    return {false, err.message.empty() ? "balance failed without a message" : err.message};
}

void PluginInstance::filter(const kd_call& call, const kd_pod& pod, bool pre_eviction, kd_filter_result& out) {
    ErrorSink err;
    auto hook = pre_eviction ? entry_.descriptor->pre_eviction_filter : entry_.descriptor->filter;
    out = kd_filter_result{sizeof(kd_filter_result), 1, {}};
    if (hook(handle_, &call, &pod, &out, &err.sink) == KD_OK) return;
    filter_error_ = "error: " + (err.message.empty() ? std::string("filter failed without a message") : err.message);
    out.allowed = 0;
    out.reason = kd_str{filter_error_.data(), filter_error_.size()};
}

HookStatus PluginInstance::evict(const kd_call& call, const kd_pod& pod, const kd_evict_options& options,
                                 kd_evict_result& out) {
    ErrorSink err;
    out = kd_evict_result{sizeof(kd_evict_result), KD_EVICT_FAILED, {}, {}};
    if (entry_.descriptor->evict(handle_, &call, &pod, &options, &out, &err.sink) == KD_OK) return {};
    return {false, err.message.empty() ? "evict failed without a message" : err.message};
}

HookStatus PluginInstance::tick(const kd_call& call, int64_t& next_ms) {
    ErrorSink err;
    next_ms = 0;
    if (entry_.tick_hook()(handle_, &call, &next_ms, &err.sink) == KD_OK) return {};
    return {false, err.message.empty() ? "tick failed without a message" : err.message};
}

}  // namespace kd::core
