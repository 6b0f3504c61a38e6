// The test API server (testkit/fake_apiserver.py) as a child process: started on a port the
// kernel picks, driven through its /_test/ control API, stopped with the test.
#pragma once

#include "net/http_client.hpp"

#include <rapidjson/document.h>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace kd_test {

// A request the test server served, with its JSON body (when it had one).
struct Served {
    std::string method, path, content_type;
    int code = 0;
    rapidjson::Document body;
};

struct FakeApiServerOptions {
    std::vector<std::string> args;  // extra command-line arguments (--token, --tls-cert, …)
    bool tls = false;               // https (then args carry the certificate)
};

class FakeApiServer {
public:
    using Options = FakeApiServerOptions;
    FakeApiServer() : FakeApiServer(Options{}) {}
    explicit FakeApiServer(Options options) {
        int out[2];
        if (::pipe(out) != 0) throw std::runtime_error("pipe");
        std::vector<std::string> argv = {"python3", std::string(KD_FAKE_APISERVER), "--port", "0"};
        argv.insert(argv.end(), options.args.begin(), options.args.end());
        std::vector<char*> args;
        for (auto& a : argv) args.push_back(a.data());
        args.push_back(nullptr);
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        posix_spawn_file_actions_addclose(&fa, out[0]);
        if (::posix_spawnp(&pid_, "python3", &fa, nullptr, args.data(), environ) != 0)
            throw std::runtime_error("cannot start python3 (the test API server needs it)");
        posix_spawn_file_actions_destroy(&fa);
        ::close(out[1]);
        FILE* f = ::fdopen(out[0], "r");
        char line[128] = {};
        if (!std::fgets(line, sizeof line, f) || std::sscanf(line, "READY %d", &port_) != 1)
            throw std::runtime_error("the test API server did not start");
        ::fclose(f);
        url_ = std::string(options.tls ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_);
        control_ = std::make_unique<kd::core::net::HttpClient>("http://127.0.0.1:" + std::to_string(port_),
                                                               kd::core::net::ClientConfig{});
        if (options.tls) control_.reset();  // the control API then goes through the same TLS port
        tls_ = options.tls;
    }
    ~FakeApiServer() {
        ::kill(pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
    FakeApiServer(const FakeApiServer&) = delete;
    FakeApiServer& operator=(const FakeApiServer&) = delete;

    const std::string& url() const { return url_; }
    int port() const { return port_; }

    // POST /_test/<what> with a JSON body; the answer's body.
    std::string control(const std::string& method, const std::string& what, const std::string& body = "",
                        kd::core::net::HttpClient* via = nullptr) {
        kd::core::net::HttpClient* c = via ? via : control_.get();
        if (!c) throw std::runtime_error("a TLS test server's control API needs a client (pass `via`)");
        auto r = c->send({method, "/_test/" + what, {}, body, body.empty() ? "" : "application/json"});
        if (!r.answered() || r.status != 200)
            throw std::runtime_error("control " + what + ": " + std::to_string(r.status) + " " + r.problem + r.body);
        return r.body;
    }
    void load(const std::string& objects_json_array) {
        control("POST", "objects", "{\"objects\":" + objects_json_array + "}");
    }
    void remove(const std::string& refs_json_array) {
        control("POST", "delete", "{\"objects\":" + refs_json_array + "}");
    }
    void faults(const std::string& rules_json_array) {
        control("POST", "faults", "{\"rules\":" + rules_json_array + "}");
    }
    void settings(const std::string& json) { control("POST", "settings", json); }
    // Every request served, as {"requests": [...]}.
    rapidjson::Document requests() {
        rapidjson::Document d;
        d.Parse(control("GET", "requests").c_str());
        return d;
    }
    // The requests served whose path starts with `prefix` ("" = all), in order.
    std::vector<Served> served(const std::string& prefix = "") {
        std::vector<Served> out;
        auto r = requests();
        for (auto& q : r["requests"].GetArray()) {
            std::string path = q["path"].GetString();
            if (path.rfind(prefix, 0) != 0) continue;
            Served e;
            e.method = q["method"].GetString();
            e.path = path;
            e.content_type = q["content_type"].GetString();
            e.code = q["code"].GetInt();
            if (q.HasMember("body")) e.body.CopyFrom(q["body"], e.body.GetAllocator());
            out.push_back(std::move(e));
        }
        return out;
    }

private:
    pid_t pid_ = 0;
    int port_ = 0;
    bool tls_ = false;
    std::string url_;
    std::unique_ptr<kd::core::net::HttpClient> control_;
};

}  // namespace kd_test
