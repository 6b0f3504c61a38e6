// `kdesched plan`: load a profile and the plugins, and print what each cycle would run.
#include "cli/subcommand.hpp"
#include "error.hpp"
#include "runtime/descheduler.hpp"

#include <kdesched/decode.hpp>

#include <iostream>

namespace kd::cli {

namespace {

std::string limit_text(const std::optional<uint32_t>& v) {
    return v ? std::to_string(*v) : "unlimited";
}

std::string selector_text(const std::optional<kd::LabelSelector>& s) {
    if (!s || s->empty()) return "all ready nodes";
    std::string out;
    for (const auto& [k, v] : s->matchLabels) out += (out.empty() ? "" : ",") + k + "=" + v;
    for (const auto& r : s->matchExpressions) {
        out += (out.empty() ? "" : ",") + r.key + " " + r.operator_;
        if (!r.values.empty()) {
            out += " (";
            for (size_t i = 0; i < r.values.size(); ++i) out += (i ? "," : "") + r.values[i];
            out += ")";
        }
    }
    return "nodes matching " + out;
}

void print_point(const char* point, const std::vector<core::PluginInstance*>& plugins, const core::Profile& profile) {
    std::cout << "    " << point << ":";
    if (plugins.empty()) std::cout << " (none)";
    for (auto* p : plugins) {
        std::cout << "\n      - " << p->name() << " " << p->entry().version << " from " << p->entry().file;
        if (const auto* cfg = profile.configFor(p->name()))
            std::cout << "\n        args: " << cfg->argsJson;
        else
            std::cout << "\n        args: (defaults)";
    }
    std::cout << "\n";
}

int run_plan(const CommonOptions& opts, const std::string& config_path) {
    try {
        core::DeschedulerConfiguration cfg = load_config(config_path);
        core::PluginCatalog catalog = load_plugins(opts);
        core::Descheduler d(cfg, catalog, nullptr, nullptr);
        std::cout << "config: " << cfg.sourceFile << "\n";
        std::cout << "plugins available: " << catalog.names() << "\n";
        auto interval = cfg.deschedulingInterval;
        std::cout << "cycle: every " << kd::format_duration(interval)
                  << (interval.value.count() == 0 ? " (deschedulingInterval 0: one cycle, then stop)" : "") << "\n";
        std::cout << "framework dry run: " << (cfg.dryRun ? "on (evictions are only logged)" : "off") << "\n";
        std::cout << "eviction limits per cycle: per node " << limit_text(cfg.maxNoOfPodsToEvictPerNode)
                  << ", per namespace " << limit_text(cfg.maxNoOfPodsToEvictPerNamespace) << ", total "
                  << limit_text(cfg.maxNoOfPodsToEvictTotal) << "\n";
        std::cout << "nodes: "
                  << (cfg.nodeSelectorText ? "nodes matching " + cfg.nodeSelectorText->text
                                           : selector_text(cfg.nodeSelector))
                  << "\n";
        std::cout << "each cycle runs, in this order:\n";
        std::cout << "  1. deschedule plugins of every profile, in file order\n";
        std::cout << "  2. balance plugins of every profile, in file order\n";
        std::cout << "  evictions go: filter plugins -> limits -> dry run -> the profile's evict plugin\n";
        std::cout << "  between cycles: the periodic work of plugins that have it, when they ask for it\n";
        for (const auto& p : d.profiles()) {
            std::cout << "profile \"" << p->name() << "\" (" << selector_text(p->profile().nodeSelector) << ")\n";
            print_point("deschedule", p->deschedule_plugins(), p->profile());
            print_point("balance", p->balance_plugins(), p->profile());
            print_point("filter", p->filter_plugins(), p->profile());
            print_point("evict", {p->evict_plugin()}, p->profile());
            std::string periodic;
            for (const core::PluginInstance* inst : p->tick_plugins())
                periodic += (periodic.empty() ? " " : ", ") + inst->name();
            std::cout << "    periodic work:" << (periodic.empty() ? " (none)" : periodic) << "\n";
        }
        return kOk;
    } catch (const core::Error& e) {
        std::cerr << e.what() << "\n";
        return kInvalidInput;
    }
}

const SubcommandRegistration plan_registration(
    {30, [](CLI::App& app, CommonOptions& common) -> SubcommandRun {
         auto* cmd = app.add_subcommand("plan", "Load a profiles file and the plugins and print what each cycle runs");
         auto config = std::make_shared<std::string>();
         cmd->add_option("--config", *config,
                         "DeschedulerConfiguration or DeschedulerPolicy YAML; default: the embedded default profile");
         add_plugin_dir_options(*cmd, common);
         add_log_level_option(*cmd, common.log_level);
         return [&common, config] { return run_plan(common, *config); };
     }});

}  // namespace

}  // namespace kd::cli
