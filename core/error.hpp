// The core's one error style: every failure is a kd::core::Error whose message says what went
// wrong, where (file:line:column, object, plugin or file path) and what to do about it. Functions
// that can find several problems at once (config validation, decoding) collect them and throw one
// Error listing them all. Startup errors are fatal; the CLI prints what() and exits non-zero.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace kd::core {

class Error : public std::runtime_error {
public:
    // `where`: file:line:column, "plugin X", "object Pod ns/name", …; `what`: the problem;
    // `hint`: what to do (may be empty).
    Error(const std::string& where, const std::string& what, const std::string& hint = "")
        : std::runtime_error(compose(where, what, hint)) {}

    // Several problems found together, one per line under a heading.
    Error(const std::string& heading, const std::vector<std::string>& problems)
        : std::runtime_error(compose_list(heading, problems)) {}

private:
    static std::string compose(const std::string& where, const std::string& what, const std::string& hint) {
        std::string out = where.empty() ? what : where + ": " + what;
        if (!hint.empty()) out += " (" + hint + ")";
        return out;
    }
    static std::string compose_list(const std::string& heading, const std::vector<std::string>& problems) {
        std::string out = heading;
        for (const auto& p : problems) {
            out += "\n  ";
            // Nested lists (an Error's text as one problem) indent one level deeper.
            for (char c : p) out += c == '\n' ? std::string("\n  ") : std::string(1, c);
        }
        return out;
    }
};

}  // namespace kd::core
