#include "runtime/host_callbacks.hpp"

#include "runtime/call_scope.hpp"
#include "runtime/plugin_instance.hpp"
#include "runtime/profile_runtime.hpp"

#include <kdesched/view.hpp>

#include <spdlog/spdlog.h>

namespace kd::core {

namespace {

CallScope& scope_of(const kd_call* call) {
    return *static_cast<CallScope*>(call->host_data);
}

void log_cb(const kd_host* self, const kd_call* call, int32_t level, const char* message, size_t size) {
    auto* inst = static_cast<PluginInstance*>(self->host_data);
    HostContext& ctx = inst->owner().context();
    std::string_view msg(message ? message : "", message ? size : 0);
    if (ctx.observer) ctx.observer->on_plugin_log(inst->owner().name(), kd::sv(call->plugin), level, msg);
}

void filter_cb(const kd_host*, const kd_call* call, const kd_pod* pod, kd_filter_result* out) {
    CallScope& scope = scope_of(call);
    scope.profile->evictor().filter(scope, *pod, false, *out);
}

void pre_filter_cb(const kd_host*, const kd_call* call, const kd_pod* pod, kd_filter_result* out) {
    CallScope& scope = scope_of(call);
    scope.profile->evictor().filter(scope, *pod, true, *out);
}

void evict_cb(const kd_host*, const kd_call* call, const kd_pod* pod, const kd_evict_options* options,
              kd_evict_result* out) {
    CallScope& scope = scope_of(call);
    scope.profile->evictor().evict(scope, *pod, *options, *out);
}

kd_status evict_pod_cb(const kd_host* self, const kd_call* call, const kd_pod* pod, kd_str reason, kd_error_sink* err) {
    auto* inst = static_cast<PluginInstance*>(self->host_data);
    HostContext& ctx = inst->owner().context();
    if (!ctx.writer) {
        std::string m = "no cluster back end is attached to this run";
        err->set(err, m.data(), m.size());
        return KD_ERROR;
    }
    std::string failure = ctx.writer->evict_pod(*pod, kd::sv(reason), kd::sv(call->plugin));
    if (failure.empty()) return KD_OK;
    err->set(err, failure.data(), failure.size());
    return KD_ERROR;
}

void report_cb(const kd_host* self, const kd_call* call, kd_str kind, kd_str subject, kd_str key, kd_str value) {
    auto* inst = static_cast<PluginInstance*>(self->host_data);
    HostContext& ctx = inst->owner().context();
    if (ctx.observer)
        ctx.observer->on_report(inst->owner().name(), kd::sv(call->plugin), kd::sv(kind), kd::sv(subject), kd::sv(key),
                                kd::sv(value));
}

}  // namespace

kd_host make_host(PluginInstance* instance) {
    kd_host h{};
    h.struct_size = sizeof(kd_host);
    h.api_version = {KD_API_VERSION_MAJOR, KD_API_VERSION_MINOR, KD_API_VERSION_PATCH};
    h.host_data = instance;
    h.log = &log_cb;
    h.filter = &filter_cb;
    h.pre_eviction_filter = &pre_filter_cb;
    h.evict = &evict_cb;
    h.evict_pod = &evict_pod_cb;
    h.report = &report_cb;
    return h;
}

}  // namespace kd::core
