// Runs a shell command for integration tests, capturing stdout+stderr and the exit code.
#pragma once

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <string>

struct CommandResult {
    int exit_code = -1;
    std::string output;
};

inline CommandResult run_command(const std::string& cmd) {
    CommandResult r;
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf{};
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
    int status = pclose(p);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

inline std::string quote(const std::string& s) {
    return "'" + s + "'";
}
