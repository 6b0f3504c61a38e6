#include "kube/client/credentials.hpp"

#include "error.hpp"
#include "net/base64.hpp"
#include "net/tls_material.hpp"
#include "text/input_file.hpp"

#include <kdesched/decode.hpp>
#include <kdesched/rfc3339.hpp>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

extern char** environ;

namespace kd::core::kube {

namespace {

// Bound tokens rotate: the service-account token is read again this often even if unchanged.
constexpr auto kTokenFileReread = std::chrono::minutes(1);
// An exec plugin that does not answer within this is killed.
constexpr auto kExecTimeout = std::chrono::seconds(60);
// A credential expiring sooner than this is fetched again (client-go's margin).
constexpr auto kExpiryMargin = std::chrono::seconds(10);
constexpr size_t kMaxExecOutput = 1u << 20;

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
    return s;
}

int64_t mtime_ns(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return -1;
    return int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

std::string basic(const std::string& user, const std::string& password) {
    static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string in = user + ":" + password, out;
    for (size_t i = 0; i < in.size(); i += 3) {
        uint32_t n = uint32_t(uint8_t(in[i])) << 16;
        if (i + 1 < in.size()) n |= uint32_t(uint8_t(in[i + 1])) << 8;
        if (i + 2 < in.size()) n |= uint8_t(in[i + 2]);
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += i + 1 < in.size() ? alphabet[(n >> 6) & 63] : '=';
        out += i + 2 < in.size() ? alphabet[n & 63] : '=';
    }
    return "Basic " + out;
}

struct ProcessResult {
    bool started = false;
    int exit_code = -1;  // -1: killed or did not start
    std::string out, err;
    bool timed_out = false;
};

// Runs argv with extra environment, stdin closed, stdout and stderr captured.
ProcessResult run_process(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env) {
    ProcessResult r;
    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
        r.err = std::string("cannot create a pipe: ") + std::strerror(errno);
        return r;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    std::vector<std::string> env_text;
    for (char** e = environ; *e; ++e) env_text.emplace_back(*e);
    for (const auto& e : extra_env) env_text.push_back(e);
    std::vector<char*> args, envp;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    for (const auto& e : env_text) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    pid_t pid = 0;
    int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) {
        ::close(out[0]);
        ::close(err[0]);
        r.err = std::strerror(rc);
        return r;
    }
    r.started = true;
    auto deadline = std::chrono::steady_clock::now() + kExecTimeout;
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    int open = 2;
    char buf[8192];
    while (open > 0) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            r.timed_out = true;
            ::kill(pid, SIGKILL);
            break;
        }
        if (::poll(fds, 2, int(left.count())) < 0 && errno != EINTR) break;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
            if (n <= 0) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
                continue;
            }
            std::string& into = i == 0 ? r.out : r.err;
            if (into.size() < kMaxExecOutput) into.append(buf, size_t(n));
        }
    }
    for (auto& f : fds)
        if (f.fd >= 0) ::close(f.fd);
    int status = 0;
    ::waitpid(pid, &status, 0);
    r.exit_code = !r.timed_out && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

std::string last_lines(const std::string& text) {
    std::string t = trim(text);
    if (t.size() > 600) t = "…" + t.substr(t.size() - 600);
    return t;
}

}  // namespace

ExecAnswer parse_exec_credential(const std::string& output, const std::string& api_version, const std::string& where) {
    auto bad = [&](const std::string& what) {
        return Error(where, "the exec credential plugin printed " + what,
                     "it must print an ExecCredential (apiVersion " + api_version + ") as JSON on stdout");
    };
    if (kd::json_too_deep(output))
        throw bad("JSON nested more than " + std::to_string(kd::kMaxJsonDepth) + " levels deep (the limit)");
    rapidjson::Document d;
    d.Parse(output.data(), output.size());
    if (d.HasParseError())
        throw bad(std::string("something that is not JSON (") + rapidjson::GetParseError_En(d.GetParseError()) +
                  " at byte " + std::to_string(d.GetErrorOffset()) + ")");
    if (!d.IsObject()) throw bad("JSON that is not an object");
    auto str = [&](const rapidjson::Value& o, const char* k) -> std::string {
        auto it = o.FindMember(k);
        if (it == o.MemberEnd() || it->value.IsNull()) return "";
        if (!it->value.IsString()) throw bad(std::string("a non-string ") + k);
        return std::string(it->value.GetString(), it->value.GetStringLength());
    };
    if (str(d, "kind") != "ExecCredential") throw bad("kind \"" + str(d, "kind") + "\", not ExecCredential");
    if (str(d, "apiVersion") != api_version)
        throw bad("apiVersion \"" + str(d, "apiVersion") + "\" where the kubeconfig asks for " + api_version);
    auto st = d.FindMember("status");
    if (st == d.MemberEnd() || !st->value.IsObject()) throw bad("an ExecCredential without a status");
    ExecAnswer a;
    a.token = str(st->value, "token");
    a.cert_pem = str(st->value, "clientCertificateData");
    a.key_pem = str(st->value, "clientKeyData");
    if (a.token.empty() && a.cert_pem.empty()) throw bad("no status.token and no status.clientCertificateData");
    if (a.cert_pem.empty() != a.key_pem.empty())
        throw bad("only one of status.clientCertificateData and status.clientKeyData");
    if (!a.cert_pem.empty()) {
        std::string problem = net::certificate_problem(a.cert_pem);
        if (problem.empty()) problem = net::private_key_problem(a.key_pem);
        if (problem.empty()) problem = net::key_pair_problem(a.cert_pem, a.key_pem);
        if (!problem.empty()) throw bad("a client certificate or key that is unusable: " + problem);
    }
    if (std::string exp = str(st->value, "expirationTimestamp"); !exp.empty()) {
        auto ms = kd::parse_rfc3339_ms(exp);
        if (!ms) throw bad("status.expirationTimestamp \"" + exp + "\", which is not an RFC 3339 time");
        // system_clock counts nanoseconds in 64 bits (years 1678 to 2262): a later expiry is the
        // latest time it holds, an earlier one long past (client-go reads any RFC 3339 year).
        using std::chrono::milliseconds;
        constexpr int64_t kLimitMs =
            std::chrono::duration_cast<milliseconds>(std::chrono::system_clock::duration::max()).count();
        a.expires = std::chrono::system_clock::time_point(milliseconds(std::clamp(*ms, -kLimitMs, kLimitMs)));
    }
    return a;
}

