// `kdesched validate`: config schema, plugin existence and every plugin's args, all at once.
#include "cli/commands.hpp"
#include "error.hpp"
#include "runtime/descheduler.hpp"

#include <iostream>

namespace kd::cli {

int run_validate(const CommonOptions& opts, const std::string& config_path) {
    try {
        core::DeschedulerConfiguration cfg = load_config(config_path);
        core::PluginCatalog catalog = load_plugins(opts);
        // Building the frameworks creates every plugin, which decodes and validates its args.
        core::Descheduler d(cfg, catalog, nullptr, nullptr);
        std::cout << "OK: " << cfg.sourceFile << ": " << cfg.profiles.size() << " profile(s), "
                  << catalog.entries().size() << " plugin(s) available\n";
        return kOk;
    } catch (const core::Error& e) {
        std::cout << e.what() << "\n";
        return kInvalidInput;
    }
}

}  // namespace kd::cli
