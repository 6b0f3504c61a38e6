// What the daemon's end-to-end tests share: `kdesched run` as a child process, its kubeconfig and
// profile, and a cluster actor that plays the rest of the cluster on the test API server —
// koordlet (fresh NodeMetrics), koord-scheduler (Reservations scheduled on a target node) and the
// workload controllers (a replacement pod bound to the Reservation once the pod is evicted).
#pragma once

#include "fake_apiserver.hpp"
#include "net/http_client.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace kd_test {

namespace fs = std::filesystem;

// A port nothing listens on now (the kernel's pick, released).
inline int free_port() {
    int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t n = sizeof a;
    ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &n);
    ::close(s);
    return ntohs(a.sin_port);
}

inline std::string read_file(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline std::string text_of(const rapidjson::Value& v) {
    rapidjson::StringBuffer b;
    rapidjson::Writer<rapidjson::StringBuffer> w(b);
    v.Accept(w);
    return b.GetString();
}

inline std::string str(const rapidjson::Value& v, std::initializer_list<const char*> path) {
    const rapidjson::Value* at = &v;
    for (const char* k : path) {
        if (!at->IsObject()) return "";
        auto it = at->FindMember(k);
        if (it == at->MemberEnd()) return "";
        at = &it->value;
    }
    return at->IsString() ? at->GetString() : "";
}

// A scratch directory with a kubeconfig (for `server` with bearer `token`, or a copy of one) and
// the default profile at a 1 s interval, /healthz and /metrics on `health_port`, a short lease.
struct DaemonFiles {
    fs::path dir;
    DaemonFiles(const std::string& server, const std::string& token, int health_port) {
        make(health_port);
        std::ofstream(dir / "kubeconfig") << "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n"
                                             "    server: "
                                          << server << "\nusers:\n- name: u\n  user:\n    token: " << token
                                          << "\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\n"
                                             "current-context: x\n";
    }
    // With an existing kubeconfig (a real API server's).
    DaemonFiles(const fs::path& kubeconfig, int health_port) {
        make(health_port);
        fs::copy_file(kubeconfig, dir / "kubeconfig");
    }
    ~DaemonFiles() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }

private:
    void make(int health_port) {
        dir = fs::temp_directory_path() /
              ("kdesched-daemon-" + std::to_string(::getpid()) + "-" + std::to_string(health_port));
        fs::create_directories(dir);
        std::string profile = read_file(KDESCHED_DEFAULT_PROFILE);
        std::string header = "deschedulingInterval: 1s\nhealthzBindAddress: 127.0.0.1:" + std::to_string(health_port) +
                             "\nmetricsBindAddress: 127.0.0.1:" + std::to_string(health_port) +
                             "\nleaderElection:\n  leaseDuration: 3s\n  renewDeadline: 2s\n  retryPeriod: 500ms\n";
        const std::string interval = "deschedulingInterval: 10s\n";
        profile.replace(profile.find(interval), interval.size(), header);
        std::ofstream(dir / "profile.yaml") << profile;
    }
};

// `kdesched run` in the background; its output goes to a log file the test can read.
class DaemonProcess {
public:
    // KDESCHED_TEST_LOG_LEVEL=debug shows a daemon's decisions when a test is being debugged.
    static std::string log_level() {
        const char* l = std::getenv("KDESCHED_TEST_LOG_LEVEL");
        return l && *l ? l : "info";
    }
    // `extra`: more flags of `kdesched run`, after the usual ones.
    DaemonProcess(const DaemonFiles& files, const std::string& name, const std::vector<std::string>& extra = {})
        : log_(files.dir / (name + ".log")) {
        std::vector<std::string> argv = {KDESCHED_BINARY, "run",
                                         "--config",      (files.dir / "profile.yaml").string(),
                                         "--kubeconfig",  (files.dir / "kubeconfig").string(),
                                         "--plugin-dir",  KDESCHED_PLUGIN_DIR,
                                         "--log-level",   log_level()};
        argv.insert(argv.end(), extra.begin(), extra.end());
        pid_ = ::fork();
        if (pid_ == 0) {
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlives the test, even one that crashed
            int fd = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            ::dup2(fd, 1);
            ::dup2(fd, 2);
            std::vector<char*> args;
            for (auto& a : argv) args.push_back(a.data());
            args.push_back(nullptr);
            ::execv(args[0], args.data());
            ::_exit(127);
        }
    }
    ~DaemonProcess() {
        if (running()) {
            ::kill(pid_, SIGKILL);
            int st = 0;
            ::waitpid(pid_, &st, 0);
        }
    }
    void signal(int sig) { ::kill(pid_, sig); }
    // The exit code, or -1 when it did not exit within `seconds` (or died of a signal).
    int wait(double seconds) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        while (std::chrono::steady_clock::now() < deadline) {
            int st = 0;
            pid_t r = ::waitpid(pid_, &st, WNOHANG);
            if (r == pid_) {
                exited_ = true;
                return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return -1;
    }
    bool running() const { return !exited_ && pid_ > 0; }
    std::string log() const { return read_file(log_); }

private:
    fs::path log_;
    pid_t pid_ = -1;
    bool exited_ = false;
};

// Plays the rest of the cluster, one step at a time.
class ClusterActor {
public:
    explicit ClusterActor(FakeApiServer& server, std::string target_node = "node-2")
        : server_(server), target_(std::move(target_node)) {}

