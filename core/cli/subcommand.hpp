// Subcommands register themselves: each command_*.cpp holds one SubcommandRegistration that adds
// its options to the command line and says what runs it, so main() only parses and dispatches.
#pragma once

#include "cli/cli_common.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace kd::cli {

// What runs a parsed subcommand; it returns an ExitCode.
using SubcommandRun = std::function<int()>;

struct Subcommand {
    int order = 0;  // its place in `kdesched --help`
    // Adds the subcommand to `app` with its options (bound to storage the returned run keeps).
    std::function<SubcommandRun(CLI::App& app, CommonOptions& common)> define;
};

// Every registered subcommand, in registration order (main() sorts by `order`).
std::vector<Subcommand>& registered_subcommands();

struct SubcommandRegistration {
    explicit SubcommandRegistration(Subcommand s) { registered_subcommands().push_back(std::move(s)); }
};

// The options several subcommands share.
void add_plugin_dir_options(CLI::App& cmd, CommonOptions& common);
void add_log_level_option(CLI::App& cmd, std::string& level);

}  // namespace kd::cli