Credentials::Credentials(const Connection& connection) : connection_(connection) {}

uint64_t Credentials::exec_runs() const {
    std::lock_guard lock(mutex_);
    return exec_runs_;
}

Credential Credentials::read_token_file() {
    std::string token = trim(read_small_file(connection_.token_file, 1u << 20, "the token file"));
    if (token.empty()) throw Error(connection_.token_file, "the token file is empty", "write a bearer token into it");
    Credential c;
    c.authorization = "Bearer " + token;
    return c;
}

Credential Credentials::run_exec() {
    const ExecConfig& e = *connection_.exec;
    std::vector<std::string> argv{e.command};
    argv.insert(argv.end(), e.args.begin(), e.args.end());
    std::vector<std::string> env;
    for (const auto& [k, v] : e.env) env.push_back(k + "=" + v);
    std::string info =
        R"({"apiVersion":")" + e.api_version + R"(","kind":"ExecCredential","spec":{"interactive":false)";
    if (e.provide_cluster_info)
        info += R"(,"cluster":{"server":")" + connection_.server + R"(","certificate-authority-data":")" +
                connection_.ca_data_base64 + "\"}";
    env.push_back("KUBERNETES_EXEC_INFO=" + info + "}}");
    ++exec_runs_;
    ProcessResult r = run_process(argv, env);
    const std::string what = e.where + ": exec credential plugin \"" + e.command + "\"";
    if (r.exit_code != 0) {
        std::string err = last_lines(r.err);
        std::string why = r.timed_out ? "did not answer within " + std::to_string(kExecTimeout.count()) + " s"
                          : r.started
                              ? "exited with code " + std::to_string(r.exit_code) + (err.empty() ? "" : ": " + err)
                              : "could not run: " + err;
        throw Error(what, why, e.install_hint.empty() ? "run it by hand to see what it needs" : e.install_hint);
    }
    ExecAnswer a = parse_exec_credential(r.out, e.api_version, what);
    Credential c;
    if (!a.token.empty()) c.authorization = "Bearer " + a.token;
    c.cert_pem = a.cert_pem;
    c.key_pem = a.key_pem;
    expires_ = a.expires;
    return c;
}

Credential Credentials::current() {
    std::lock_guard lock(mutex_);
    const Connection& c = connection_;
    auto now_steady = std::chrono::steady_clock::now();
    bool fresh = valid_;
    if (c.exec) {
        if (fresh && expires_ && std::chrono::system_clock::now() + kExpiryMargin >= *expires_) fresh = false;
        if (!fresh) cached_ = run_exec();
    } else if (!c.token_file.empty()) {
        int64_t mtime = mtime_ns(c.token_file);
        if (!fresh || mtime != file_mtime_ns_ || now_steady - read_at_ >= kTokenFileReread) {
            Credential next = read_token_file();
            fresh = fresh && next.authorization == cached_.authorization;
            next.generation = cached_.generation;
            cached_ = std::move(next);
            file_mtime_ns_ = mtime;
            read_at_ = now_steady;
        }
    } else if (!fresh) {
        cached_ = {};
        if (!c.token.empty())
            cached_.authorization = "Bearer " + c.token;
        else if (!c.username.empty())
            cached_.authorization = basic(c.username, c.password);
    }
    if (!fresh) cached_.generation = ++generation_;
    valid_ = true;
    return cached_;
}

void Credentials::rejected(uint64_t generation) {
    std::lock_guard lock(mutex_);
    if (generation == cached_.generation) valid_ = false;
}

}  // namespace kd::core::kube
