#include "cli/subcommand.hpp"

namespace kd::cli {

std::vector<Subcommand>& registered_subcommands() {
    static std::vector<Subcommand> all;  // built before main() by each command file's registration
    return all;
}

void add_plugin_dir_options(CLI::App& cmd, CommonOptions& common) {
    cmd.add_option("--plugin-dir", common.plugin_dirs,
                   "Directory of plugin libraries (*.so); repeatable. The directory next to the binary "
                   "(../lib/kdesched/plugins) is always searched too");
    cmd.add_flag("--no-default-plugin-dir", common.no_default_plugin_dir,
                 "Do not search the plugin directory next to the binary");
}

void add_log_level_option(CLI::App& cmd, std::string& level) {
    cmd.add_option("--log-level", level, "debug, info, warn or error")
        ->check(CLI::IsMember({"debug", "info", "warn", "error"}))
        ->capture_default_str();
}

}  // namespace kd::cli
