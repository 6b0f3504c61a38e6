// kdesched-soak: `kdesched run` under faults. The test API server holds a generated cluster that
// an actor keeps alive (soak_cluster.hpp); one replica of the daemon, then two on one lease, run
// the default plugins with budgets while the server drops, stalls and fails on a seeded schedule
// (fault_injector.hpp) and the leader is SIGKILLed mid-migration and replaced. After the faults
// stop and the cluster calms down, the jobs get time to end; then the server's own record is checked (soak_checks.hpp)
// and every live replica's model is compared with the server. Prints seeds, faults by type, cycles, evictions, jobs and
// violations; exit 0 only with none.
//   kdesched-soak --duration 60 --seed 1
#include "fault_injector.hpp"
#include "soak_checks.hpp"
#include "soak_cluster.hpp"

#include "daemon_harness.hpp"
#include "run_command.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

namespace {

using kd_test::DaemonFiles;
using kd_test::DaemonProcess;

constexpr double kLeaseSeconds = 3;
constexpr int kMaxMigratingPerWorkload = 1, kMaxUnavailablePerWorkload = 1;
// Each replica process gets its own token; the server names users by its first character.
constexpr const char* kTokens = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

std::string profile(int port) {
    return fmt::format(R"(apiVersion: descheduler/v1alpha2
kind: DeschedulerConfiguration
deschedulingInterval: 1s
healthzBindAddress: 127.0.0.1:{0}
metricsBindAddress: 127.0.0.1:{0}
leaderElection:
  leaseDuration: 3s
  renewDeadline: 2s
  retryPeriod: 500ms
profiles:
- name: soak
  plugins:
    deschedule:
      disabled: [{{name: "*"}}]
    balance:
      enabled: [{{name: LowNodeLoad}}]
    evict:
      disabled: [{{name: "*"}}]
      enabled: [{{name: MigrationController}}]
    filter:
      disabled: [{{name: "*"}}]
      enabled: [{{name: MigrationController}}]
  pluginConfig:
  - name: MigrationController
    args:
      namespaces: {{exclude: [kube-system]}}
      maxMigratingPerWorkload: {1}
      maxUnavailablePerWorkload: {2}
      maxMigratingPerNode: 2
      defaultJobTTL: 20s
      evictQPS: "20"
      evictBurst: 5
      objectLimiters: {{workload: {{duration: 2s}}}}
  - name: LowNodeLoad
    args:
      evictableNamespaces: {{exclude: [kube-system]}}
      anomalyCondition: {{consecutiveAbnormalities: 1}}
      lowThresholds: {{cpu: 40, memory: 80}}
      highThresholds: {{cpu: 60, memory: 90}}
)",
                       port, kMaxMigratingPerWorkload, kMaxUnavailablePerWorkload);
}

// The sum of a series' samples in a Prometheus text exposition (every label set), -1 if absent.
double series_sum(const std::string& text, const std::string& series) {
    double sum = -1;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(series, 0) == 0 && (line[series.size()] == ' ' || line[series.size()] == '{'))
            sum = std::max(sum, 0.0) + std::stod(line.substr(line.rfind(' ') + 1));
    return sum;
}

struct Replica {
    char token;
    int port;
    std::unique_ptr<DaemonFiles> files;
    std::unique_ptr<DaemonProcess> process;
    double cycles = 0;  // the last count it reported
};

class Replicas {
public:
    explicit Replicas(kd_test::FakeApiServer& server) : server_(server) {}
    bool start() {
        if (next_ >= std::strlen(kTokens)) return false;
        Replica r{kTokens[next_++], kd_test::free_port(), nullptr, nullptr, 0};
        r.files = std::make_unique<DaemonFiles>(server_.url(), std::string(1, r.token) + "-token", r.port);
        std::ofstream(r.files->dir / "profile.yaml") << profile(r.port);
        r.process = std::make_unique<DaemonProcess>(*r.files, std::string(1, r.token));
        live_.push_back(std::move(r));
        return true;
    }
    // The replica that says it leads, or nullptr.
    Replica* leader() {
        for (auto& r : live_)
            if (series_sum(kd_test::scrape(r.port, "/metrics").second, "leader_election_master_status") == 1) return &r;
        return nullptr;
    }
    void kill(Replica* r) {
        r->process->signal(SIGKILL);
        r->process->wait(10);
        retire(r);
    }
    // Replicas that exited on their own (a lost lease is exit 3) are replaced.
    size_t replace_exited() {
        size_t n = 0;
        for (size_t i = 0; i < live_.size();)
            if (int code = live_[i].process->wait(0.01); code != -1 || !live_[i].process->running()) {
                std::cout << fmt::format("replica {} exited with {}; its log ends:\n{}\n", live_[i].token, code,
                                         tail(live_[i].process->log()));
                retire(&live_[i]);
                ++n;
                start();
            } else {
                ++i;
            }
        return n;
    }
    void scrape_cycles() {
        for (auto& r : live_)
            if (double c =
                    series_sum(kd_test::scrape(r.port, "/metrics").second, "descheduler_loop_duration_seconds_count");
                c >= 0)
                r.cycles = c;
    }
    double cycles() const {
        double c = retired_cycles_;
        for (const auto& r : live_) c += r.cycles;
        return c;
    }
    std::vector<Replica>& live() { return live_; }
    void stop_all() {
        for (auto& r : live_) r.process->signal(SIGTERM);
        for (auto& r : live_) r.process->wait(15);
    }
    size_t started() const { return next_; }
    // Every replica's log, for a run that found violations.
    void save_logs(const std::filesystem::path& dir) const {
        std::filesystem::create_directories(dir);
        for (const auto* list : {&retired_, &live_})
            for (const auto& r : *list) std::ofstream(dir / (std::string(1, r.token) + ".log")) << r.process->log();
    }

private:
    static std::string tail(const std::string& log) { return log.size() > 1500 ? log.substr(log.size() - 1500) : log; }
    void retire(Replica* r) {
        retired_cycles_ += r->cycles;
        retired_.push_back(std::move(*r));  // its files stay until the end, for its log
        live_.erase(live_.begin() + (r - live_.data()));
    }
    kd_test::FakeApiServer& server_;
    std::vector<Replica> live_, retired_;
    size_t next_ = 0;
    double retired_cycles_ = 0;
};

