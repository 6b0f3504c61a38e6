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

}  // namespace kd::core
