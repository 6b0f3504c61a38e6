// How a profile's plugin set for one extension point combines with the default set, as
// koord-descheduler's v1alpha2 defaulting merges them (docs/architecture.md).
#pragma once

#include "config/configuration.hpp"

#include <string>
#include <vector>

namespace kd::core {

// What a profile wrote for one extension point.
struct UserPluginSet {
    std::vector<PluginRef> enabled;
    std::vector<std::string> disabled;  // "*" disables every default
};

// Koordinator's mergePluginSet: unless "*" is disabled, walk the defaults in order, dropping the
// disabled ones and replacing in place one that is also enabled (the last such user entry wins, as
// with Go's name → index map); then append every user entry that replaced nothing, in user order.
// Duplicates are kept: the framework rejects them when it is built.
std::vector<PluginRef> merge_plugin_set(const std::vector<PluginRef>& defaults, const UserPluginSet& user);

}  // namespace kd::core
