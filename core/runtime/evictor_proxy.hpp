// The Evictor every plugin of a profile gets (Koordinator's `evictorProxy`, with filters first):
// the filter plugins' Filter → their PreEvictionFilter (unless the request skips it,
// KD_EVICT_SKIP_PRE_EVICTION_FILTER) → per-node / per-namespace / total limits → framework dry
// run → the profile's single evict plugin. docs/compatibility.md says why filters run here.
#pragma once

#include "runtime/call_scope.hpp"
#include "runtime/host_context.hpp"

#include <kdesched/abi.h>

#include <string_view>
#include <vector>

namespace kd::core {

class PluginInstance;

class EvictorProxy {
public:
    // `pre_eviction_filters`: the plugins whose PreEvictionFilter is asked (a Koordinator profile's
    // filter plugins; a DeschedulerPolicy's preevictionfilter list).
    EvictorProxy(HostContext& ctx, std::vector<PluginInstance*> filters,
                 std::vector<PluginInstance*> pre_eviction_filters, PluginInstance* evict)
        : ctx_(ctx),
          filters_(std::move(filters)),
          pre_eviction_filters_(std::move(pre_eviction_filters)),
          evict_(evict) {}

    // AND of the filter (or pre-eviction filter) plugins, allowed when there are none; the first
    // rejection names its plugin.
    void filter(CallScope& scope, const kd_pod& pod, bool pre_eviction, kd_filter_result& out) const;
    // The full eviction path; `out` strings live in `scope`.
    void evict(CallScope& scope, const kd_pod& pod, const kd_evict_options& options, kd_evict_result& out) const;

private:
    // The first filter plugin that rejects the pod (told to the observer), with its reason; or nullptr.
    const PluginInstance* first_rejection(CallScope& scope, const kd_pod& pod, bool pre_eviction,
                                          std::string_view& reason) const;
    // The Warning Event of a stopped or failed eviction (asked for by evictionFailureEventNotification).
    void failure_event(const EvictionRecord& rec) const;

    HostContext& ctx_;
    std::vector<PluginInstance*> filters_;
    std::vector<PluginInstance*> pre_eviction_filters_;
    PluginInstance* evict_;
};

}  // namespace kd::core
