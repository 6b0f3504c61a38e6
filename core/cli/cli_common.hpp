// What every subcommand shares: plugin directories, config loading, exit codes.
#pragma once

#include "config/configuration.hpp"
#include "loader/plugin_catalog.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace kd::cli {

// Exit codes (documented in the README and in `kdesched --help`).
enum ExitCode : int {
    kOk = 0,
    kInvalidInput = 1,    // bad config, bad plugin, bad cluster file: the message says which and where
    kUsage = 2,           // bad command line
    kRuntimeFailure = 3,  // a cycle failed or the cluster could not be reached
};

struct CommonOptions {
    std::vector<std::string> plugin_dirs;  // --plugin-dir, repeatable
    bool no_default_plugin_dir = false;    // --no-default-plugin-dir
    std::string log_level = "warn";
};

// Loads the plugins from --plugin-dir plus the default directory next to the binary.
core::PluginCatalog load_plugins(const CommonOptions& opts);
std::vector<std::filesystem::path> plugin_directories(const CommonOptions& opts);

// Loads --config, or the embedded default profile when `path` is empty.
core::DeschedulerConfiguration load_config(const std::string& path);

// The default profile compiled into the binary (profiles/default.yaml).
extern const char* const kEmbeddedDefaultProfile;
// The example cluster `kdesched simulate` uses without --cluster (examples/clusters/hotspot.json).
extern const char* const kEmbeddedDefaultCluster;

}  // namespace kd::cli
