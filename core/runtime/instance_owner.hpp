// What a plugin instance, and the kd_host callbacks it calls, need of the profile that owns it: its
// name, the run's shared context, its evictor proxy and its evict plugin. ProfileRuntime is the
// one owner; the callbacks see only this, so they sit below it.
#pragma once

#include "runtime/host_context.hpp"

#include <string>

namespace kd::core {

class EvictorProxy;
class PluginInstance;

class InstanceOwner {
public:
    virtual ~InstanceOwner() = default;
    virtual const std::string& name() const = 0;
    virtual HostContext& context() const = 0;
    virtual const EvictorProxy& evictor() const = 0;
    // The profile's single evict plugin (nullptr while the profile is being built).
    virtual PluginInstance* evict_plugin() const = 0;
};

}  // namespace kd::core
