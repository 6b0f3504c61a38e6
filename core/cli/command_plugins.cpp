// `kdesched plugins`: what the host can load, one line per plugin.
#include "cli/subcommand.hpp"
#include "error.hpp"

#include <iostream>

namespace kd::cli {

namespace {

int run_plugins(const CommonOptions& opts) {
    core::PluginCatalog catalog;
    try {
        catalog = load_plugins(opts);
    } catch (const core::Error& e) {
        std::cerr << e.what() << "\n";
        return kInvalidInput;
    }
    auto dirs = plugin_directories(opts);
    if (catalog.entries().empty()) {
        std::cout << "no plugins found in:";
        for (const auto& d : dirs) std::cout << " " << d.string();
        std::cout << (dirs.empty() ? " (no directory; use --plugin-dir)" : "") << "\n";
        return kOk;
    }
    std::cout << "NAME\tVERSION\tAPI\tEXTENSION POINTS\tFILE\n";
    for (const auto& e : catalog.entries()) {
        std::string points;
        for (const auto& p : e.extension_points()) points += (points.empty() ? "" : ",") + p;
        std::cout << e.name << "\t" << e.version << "\t" << core::version_text(e.api_version) << "\t" << points << "\t"
                  << e.file << "\n";
    }
    return kOk;
}

const SubcommandRegistration plugins_registration(
    {20, [](CLI::App& app, CommonOptions& common) -> SubcommandRun {
         auto* cmd = app.add_subcommand(
             "plugins", "List the loadable plugins: name, version, API version, extension points, file");
         add_plugin_dir_options(*cmd, common);
         add_log_level_option(*cmd, common.log_level);
         return [&common] { return run_plugins(common); };
     }});

}  // namespace

}  // namespace kd::cli
