#include "api_bench.hpp"

#include "cluster/cluster_model.hpp"
#include "fake_apiserver.hpp"
#include "generate/cluster_generator.hpp"
#include "kube/cluster_sync.hpp"
#include "kube/json_stream.hpp"
#include "process_figures.hpp"

#include <fmt/format.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

namespace kd::tools {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// Loads a generated List into the server in batches of ~16 MB; returns the pods loaded.
uint64_t load_server(kd_test::FakeApiServer& server, const std::filesystem::path& file) {
    std::string batch;
    uint64_t pods = 0;
    auto flush = [&] {
        if (batch.empty()) return;
        server.load("[" + batch + "]");
        batch.clear();
    };
    core::kube::ListSplitter splitter([&](std::string_view item) {
        if (item.find("\"kind\":\"Pod\"") != std::string_view::npos) ++pods;
        if (!batch.empty()) batch += ',';
        batch.append(item);
        if (batch.size() > (16u << 20)) flush();
    });
    std::ifstream in(file, std::ios::binary);
    std::string chunk(4u << 20, '\0');
    while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0)
        splitter.feed(std::string_view(chunk.data(), static_cast<size_t>(in.gcount())));
    flush();
    return pods;
}

uint64_t received_bytes(const core::kube::ClusterSync& sync) {
    uint64_t bytes = 0;
    for (const auto& r : sync.reflectors()) bytes += r->stats().bytes.load();
    return bytes;
}

// Applies what arrives until `done` holds; false after `limit`.
template <class Done>
bool apply_until(core::kube::ClusterSync& sync, core::kube::ModelFeeder& feeder, Done done,
                 std::chrono::seconds limit) {
    auto deadline = Clock::now() + limit;
    while (!done()) {
        if (Clock::now() > deadline) return false;
        sync.apply(feeder);
        if (!done()) sync.wait(Clock::now() + std::chrono::milliseconds(20));
    }
    return true;
}

