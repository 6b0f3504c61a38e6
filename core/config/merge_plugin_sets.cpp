#include "config/merge_plugin_sets.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace kd::core {

PluginSets default_plugin_sets() {
    PluginSets sets;
    sets.evict.push_back({"MigrationController", {}});
    sets.filter.push_back({"MigrationController", {}});
    return sets;
}

std::vector<PluginRef> merge_plugin_set(const std::vector<PluginRef>& defaults, const UserPluginSet& user) {
    std::set<std::string> disabled(user.disabled.begin(), user.disabled.end());
    std::unordered_map<std::string, size_t> enabled_index;
    for (size_t i = 0; i < user.enabled.size(); ++i) enabled_index[user.enabled[i].name] = i;

    std::vector<PluginRef> merged;
    std::set<size_t> replaced;
    if (!disabled.count("*")) {
        for (const auto& d : defaults) {
            if (disabled.count(d.name)) continue;
            auto it = enabled_index.find(d.name);
            if (it == enabled_index.end()) {
                merged.push_back(d);
                continue;
            }
            merged.push_back(user.enabled[it->second]);
            replaced.insert(it->second);
        }
    }
    for (size_t i = 0; i < user.enabled.size(); ++i)
        if (!replaced.count(i)) merged.push_back(user.enabled[i]);
    return merged;
}

}  // namespace kd::core
