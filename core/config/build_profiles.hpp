// profiles[]: default names, plugin sets merged with the defaults (merge_plugin_sets.hpp),
// pluginConfig entries.
#pragma once

#include "config/configuration.hpp"
#include "config/wire.hpp"
#include "text/reporter.hpp"

#include <optional>
#include <vector>

namespace kd::core {

// Never fails; every problem goes to `report`.
std::vector<Profile> build_profiles(const std::optional<std::vector<wire::Profile>>& profiles, Reporter& report);

// The pieces both configuration formats share (a DeschedulerPolicy's profiles, decode_policy.cpp).
// pluginConfig[] at `path`: names required and unique, args kept as JSON with their locations.
std::vector<PluginConfig> build_plugin_configs(const std::optional<std::vector<wire::PluginConfig>>& list,
                                               const std::string& path, Reporter& report);
// One unnamed profile gets `default_name`; with several, each needs a unique name.
void check_profile_names(std::vector<Profile>& profiles, const std::string& default_name, Reporter& report);
// Bounds on what one file may ask for (every profile and plugin is instantiated and called each
// cycle); far above any real configuration.
inline constexpr size_t kMaxProfiles = 64;
inline constexpr size_t kMaxPluginsPerList = 64;

}  // namespace kd::core
