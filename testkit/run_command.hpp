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

// A command run without a shell, killed after `timeout_seconds`: its output (stdout+stderr), exit
// code (-1 when killed or crashed), whether the time ran out, and its peak resident memory.
struct BoundedResult {
    int exit_code = -1;
    std::string output;
    bool timed_out = false;
    long max_rss_kb = 0;
};

#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <vector>

inline BoundedResult run_bounded(const std::vector<std::string>& argv, double timeout_seconds) {
    BoundedResult r;
    int out[2];
    if (pipe(out) != 0) return r;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], 1);
        dup2(out[1], 2);
        close(out[0]);
        close(out[1]);
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    close(out[1]);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
    std::array<char, 4096> buf{};
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            r.timed_out = true;
            kill(pid, SIGKILL);
            break;
        }
        pollfd p{out[0], POLLIN, 0};
        if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
        ssize_t n = read(out[0], buf.data(), buf.size());
        if (n <= 0) break;
        r.output.append(buf.data(), static_cast<size_t>(n));
    }
    close(out[0]);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    r.max_rss_kb = usage.ru_maxrss;
    r.exit_code = !r.timed_out && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}