std::string now_rfc3339() {
    std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

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

// `kdesched run` with the default profile in dry run on `server`: ready time, RSS, CPU.
int measure_daemon(const ApiBenchOptions& o, kd_test::FakeApiServer& server) {
    auto dir = std::filesystem::temp_directory_path() / fmt::format("kdesched-bench-daemon-{}", ::getpid());
    std::filesystem::create_directories(dir);
    int port = 20000 + ::getpid() % 20000;
    std::ofstream(dir / "kubeconfig")
        << "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: " << server.url()
        << "\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: x\n  context: {cluster: c, "
           "user: u}\ncurrent-context: x\n";
    std::ifstream in(o.default_profile);
    std::string profile((std::istreambuf_iterator<char>(in)), {});
    const std::string interval = "deschedulingInterval: 10s\n";
    profile.replace(profile.find(interval), interval.size(),
                    interval + fmt::format("dryRun: true\nhealthzBindAddress: 127.0.0.1:{0}\nmetricsBindAddress: "
                                           "127.0.0.1:{0}\n",
                                           port));
    std::ofstream(dir / "profile.yaml") << profile;
    // koordlet: every NodeMetric reported now, so LowNodeLoad sees fresh usage.
    server.control("POST", "touch",
                   fmt::format(R"({{"kind":"NodeMetric","apiVersion":"slo.koordinator.sh/v1alpha1",)"
                               R"("count":1000000,"update_time":"{}"}})",
                               now_rfc3339()));
    pid_t pid = ::fork();
    if (pid == 0) {
        std::string log = (dir / "daemon.log").string();
        FILE* f = std::freopen(log.c_str(), "w", stderr);
        (void)f;
        ::execl(o.daemon_binary.c_str(), o.daemon_binary.c_str(), "run", "--config", (dir / "profile.yaml").c_str(),
                "--kubeconfig", (dir / "kubeconfig").c_str(), "--plugin-dir", o.plugin_dir.c_str(), "--log-level",
                "warn", nullptr);
        ::_exit(127);
    }
    kd::core::net::HttpClient probe("http://127.0.0.1:" + std::to_string(port), {});
    auto get = [&](const std::string& path) { return probe.send({"GET", path, {}, "", ""}); };
    auto t0 = Clock::now();
    while (get("/readyz").status != 200) {
        if (seconds_since(t0) > 900 || ::waitpid(pid, nullptr, WNOHANG) == pid) {
            std::cerr << "the daemon did not become ready (log: " << (dir / "daemon.log").string() << ")\n";
            ::kill(pid, SIGKILL);
            return 1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    double ready_s = seconds_since(t0);
    ProcessFigures at_ready = figures_of(pid);
    std::string m0 = get("/metrics").body;
    std::this_thread::sleep_for(std::chrono::seconds(o.daemon_seconds));
    ProcessFigures after = figures_of(pid);
    std::string m1 = get("/metrics").body;
    double cycles =
        sample(m1, "descheduler_loop_duration_seconds_count") - sample(m0, "descheduler_loop_duration_seconds_count");
    double cycle_s =
        sample(m1, "descheduler_loop_duration_seconds_sum") - sample(m0, "descheduler_loop_duration_seconds_sum");
    double cpu = after.cpu_s - at_ready.cpu_s;
    std::cout << fmt::format(
        "kdesched run (default profile, dry run): ready (every kind synced) in {:.1f} s; RSS {:.0f} MB at ready, "
        "{:.0f} "
        "MB after {} s; CPU {:.2f} s in those {} s, {:.0f} cycles taking {:.0f} ms each (wall), so {:.2f} s of CPU "
        "({:.1f}%) outside cycles\n",
        ready_s, at_ready.rss_mb, after.rss_mb, o.daemon_seconds, cpu, o.daemon_seconds, cycles,
        cycles > 0 ? 1e3 * cycle_s / cycles : 0.0, std::max(0.0, cpu - cycle_s),
        100.0 * std::max(0.0, cpu - cycle_s) / o.daemon_seconds);
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    std::filesystem::remove_all(dir);
    return 0;
}

}  // namespace

int run_api_bench(const ApiBenchOptions& o) {
    auto file = std::filesystem::temp_directory_path() /
                fmt::format("kdesched-bench-api-{}-{}-{}.json", o.nodes, o.pods, ::getpid());
    {
        std::ofstream out(file, std::ios::binary);
        generate_cluster(out, {o.nodes, o.pods, 1, o.hot_share, true, now_rfc3339()});
    }
    double file_mb = double(std::filesystem::file_size(file)) / 1e6;
    kd_test::FakeApiServer server(
        kd_test::FakeApiServer::Options{{"--history", std::to_string(2 * o.events + 1000)}, false});
    // A v1.32 server answers resourceVersion=0 from its watch cache, whole, whatever the limit.
    server.settings(R"({"rv0_ignores_limit": true})");
    auto t_load = Clock::now();
    uint64_t pods = load_server(server, file);
    std::filesystem::remove(file);
    std::cout << fmt::format("test API server {} loaded: {:.0f} MB of objects, {} pods (~{:.1f} KB a pod), {:.0f} s\n",
                             server.url(), file_mb, pods, file_mb * 1e3 / double(std::max<uint64_t>(pods, 1)),
                             seconds_since(t_load));

    long rss_start = resident_bytes();
    core::kube::Connection connection;
    connection.server = server.url();
    connection.source = "benchmark";
    core::kube::ClientOptions client_options;
    client_options.qps = 0;  // the client-side rate limit would measure itself, not the client
    core::kube::ApiClient client(connection, client_options);
    core::ClusterModel model;
    core::kube::ModelFeeder feeder(model);
    core::kube::ClusterSync sync(client);

    // 1. Every kind listed and decoded into the model, the watches open.
    CpuClock cpu;
    ThreadCpuClock control;  // this thread applies what the network threads receive and split
    auto t_list = Clock::now();
    sync.start();
    if (!apply_until(
            sync, feeder, [&] { return sync.not_synced(feeder).empty(); }, std::chrono::seconds(600))) {
        std::cerr << "the kinds did not sync within 10 minutes:\n";
        for (const auto& k : sync.not_synced(feeder)) std::cerr << "  " << k << "\n";
        return 1;
    }
    double list_s = seconds_since(t_list), list_cpu = cpu.seconds(), list_control = control.seconds();
    double list_mb = double(received_bytes(sync)) / 1e6;
    long rss_synced = resident_bytes();
    std::cout << fmt::format(
        "LIST + decode: {:.0f} MB of response bodies, {} pods in the model in {:.2f} s: {:.0f} MB/s end to end; "
        "client CPU {:.2f} s: {:.0f} MB per CPU-second (decode into the model on the control thread {:.2f} s: {:.0f} "
        "MB/s; receive and split on the network threads {:.2f} s)\n",
        list_mb, model.pod_count(), list_s, list_mb / list_s, list_cpu, list_mb / list_cpu, list_control,
        list_mb / list_control, list_cpu - list_control);
    std::cout << fmt::format("RSS after sync: {:.0f} MB (whole process; {:.0f} MB at start, before the client)\n",
                             double(rss_synced) / 1e6, double(rss_start) / 1e6);

    // 2. A burst of pod MODIFIED events: made on the server before the watch sees the first.
    uint64_t before = feeder.counters(core::ObjectKind::pod).events;
    uint64_t bytes_before = received_bytes(sync);
    server.control("POST", "touch", fmt::format(R"({{"kind":"Pod","apiVersion":"v1","count":{}}})", o.events));
    cpu = CpuClock();
    control = ThreadCpuClock();
    auto t_watch = Clock::now();
    uint64_t want = before + std::min<uint64_t>(o.events, pods);
    if (!apply_until(
            sync, feeder, [&] { return feeder.counters(core::ObjectKind::pod).events >= want; },
            std::chrono::seconds(300))) {
        std::cerr << "the watch delivered " << feeder.counters(core::ObjectKind::pod).events - before << " of "
                  << want - before << " events within 5 minutes\n";
        return 1;
    }
    double watch_s = seconds_since(t_watch), watch_cpu = cpu.seconds(), watch_control = control.seconds();
    double events = double(want - before), watch_mb = double(received_bytes(sync) - bytes_before) / 1e6;
    std::cout << fmt::format(
        "watch: {:.0f} pod events ({:.0f} MB) applied to the model in {:.2f} s: {:.0f} events/s; client CPU "
        "{:.2f} s: {:.0f} events per CPU-second (applying on the control thread {:.2f} s: {:.0f} events/s)\n",
        events, watch_mb, watch_s, events / watch_s, watch_cpu, events / watch_cpu, watch_control,
        events / watch_control);
    std::cout << fmt::format("RSS after the burst: {:.0f} MB\n", double(resident_bytes()) / 1e6);
    sync.stop();
    return o.daemon_binary.empty() ? 0 : measure_daemon(o, server);
}

}  // namespace kd::tools