kd_test::FakeApiServerOptions server_options() {
    kd_test::FakeApiServerOptions o;
    for (const char* t = kTokens; *t; ++t) {
        o.args.push_back("--token");
        o.args.push_back(std::string(1, *t) + "-token");
    }
    o.args.push_back("--bookmark-interval");
    o.args.push_back("5");
    return o;
}

bool all_jobs_ended(kd::soak::SoakCluster& cluster) {
    kd::soak::SoakFindings f;
    kd::soak::check_end_state(cluster.objects("PodMigrationJob"), cluster.objects("Reservation"), f);
    return f.total() == 0;
}

// The kinds whose count or digest differ between two /debug/model answers, "" when none.
std::string digest_difference(const std::string& model, const std::string& server) {
    rapidjson::Document m, s;
    m.Parse(model.c_str());
    s.Parse(server.c_str());
    if (!m.IsObject() || !m.HasMember("kinds") || !s.IsObject() || !s.HasMember("kinds"))
        return "unreadable digests: " + model + " / " + server;
    std::string out;
    for (const auto& k : s["kinds"].GetObject()) {
        std::string kind = k.name.GetString();
        const rapidjson::Value* mine = m["kinds"].HasMember(kind.c_str()) ? &m["kinds"][kind.c_str()] : nullptr;
        auto describe = [](const rapidjson::Value& d) {
            return fmt::format("{} objects, digest {}", d["count"].GetUint64(), d["digest"].GetString());
        };
        if (!mine || *mine != k.value)
            out += fmt::format("{}{}: {} in the model, {} on the server", out.empty() ? "" : "; ", kind,
                               mine ? describe(*mine) : "nothing", describe(k.value));
    }
    return out;
}

// Every live replica's model equals a fresh read of the server: each one's GET /debug/model
// against `kdesched snapshot --digest` (every kind, every field kdesched keeps).
std::string model_difference(Replicas& replicas) {
    if (replicas.live().empty()) return "";
    const auto& dir = replicas.live().front().files->dir;
    auto read = run_bounded({KDESCHED_BINARY, "snapshot", "--kubeconfig", (dir / "kubeconfig").string(), "--digest",
                             "-o", (dir / "server-digest.json").string()},
                            60);
    if (read.exit_code != 0) return "kdesched snapshot --digest failed: " + read.output;
    std::string server = kd_test::read_file(dir / "server-digest.json");
    for (auto& r : replicas.live()) {
        auto [code, model] = kd_test::scrape(r.port, "/debug/model");
        if (code != 200) return fmt::format("replica {}: GET /debug/model answered {}: {}", r.token, code, model);
        if (std::string d = digest_difference(model, server); !d.empty())
            return fmt::format("replica {}: {}", r.token, d);
    }
    return "";
}

// A crash of the soak itself says where, on stderr (the soak is a test: its own defects must be
// as visible as the daemon's).
void on_crash(int sig) {
    void* frames[64];
    int n = ::backtrace(frames, 64);
    const char head[] = "kdesched-soak crashed; backtrace:\n";
    [[maybe_unused]] auto w = ::write(2, head, sizeof head - 1);
    ::backtrace_symbols_fd(frames, n, 2);
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

int soak(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
    for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE}) ::signal(sig, on_crash);
    try {
        return soak(argc, argv);
    } catch (const std::exception& e) {
        std::cout << std::flush;
        std::cerr << "kdesched-soak: " << e.what() << "\n";
        return 2;
    }
}

