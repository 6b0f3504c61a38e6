// The command lines of the deschedulers kdesched replaces, so that switching is a change of image
// alone: koord-descheduler's (Koordinator's chart: `/koord-descheduler --config=… --v=4`) and
// kubernetes-sigs/descheduler's (`descheduler --policy-config-file=… --descheduling-interval=5m
// --v=3`). kdesched's own command line always starts with a subcommand, so one whose first
// argument is a flag is read as `kdesched run` with these flags translated.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kd::cli {

struct ForeignCommandLine {
    std::vector<std::string> args;      // kdesched's: the program, "run", its flags
    std::vector<std::string> warnings;  // flags accepted and ignored, one line each
    std::string problem;                // "" or why the command line cannot be run (exit 2)
};

// nullopt when `argv` is kdesched's own (a subcommand first, or only --help / --version).
std::optional<ForeignCommandLine> foreign_command_line(const std::vector<std::string>& argv);

}  // namespace kd::cli
