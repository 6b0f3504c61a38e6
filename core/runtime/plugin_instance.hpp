// One created plugin: the C handle, the kd_host it was given, and calls into its hooks that turn
// KD_ERROR into messages. Destroyed before its library is unloaded (it holds the library).
#pragma once

#include "loader/plugin_catalog.hpp"

#include <kdesched/abi.h>

#include <set>
#include <string>

namespace kd::core {

class InstanceOwner;

// A hook's answer: ok, or the plugin's error message.
struct HookStatus {
    bool ok = true;
    std::string error;
};

class PluginInstance {
public:
    // An instance of `entry` for `owner`'s profile; create() makes the plugin's side of it.
    PluginInstance(const PluginEntry& entry, InstanceOwner& owner) : entry_(entry), owner_(owner) {}
    // Creates the plugin's instance with `args_json`, handing it `host` (make_host of this);
    // throws Error carrying the plugin's message (one "path: problem" per line for args problems).
    void create(const kd_host& host, const std::string& args_json, int64_t descheduling_interval_ms);
    ~PluginInstance();
    PluginInstance(const PluginInstance&) = delete;
    PluginInstance& operator=(const PluginInstance&) = delete;

    const std::string& name() const { return entry_.name; }
    const PluginEntry& entry() const { return entry_; }
    InstanceOwner& owner() const { return owner_; }

    HookStatus deschedule(const kd_call& call);
    HookStatus balance(const kd_call& call);
    // A failing filter hook rejects the pod (fail closed) with reason "error: <message>".
    void filter(const kd_call& call, const kd_pod& pod, bool pre_eviction, kd_filter_result& out);
    HookStatus evict(const kd_call& call, const kd_pod& pod, const kd_evict_options& options, kd_evict_result& out);
    // The periodic hook; only for plugins whose entry().tick_hook() is set. `next_ms`: when the
    // plugin wants the next call (0 = not before the next cycle).
    HookStatus tick(const kd_call& call, int64_t& next_ms);

    // True the first time this instance reports the unknown fact `kind`/`key` (warned once).
    bool first_unknown_report(std::string_view kind, std::string_view key) {
        return unknown_reports_.insert(std::string(kind) + "/" + std::string(key)).second;
    }

private:
    PluginEntry entry_;
    InstanceOwner& owner_;
    kd_host host_{};
    kd_plugin_instance* handle_ = nullptr;
    std::string filter_error_;  // keeps an error reason alive for the caller
    std::set<std::string> unknown_reports_;
};

// Collects a hook's error message through the C error sink.
struct ErrorSink {
    std::string message;
    kd_error_sink sink{sizeof(kd_error_sink), this, &set, KD_WRITE_OK, {}};
    static void set(kd_error_sink* self, const char* m, size_t n) {
        static_cast<ErrorSink*>(self->host_data)->message.assign(m ? m : "", m ? n : 0);
    }
};

}  // namespace kd::core
