#include "cli/cli_common.hpp"

#include <system_error>

namespace kd::cli {

std::vector<std::filesystem::path> plugin_directories(const CommonOptions& opts) {
    std::vector<std::filesystem::path> dirs(opts.plugin_dirs.begin(), opts.plugin_dirs.end());
    if (!opts.no_default_plugin_dir) {
        std::error_code ec;
        auto def = std::filesystem::weakly_canonical(core::default_plugin_directory(), ec);
        // The default directory is optional; an explicit --plugin-dir must exist.
        if (!ec && std::filesystem::is_directory(def)) dirs.push_back(def);
    }
    return dirs;
}

core::PluginCatalog load_plugins(const CommonOptions& opts) {
    core::PluginCatalog catalog;
    catalog.load(plugin_directories(opts));
    return catalog;
}

core::DeschedulerConfiguration load_config(const std::string& path) {
    if (path.empty()) return core::parse_configuration(kEmbeddedDefaultProfile, "<embedded profiles/default.yaml>");
    return core::load_configuration(path);
}

}  // namespace kd::cli
