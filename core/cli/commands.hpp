// The subcommands; each returns an ExitCode and prints its own output.
#pragma once

#include "cli/cli_common.hpp"

#include <string>

namespace kd::cli {

int run_validate(const CommonOptions& opts, const std::string& config_path);
int run_plugins(const CommonOptions& opts);
int run_plan(const CommonOptions& opts, const std::string& config_path);
int run_version();

}  // namespace kd::cli
