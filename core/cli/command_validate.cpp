// `kdesched validate`: config schema, plugin existence and every plugin's args, all at once.
#include "cli/subcommand.hpp"
#include "error.hpp"
#include "runtime/descheduler.hpp"

#include <iostream>

namespace kd::cli {

namespace {

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

const SubcommandRegistration validate_registration(
    {10, [](CLI::App& app, CommonOptions& common) -> SubcommandRun {
         auto* cmd = app.add_subcommand("validate",
                                        "Check a profiles file: schema, plugins and every plugin's args; "
                                        "prints every problem with file:line:column, or OK");
         auto config = std::make_shared<std::string>();
         cmd->add_option("--config", *config,
                         "DeschedulerConfiguration YAML, a kubernetes-sigs/descheduler DeschedulerPolicy "
                         "(descheduler/v1alpha2), or a ConfigMap holding either")
             ->required();
         add_plugin_dir_options(*cmd, common);
         add_log_level_option(*cmd, common.log_level);
         return [&common, config] { return run_validate(common, *config); };
     }});

}  // namespace

}  // namespace kd::cli
