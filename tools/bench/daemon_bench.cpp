#include "daemon_bench.hpp"

#include "process_figures.hpp"

#include "net/http_client.hpp"

#include <fmt/format.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

namespace kd::tools {

namespace {

// Resident bytes and CPU seconds of another process, from /proc.
struct ProcessFigures {
    double rss_mb = 0, cpu_s = 0;
};
ProcessFigures figures_of(pid_t pid) {
    ProcessFigures f;
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0) f.rss_mb = std::stod(line.substr(6)) / 1e3;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), {});
    std::istringstream rest(text.substr(text.rfind(')') + 2));
    std::string field;
    double ticks = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i)
        if (i == 14 || i == 15) ticks += std::stod(field);  // utime, stime
    f.cpu_s = ticks / double(sysconf(_SC_CLK_TCK));
    return f;
}

// One sample of the Prometheus text (0 when absent).
double sample(const std::string& text, const std::string& series) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(series + " ", 0) == 0) return std::stod(line.substr(series.size() + 1));
    return 0;
}

}  // namespace

int measure_daemon(const DaemonRun& o) {
    auto dir = std::filesystem::temp_directory_path() /
               fmt::format("kdesched-bench-daemon-{}-{}", ::getpid(), std::string(o.accept) == kJson ? "json" : "pb");
    std::filesystem::create_directories(dir);
    int port = 20000 + ::getpid() % 20000;
    std::ifstream in(o.default_profile);
    std::string profile((std::istreambuf_iterator<char>(in)), {});
    const std::string interval = "deschedulingInterval: 10s\n";
    profile.replace(profile.find(interval), interval.size(),
                    interval + fmt::format("dryRun: true\nhealthzBindAddress: 127.0.0.1:{0}\nmetricsBindAddress: "
                                           "127.0.0.1:{0}\nclientConnection:\n  acceptContentTypes: \"{1}\"\n",
                                           port, o.accept));
    std::ofstream(dir / "profile.yaml") << profile;
    auto t0 = Clock::now();
    pid_t pid = ::fork();
    if (pid == 0) {
        std::string log = (dir / "daemon.log").string();
        FILE* f = std::freopen(log.c_str(), "w", stderr);
        (void)f;
        ::execl(o.binary.c_str(), o.binary.c_str(), "run", "--config", (dir / "profile.yaml").c_str(), "--kubeconfig",
                o.kubeconfig.c_str(), "--plugin-dir", o.plugin_dir.c_str(), "--log-level", o.log_level.c_str(),
                nullptr);
        ::_exit(127);
    }
    kd::core::net::HttpClient probe("http://127.0.0.1:" + std::to_string(port), {});
    auto get = [&](const std::string& path) { return probe.send({"GET", path, {}, "", ""}); };
    while (get("/readyz").status != 200) {
        if (seconds_since(t0) > 900 || ::waitpid(pid, nullptr, WNOHANG) == pid) {
            std::cerr << "the daemon did not become ready (log: " << (dir / "daemon.log").string() << ")\n";
            ::kill(pid, SIGKILL);
            return 1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    double ready_s = seconds_since(t0);
    while (sample(get("/metrics").body, "descheduler_loop_duration_seconds_count") < 1 && seconds_since(t0) < 900)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    double cycle_done_s = seconds_since(t0);
    const bool json = std::string(o.accept) == kJson;
    std::cout << fmt::format(
        "kdesched run ({:8}): ready (every kind synced) {:.1f} s after start, first cycle done "
        "at {:.1f} s\n",
        json ? "JSON" : "protobuf", ready_s, cycle_done_s);
    if (o.log_level != "warn") std::cout << "  its log: " << (dir / "daemon.log").string() << "\n";
    if (o.seconds > 0) {
        ProcessFigures at_ready = figures_of(pid);
        std::string m0 = get("/metrics").body;
        std::this_thread::sleep_for(std::chrono::seconds(o.seconds));
        ProcessFigures after = figures_of(pid);
        std::string m1 = get("/metrics").body;
        double cycles = sample(m1, "descheduler_loop_duration_seconds_count") -
                        sample(m0, "descheduler_loop_duration_seconds_count");
        double cycle_s =
            sample(m1, "descheduler_loop_duration_seconds_sum") - sample(m0, "descheduler_loop_duration_seconds_sum");
        double cpu = after.cpu_s - at_ready.cpu_s;
        std::cout << fmt::format(
            "kdesched run (default profile, dry run): RSS {:.0f} MB after the first cycle, {:.0f} MB {} s later; "
            "CPU {:.2f} s in those {} s, {:.0f} cycles taking {:.0f} ms each (wall), so {:.2f} s of CPU ({:.1f}%) "
            "outside cycles\n",
            at_ready.rss_mb, after.rss_mb, o.seconds, cpu, o.seconds, cycles, cycles > 0 ? 1e3 * cycle_s / cycles : 0.0,
            std::max(0.0, cpu - cycle_s), 100.0 * std::max(0.0, cpu - cycle_s) / o.seconds);
    }
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (o.log_level == "warn") std::filesystem::remove_all(dir);
    return 0;
}

}  // namespace kd::tools
