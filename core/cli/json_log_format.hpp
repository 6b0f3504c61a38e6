// --log-format json: one JSON object per log line, as log collectors index them —
// {"ts","level","msg"} plus the line's fields as their own keys: the `[profile/plugin]` prefix of
// a plugin's line becomes "profile" and "plugin", and trailing klog-style `key=value` /
// `key="quoted value"` pairs ("pod", "node", "reason", …) leave the message for fields of their
// own. Start-up errors go through it too (main.cpp), so a collector sees every line as JSON.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kd::cli {

// Whether the command line asks for JSON logs (`--log-format json` or `--log-format=json`).
bool asks_json_logs(const std::vector<std::string>& args);

// Makes the default logger write JSON lines.
void use_json_log_format();

// A start-up error (bad flag, bad profile): on stderr as it is, or as a JSON "error" line when
// JSON logs were asked for.
void report_error(std::string_view message);

// The parts of a log message: its text and its fields, in order (exposed for tests).
struct LogParts {
    std::string profile, plugin;
    std::string msg;
    std::vector<std::pair<std::string, std::string>> fields;
};
LogParts split_log_message(std::string_view message);

}  // namespace kd::cli
