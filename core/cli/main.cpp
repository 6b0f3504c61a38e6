// kdesched: the command line. Each subcommand registers itself in its command_*.cpp.
#include "cli/foreign_command_line.hpp"
#include "cli/json_log_format.hpp"
#include "cli/subcommand.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    using namespace kd::cli;
    CLI::App app{
        "kdesched: a Kubernetes descheduler (koord-descheduler compatible) with run-time loaded plugins.\n"
        "Exit codes: 0 ok, 1 invalid input (config, plugin, cluster file; the message says where),\n"
        "2 bad command line, 3 runtime failure."};
    app.require_subcommand(1);
    CommonOptions common;
    auto subcommands = registered_subcommands();
    std::stable_sort(subcommands.begin(), subcommands.end(),
                     [](const Subcommand& a, const Subcommand& b) { return a.order < b.order; });
    std::vector<std::pair<CLI::App*, SubcommandRun>> commands;
    for (const auto& s : subcommands) {
        SubcommandRun run = s.define(app, common);
        commands.emplace_back(app.get_subcommands({}).back(), std::move(run));  // the one it added
    }
    // Logs go to stderr: stdout carries the report (`--output json` must stay valid JSON). JSON
    // logs, when asked for, from the first line: a collector then reads start-up errors too.
    spdlog::set_default_logger(spdlog::stderr_color_mt("kdesched"));
    const std::vector<std::string> arguments(argv, argv + argc);
    // koord-descheduler's or kubernetes-sigs/descheduler's command line: read as `kdesched run`.
    auto foreign = foreign_command_line(arguments);
    const bool json_logs = asks_json_logs(foreign ? foreign->args : arguments);
    if (json_logs) use_json_log_format();
    if (foreign && !foreign->problem.empty()) {
        report_error(foreign->problem);
        return kUsage;
    }
    std::vector<char*> args;
    if (foreign)
        for (auto& a : foreign->args) args.push_back(a.data());
    try {
        if (foreign)
            app.parse(static_cast<int>(args.size()), args.data());
        else
            app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (json_logs && e.get_exit_code() != 0) {
            report_error(e.what());
            return kUsage;
        }
        int code = app.exit(e);
        return code == 0 ? kOk : kUsage;
    }
    spdlog::set_level(spdlog::level::from_str(common.log_level));
    if (foreign)
        for (const auto& w : foreign->warnings) spdlog::warn("{}", w);
    try {
        for (const auto& [cmd, run] : commands)
            if (cmd->parsed()) return run();
    } catch (const std::exception& e) {
        // Commands report their own errors; anything reaching here is a defect of kdesched.
        spdlog::critical("internal error: {} (please report it with the command line and its input)", e.what());
        return kRuntimeFailure;
    }
    return kUsage;
}
