// `kdesched plugins`: what the host can load, one line per plugin.
#include "cli/commands.hpp"
#include "error.hpp"

#include <iostream>

namespace kd::cli {

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

int run_version() {
    std::cout << "kdesched " << KDESCHED_VERSION << " (plugin API " << core::version_text(core::host_api_version())
              << ")\n";
    return kOk;
}

}  // namespace kd::cli
