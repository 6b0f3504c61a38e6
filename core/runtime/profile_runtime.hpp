// One profile's framework (as Koordinator's pkg/descheduler/framework builds it): one instance per
// enabled plugin, the per-point lists in enabled order, exactly one evict plugin, and the evictor
// proxy they all share.
#pragma once

#include "config/configuration.hpp"
#include "loader/plugin_catalog.hpp"
#include "runtime/call_scope.hpp"
#include "runtime/evictor_proxy.hpp"
#include "runtime/host_context.hpp"
#include "runtime/instance_owner.hpp"
#include "runtime/plugin_instance.hpp"

#include <kdesched/abi.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kd::core {

class ProfileRuntime : public InstanceOwner {
public:
    // Builds the framework; throws Error listing every problem of this profile (unknown plugin,
    // plugin not implementing the point, duplicates, evict count, plugin args), each with its
    // file:line:column.
    ProfileRuntime(const Profile& profile, const PluginCatalog& catalog, HostContext& ctx);

    const std::string& name() const override { return profile_.name; }
    const Profile& profile() const { return profile_; }
    HostContext& context() const override { return ctx_; }
    const EvictorProxy& evictor() const override { return *evictor_; }

    // Runs every plugin of the point in order on the profile's nodes (every plugin runs even if an
    // earlier one failed). Returns nullopt, or the error: one message, or "[e1, e2]" for several.
    std::optional<std::string> deschedule(const kd_snapshot& cluster, uint64_t cycle);
    std::optional<std::string> balance(const kd_snapshot& cluster, uint64_t cycle);
    // Runs the periodic hook of every plugin instance that has one (any extension point), on all
    // the profile's nodes. `next_ms` becomes the earliest time one of them asked for (0 = none).
    std::optional<std::string> tick(const kd_snapshot& cluster, uint64_t cycle, int64_t& next_ms);

    const std::vector<PluginInstance*>& deschedule_plugins() const { return deschedule_; }
    const std::vector<PluginInstance*>& balance_plugins() const { return balance_; }
    const std::vector<PluginInstance*>& filter_plugins() const { return filter_; }
    // Instances with a periodic hook, in creation order.
    const std::vector<PluginInstance*>& tick_plugins() const { return tick_; }
    PluginInstance* evict_plugin() const override { return evict_; }
    const std::vector<std::unique_ptr<PluginInstance>>& instances() const { return instances_; }

private:
    // Calls `hook(plugin, call)` for each of `plugins` on the profile's nodes; the errors joined.
    template <class Hook>
    std::optional<std::string> run(const std::vector<PluginInstance*>& plugins, const char* point,
                                   const kd_snapshot& cluster, uint64_t cycle, Hook&& hook);

    Profile profile_;
    HostContext& ctx_;
    std::vector<std::unique_ptr<PluginInstance>> instances_;  // one per plugin name
    std::vector<PluginInstance*> deschedule_, balance_, filter_, tick_;
    PluginInstance* evict_ = nullptr;
    std::unique_ptr<EvictorProxy> evictor_;
    std::vector<const kd_node*> nodes_;  // the profile's nodes for the running cycle
};

// Nodes of `nodes` whose labels match `selector` and `text` (all of them when there is neither).
std::vector<const kd_node*> select_nodes(const kd_node* const* nodes, size_t count,
                                         const std::optional<kd::LabelSelector>& selector,
                                         const kd::StringLabelSelector* text = nullptr);

}  // namespace kd::core