    // The example hotspot cluster (one node at 91% CPU), NodeMetrics fresh, koordinator-system.
    void load_hotspot() {
        rapidjson::Document d;
        d.Parse(read_file(KDESCHED_EXAMPLES_DIR "/hotspot.json").c_str());
        std::string items = "[";
        for (auto& item : d["items"].GetArray()) {
            if (str(item, {"kind"}) == "NodeMetric") set_string(item["status"], "updateTime", now(), d);
            items += (items.size() > 1 ? "," : "") + text_of(item);
        }
        items += R"(,{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"koordinator-system"}}])";
        server_.load(items);
    }

    // koordlet: every NodeMetric reported now. koord-scheduler: Reservations without a phase
    // placed on the target node (unless `schedule` says not yet). Workload controllers: for a
    // scheduled Reservation whose job's pod is gone, a Ready replacement that binds it.
    void step(bool schedule = true) {
        rapidjson::Document metrics = objects("NodeMetric");
        std::string refreshed = "[";
        for (auto& m : metrics["items"].GetArray()) {
            set_string(m["status"], "updateTime", now(), metrics);
            refreshed += (refreshed.size() > 1 ? "," : "") + text_of(m);
        }
        server_.load(refreshed + "]");
        if (!schedule) return;
        rapidjson::Document reservations = objects("Reservation"), jobs = objects("PodMigrationJob"),
                            pods = objects("Pod");
        for (auto& r : reservations["items"].GetArray()) {
            std::string name = str(r, {"metadata", "name"});
            std::string phase = str(r, {"status", "phase"});
            if (phase.empty()) {
                server_.load(R"([{"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation","metadata":)" +
                             text_of(r["metadata"]) + R"(,"spec":)" + text_of(r["spec"]) +
                             R"(,"status":{"phase":"Available","nodeName":")" + target_ +
                             R"(","conditions":[{"type":"Scheduled","status":"True","reason":"Scheduled"},)"
                             R"({"type":"Ready","status":"True","reason":"Available"}]}}])");
                continue;
            }
            if (phase != "Available") continue;
            for (auto& j : jobs["items"].GetArray()) {
                std::string ns = str(j, {"spec", "podRef", "namespace"}), pod = str(j, {"spec", "podRef", "name"});
                if (!names_reservation(j, name)) continue;
                if (exists(pods, ns, pod)) continue;
                std::string replacement = pod + "-moved";
                server_.load(R"([{"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + replacement +
                             R"(","namespace":")" + ns + R"(","uid":"uid-)" + replacement +
                             R"("},"spec":{"nodeName":")" + target_ +
                             R"(","containers":[{"name":"c"}]},"status":{"phase":"Running",)"
                             R"("conditions":[{"type":"Ready","status":"True"}]}}])");
                server_.load(R"([{"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation","metadata":)" +
                             text_of(r["metadata"]) + R"(,"spec":)" + text_of(r["spec"]) +
                             R"(,"status":{"phase":"Succeeded","nodeName":")" + target_ +
                             R"(","conditions":[{"type":"Scheduled","status":"True","reason":"Scheduled"}],)"
                             R"("currentOwners":[{"namespace":")" +
                             ns + R"(","name":")" + replacement + R"(","uid":"uid-)" + replacement + R"("}]}}])");
                break;
            }
        }
    }

    rapidjson::Document objects(const std::string& kind) {
        rapidjson::Document d;
        d.Parse(server_.control("GET", "objects?kind=" + kind).c_str());
        return d;
    }

    // Steps every 250 ms until `done` holds or `seconds` pass.
    bool until(const std::function<bool()>& done, double seconds, bool schedule = true) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        while (std::chrono::steady_clock::now() < deadline) {
            step(schedule);
            if (done()) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
        }
        return false;
    }

    static std::string now() {
        std::time_t t = std::time(nullptr);
        char buf[32];
        std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
        return buf;
    }

private:
    static void set_string(rapidjson::Value& obj, const char* key, const std::string& v, rapidjson::Document& d) {
        rapidjson::Value s(v.c_str(), d.GetAllocator());
        if (obj.HasMember(key))
            obj[key] = s;
        else
            obj.AddMember(rapidjson::Value(key, d.GetAllocator()), s, d.GetAllocator());
    }
    // The job's Reservation, wherever this version of the job keeps its name.
    static bool names_reservation(const rapidjson::Value& job, const std::string& name) {
        return text_of(job).find("\"" + name + "\"") != std::string::npos;
    }
    static bool exists(const rapidjson::Document& pods, const std::string& ns, const std::string& name) {
        for (const auto& p : pods["items"].GetArray())
            if (str(p, {"metadata", "namespace"}) == ns && str(p, {"metadata", "name"}) == name) return true;
        return false;
    }

    FakeApiServer& server_;
    std::string target_;
};

// GET http://127.0.0.1:<port><path>: {status, body} (status 0: no answer). With `tls`, over HTTPS
// without verifying the certificate, as the kubelet's HTTPS probes do.
inline std::pair<int, std::string> scrape(int port, const std::string& path, bool tls = false) {
    kd::core::net::ClientConfig config;
    config.tls.insecure_skip_verify = tls;
    kd::core::net::HttpClient c((tls ? "https" : "http") + std::string("://127.0.0.1:") + std::to_string(port), config);
    auto r = c.send({"GET", path, {}, "", ""});
    return {r.answered() ? r.status : 0, r.body};
}

}  // namespace kd_test