namespace {

int soak(int argc, char** argv) {
    double duration = 60, quiet = 45;
    uint64_t seed = 1;
    CLI::App app{"kdesched-soak: kdesched run against the test API server under seeded faults"};
    app.add_option("--duration", duration, "seconds of faults (default 60)");
    app.add_option("--quiet", quiet, "seconds at most for the jobs to end once the faults stop (default 45)");
    app.add_option("--seed", seed, "the seed of the cluster, the actors and the fault schedule (default 1)");
    CLI11_PARSE(app, argc, argv);

    using Clock = std::chrono::steady_clock;
    auto t0 = Clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };

    kd_test::FakeApiServer server(server_options());
    kd::soak::SoakCluster cluster(server, seed);
    cluster.load();
    kd::soak::FaultInjector faults(server, seed * 7919 + 1);
    Replicas replicas(server);
    replicas.start();

    double next_fault = 4, next_kill = duration * 0.4, next_scrape = 1, second_replica = duration * 0.25;
    size_t exits = 0;
    while (elapsed() < duration) {
        double t = elapsed();
        cluster.step(t);
        if (t >= second_replica && replicas.live().size() < 2) replicas.start();
        if (t >= next_fault) {
            faults.inject_one();
            next_fault = t + 2 + double(faults.dice()() % 4);
        }
        if (t >= next_kill) {
            if (Replica* leader = replicas.leader()) {
                replicas.kill(leader);
                faults.count("leader SIGKILLed");
                replicas.start();
            }
            next_kill = t + 12 + double(faults.dice()() % 9);
        }
        if (t >= next_scrape) {
            replicas.scrape_cycles();
            exits += replicas.replace_exited();
            next_scrape = t + 1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    faults.clear();
    cluster.calm();
    double quiet_start = elapsed(), settled = 0;
    std::string difference;
    // Until the jobs have ended and the models compared, and still no job runs: a leader that took
    // over from one killed late may start a migration during the comparison, which must end too.
    do {
        while (elapsed() - quiet_start < quiet && !all_jobs_ended(cluster)) {
            cluster.step(elapsed());
            exits += replicas.replace_exited();
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
        }
        settled = elapsed() - quiet_start;
        // The actors rest (koordlet would change NodeMetrics under the comparison); a write the
        // replicas just made reaches their watches a moment later.
        for (int i = 0; i < 40; ++i) {
            if ((difference = model_difference(replicas)).empty()) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
        }
    } while (elapsed() - quiet_start < quiet && !all_jobs_ended(cluster));
    replicas.scrape_cycles();
    replicas.stop_all();

    kd::soak::SoakFindings findings;
    kd::soak::check_requests(server.requests(), cluster,
                             {kLeaseSeconds, kMaxMigratingPerWorkload, kMaxUnavailablePerWorkload}, findings);
    kd::soak::check_end_state(cluster.objects("PodMigrationJob"), cluster.objects("Reservation"), findings);
    if (!difference.empty()) findings.add("model-differs-from-server", difference);
    std::map<std::string, size_t> phases;
    rapidjson::Document jobs = cluster.objects("PodMigrationJob");
    for (const auto& j : jobs["items"].GetArray()) ++phases[kd_test::str(j, {"status", "phase"})];

    size_t injected = 0;
    std::string by_type;
    for (const auto& [name, n] : faults.injected()) {
        injected += n;
        by_type += fmt::format("{}{} {}", by_type.empty() ? "" : ", ", n, name);
    }
    std::cout << fmt::format("seed {}: {:.0f} s of faults, then {:.1f} s for the jobs to end\n", seed, duration,
                             settled);
    std::cout << fmt::format("faults: {} ({})\n", injected, by_type);
    std::cout << fmt::format("replicas: {} started, {} exited on their own; {:.0f} cycles\n", replicas.started(), exits,
                             replicas.cycles());
    std::string by_phase;
    for (const auto& [phase, n] : phases) by_phase += fmt::format(" {}={}", phase.empty() ? "Pending" : phase, n);
    std::cout << fmt::format(
        "writes: {} ({} lease writes apart); evictions: {} of {} attempts; jobs: {} created,{}; replacement pods: {}; "
        "unschedulable Reservations: {}\n",
        findings.writes, findings.lease_writes, findings.evictions, findings.eviction_attempts, findings.jobs_created,
        by_phase, cluster.replacements(), cluster.unschedulable_reservations());
    std::cout << fmt::format("admissions replayed: {} ({} leaving their workload at maxUnavailablePerWorkload {})\n",
                             findings.admissions, findings.admissions_at_unavailable_limit, kMaxUnavailablePerWorkload);
    for (const auto& m : findings.messages) std::cout << "VIOLATION " << m << "\n";
    if (findings.total() > 0) {
        std::string logs = fmt::format("soak-logs-{}", seed);
        replicas.save_logs(logs);
        std::cout << "the replicas' logs are in " << logs << "/ (KDESCHED_TEST_LOG_LEVEL=debug for more)\n";
    }
    std::cout << "violations: " << findings.total();
    for (const auto& [kind, n] : findings.violations) std::cout << fmt::format(" {}={}", kind, n);
    std::cout << "\n";
    std::cout << std::flush;
    return findings.total() == 0 && findings.evictions > 0 ? 0 : 1;
}

}  // namespace
