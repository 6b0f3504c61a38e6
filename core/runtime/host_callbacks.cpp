#include "runtime/host_callbacks.hpp"

#include "picker/pod_picker.hpp"
#include "runtime/call_scope.hpp"
#include "runtime/evictor_proxy.hpp"
#include "runtime/instance_owner.hpp"
#include "runtime/plugin_instance.hpp"
#include "runtime/report_keys.hpp"

#include <kdesched/view.hpp>

#include <spdlog/spdlog.h>

#include "text/json_writer.hpp"

#include <algorithm>
#include <cstddef>

namespace kd::core {

namespace {

CallScope& scope_of(const kd_call* call) {
    return *static_cast<CallScope*>(call->host_data);
}

PluginInstance& instance_of(const kd_host* self) {
    return *static_cast<PluginInstance*>(self->host_data);
}

HostContext& context_of(const kd_host* self) {
    return instance_of(self).owner().context();
}

constexpr const char* kNoBackend = "no cluster back end is attached to this run";

void log_cb(const kd_host* self, const kd_call* call, int32_t level, const char* message, size_t size) {
    const InstanceOwner& profile = instance_of(self).owner();
    std::string_view msg(message ? message : "", message ? size : 0);
    if (RunObserver* obs = profile.context().observer)
        obs->on_plugin_log(profile.name(), kd::sv(call->plugin), level, msg);
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

// Hands a write's outcome to the plugin: the message, and from API 1.2 the code and the new
// resourceVersion (when the sink is big enough to hold them).
kd_status answer(const WriteResult& r, kd_error_sink* err, CallScope& scope) {
    if (err->struct_size >= offsetof(kd_error_sink, resource_version) + sizeof(kd_str)) {
        err->code = r.code;
        if (r.ok()) err->resource_version = scope.keep(r.resource_version);
    }
    if (r.ok()) return KD_OK;
    err->set(err, r.message.data(), r.message.size());
    return KD_ERROR;
}

// Why this plugin may not write to the cluster, or "": only the profile's evict plugin and
// plugins with periodic work (controllers) write; the rest ask for evictions through
// kd_host.evict, where filters, limits and dry run apply.
std::string write_refusal(const PluginInstance& plugin) {
    const InstanceOwner& profile = plugin.owner();
    if (profile.evict_plugin() == &plugin || plugin.entry().tick_hook()) return "";
    return "plugin \"" + plugin.name() + "\" may not write to the cluster: only the profile's evict plugin (" +
           (profile.evict_plugin() ? profile.evict_plugin()->name() : std::string("none")) +
           ") and plugins with periodic work do (ask for evictions with kd_host.evict)";
}

// Runs one cluster write on the run's back end.
template <class Write>
kd_status cluster_write(const kd_host* self, const kd_call* call, kd_error_sink* err, Write&& write) {
    PluginInstance& plugin = instance_of(self);
    ClusterBackend* backend = plugin.owner().context().backend;
    WriteResult r;
    if (std::string refused = write_refusal(plugin); !refused.empty())
        r = WriteResult::failure(KD_WRITE_FORBIDDEN, refused);
    else if (!backend)
        r = WriteResult::failure(KD_WRITE_FAILED, kNoBackend);
    else
        r = write(*backend);
    return answer(r, err, scope_of(call));
}

// A plugin built against API 1.0/1.1 was promised that create and update write `status` too; the
// status subresource needs a write of its own, made right after with the new resourceVersion.
bool legacy_status_writes(const PluginInstance& plugin) {
    return plugin.entry().api_version.major == 1 && plugin.entry().api_version.minor < 2;
}

WriteResult then_status(ClusterBackend& backend, std::string_view json, std::string_view plugin, WriteResult first) {
    if (!first.ok()) return first;
    rapidjson::Document doc;
    doc.Parse(json.data(), json.size());
    if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("status") || !doc["metadata"].IsObject()) return first;
    rapidjson::Value& meta = doc["metadata"];
    rapidjson::Value rv(first.resource_version.c_str(), static_cast<rapidjson::SizeType>(first.resource_version.size()),
                        doc.GetAllocator());
    if (meta.HasMember("resourceVersion"))
        meta["resourceVersion"] = rv;
    else
        meta.AddMember("resourceVersion", rv, doc.GetAllocator());
    return backend.update_status(json::text_of(doc), plugin);
}

kd_status evict_pod_cb(const kd_host* self, const kd_call* call, const kd_pod* pod, kd_str reason, kd_error_sink* err) {
    return cluster_write(self, call, err,
                         [&](ClusterBackend& b) { return b.evict_pod(*pod, kd::sv(reason), kd::sv(call->plugin)); });
}

kd_status create_cb(const kd_host* self, const kd_call* call, kd_str json, kd_error_sink* err) {
    return cluster_write(self, call, err, [&](ClusterBackend& b) {
        WriteResult r = b.create_object(kd::sv(json), kd::sv(call->plugin));
        return legacy_status_writes(instance_of(self)) ? then_status(b, kd::sv(json), kd::sv(call->plugin), r) : r;
    });
}

kd_status update_cb(const kd_host* self, const kd_call* call, kd_str json, kd_error_sink* err) {
    return cluster_write(self, call, err, [&](ClusterBackend& b) {
        WriteResult r = b.update_object(kd::sv(json), kd::sv(call->plugin));
        return legacy_status_writes(instance_of(self)) ? then_status(b, kd::sv(json), kd::sv(call->plugin), r) : r;
    });
}

kd_status update_status_cb(const kd_host* self, const kd_call* call, kd_str json, kd_error_sink* err) {
    return cluster_write(self, call, err,
                         [&](ClusterBackend& b) { return b.update_status(kd::sv(json), kd::sv(call->plugin)); });
}

kd_status delete_cb(const kd_host* self, const kd_call* call, kd_str kind, kd_str ns, kd_str name, kd_error_sink* err) {
    return cluster_write(self, call, err, [&](ClusterBackend& b) {
        return b.delete_object(kd::sv(kind), kd::sv(ns), kd::sv(name), kd::sv(call->plugin));
    });
}

kd_status delete_pod_cb(const kd_host* self, const kd_call* call, const kd_pod* pod, kd_str reason,
                        kd_error_sink* err) {
    return cluster_write(self, call, err,
                         [&](ClusterBackend& b) { return b.delete_pod(*pod, kd::sv(reason), kd::sv(call->plugin)); });
}

kd_status annotate_cb(const kd_host* self, const kd_call* call, const kd_pod* pod, kd_str key, kd_str value,
                      kd_error_sink* err) {
    return cluster_write(self, call, err, [&](ClusterBackend& b) {
        return b.annotate_pod(*pod, kd::sv(key), kd::sv(value), kd::sv(call->plugin));
    });
}

void event_cb(const kd_host* self, const kd_call* call, kd_str kind, kd_str ns, kd_str name, kd_str type, kd_str reason,
              kd_str action, kd_str message) {
    PluginInstance& plugin = instance_of(self);
    ClusterBackend* backend = plugin.owner().context().backend;
    if (!backend) return;
    if (std::string refused = write_refusal(plugin); !refused.empty()) {
        spdlog::warn("Event {} about {} {}/{} not recorded: {}", kd::sv(reason), kd::sv(kind), kd::sv(ns), kd::sv(name),
                     refused);
        return;
    }
    backend->record_event(kd::sv(kind), kd::sv(ns), kd::sv(name), kd::sv(type), kd::sv(reason), kd::sv(action),
                          kd::sv(message), kd::sv(call->plugin));
}

void report_cb(const kd_host* self, const kd_call* call, kd_str kind, kd_str subject, kd_str key, kd_str value) {
    PluginInstance& plugin = instance_of(self);
    const InstanceOwner& profile = plugin.owner();
    if (!report_keys::known(kd::sv(kind), kd::sv(key))) {
        // Dropped, but not silently: a misspelt key would otherwise vanish from every report.
        if (plugin.first_unknown_report(kd::sv(kind), kd::sv(key)))
            spdlog::warn(
                "plugin {} reported \"{}\" of a {} (\"{}\"), which kdesched does not know; ignored (known: {})",
                plugin.name(), kd::sv(key), kd::sv(kind), kd::sv(subject), report_keys::kKnownList);
        return;
    }
    if (RunObserver* obs = profile.context().observer)
        obs->on_report(profile.name(), kd::sv(call->plugin), kd::sv(kind), kd::sv(subject), kd::sv(key), kd::sv(value));
}

void count_eviction_cb(const kd_host* self, const kd_call* call, const kd_pod* pod, kd_str result, kd_str strategy) {
    const HostContext& ctx = context_of(self);
    if (RunObserver* obs = ctx.observer)
        obs->on_pods_evicted(kd::sv(call->profile), *pod, kd::sv(result), kd::sv(strategy), ctx.dry_run);
}

kd_status pick_pods_cb(const kd_host* self, const kd_call* call, kd_str picker_json, const kd_pod* const* candidates,
                       size_t candidate_count, uint32_t requested, uint8_t* ranks, kd_error_sink* err) {
    const InstanceOwner& profile = instance_of(self).owner();
    HostContext& ctx = profile.context();
    std::vector<std::string> names;
    names.reserve(candidate_count);
    for (size_t i = 0; i < candidate_count; ++i) names.push_back(kd::Pod(candidates[i]).key());
    picker::SecretReader secrets = [&ctx](std::string_view ns, std::string_view name,
                                          std::map<std::string, std::string>& data) {
        return ctx.backend ? ctx.backend->read_secret(ns, name, data) : kNoBackend;
    };
    picker::PickOutcome out = picker::pick_pods(kd::sv(picker_json), names, requested, secrets);
    if (ctx.observer) ctx.observer->on_pod_picker_request(profile.name(), kd::sv(call->plugin), out.result);
    if (!out.ok()) {
        err->set(err, out.error.data(), out.error.size());
        return KD_ERROR;
    }
    std::copy(out.ranks.begin(), out.ranks.end(), ranks);
    return KD_OK;
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
    h.create_object = &create_cb;
    h.update_object = &update_cb;
    h.delete_object = &delete_cb;
    h.delete_pod = &delete_pod_cb;
    h.annotate_pod = &annotate_cb;
    h.record_event = &event_cb;
    h.count_eviction = &count_eviction_cb;
    h.pick_pods = &pick_pods_cb;
    h.update_object_status = &update_status_cb;
    return h;
}

}  // namespace kd::core
