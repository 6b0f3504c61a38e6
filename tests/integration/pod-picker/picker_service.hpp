// The example Pod Picker (examples/pod-picker/pod_picker.py) run with python3 for one test, on a
// 127.0.0.1 port the kernel picks; its request log (stderr) goes to a file the test can read.
#pragma once

#include "closed_port.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

class PickerService {
public:
    PickerService(const std::string& script, std::vector<std::string> args, const std::string& log_file)
        : log_file_(log_file) {
        int out[2];
        if (::pipe(out) != 0) throw std::runtime_error("PickerService: pipe failed");
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
        posix_spawn_file_actions_addclose(&actions, out[0]);
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        std::vector<std::string> argv_s = {"python3", script, "--port", "0"};
        argv_s.insert(argv_s.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (auto& a : argv_s) argv.push_back(a.data());
        argv.push_back(nullptr);
        int rc = posix_spawnp(&pid_, "python3", &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        ::close(out[1]);
        if (rc != 0) {
            ::close(out[0]);
            throw std::runtime_error("PickerService: cannot start python3");
        }
        std::string line = first_line(out[0]);
        ::close(out[0]);
        // "listening on http://127.0.0.1:<port>/pick"
        size_t colon = line.rfind(':'), slash = line.find('/', colon);
        if (line.rfind("listening on ", 0) != 0 || colon == std::string::npos || slash == std::string::npos)
            throw std::runtime_error("PickerService: unexpected first line \"" + line + "\"; log:\n" + log());
        port_ = static_cast<uint16_t>(std::stoi(line.substr(colon + 1, slash - colon - 1)));
    }
    ~PickerService() {
        ::kill(pid_, SIGTERM);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
    PickerService(const PickerService&) = delete;
    PickerService& operator=(const PickerService&) = delete;

    uint16_t port() const { return port_; }
    // What the service logged so far (one line per request it answered).
    std::string log() const {
        std::ifstream in(log_file_);
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    }

private:
    // The first line the service prints, waiting up to 20 s for it.
    static std::string first_line(int fd) {
        std::string line;
        char c;
        while (true) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 20'000) <= 0 || ::read(fd, &c, 1) != 1 || c == '\n') return line;
            line += c;
        }
    }
    pid_t pid_ = -1;
    uint16_t port_ = 0;
    std::string log_file_;
};
