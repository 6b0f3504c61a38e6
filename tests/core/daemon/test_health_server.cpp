// /healthz, /readyz and /metrics as a kubelet probe and Prometheus see them: /healthz fails once
// the control loop's heartbeat is older than stuck_after (a hook that hangs stops the beats) and
// recovers with the next beat; /readyz names what is not synced; one listener or two; /debug/model
// answered by the control thread. And as anything else that reaches the port sees them: idle,
// slow, never-reading and oversize clients, too many connections, a slow handler — none delays a
// probe, and each is cut off within its limit.
#include "daemon/health_server.hpp"
#include "daemon/model_probe.hpp"
#include "net/http_client.hpp"

#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <thread>

using namespace kd::core;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

std::pair<int, std::string> get(int port, const std::string& path) {
    net::HttpClient c("http://127.0.0.1:" + std::to_string(port), net::ClientConfig{});
    auto r = c.send({"GET", path, {}, "", ""});
    return {r.answered() ? r.status : 0, r.body};
}

// A probe as the kubelet makes it, with its time: a short client timeout, so that a server that
// hangs fails the test quickly (status 0) instead of stalling it.
struct Probe {
    int status;
    std::string body;
    Clock::duration took;
};
Probe probe(int port, const std::string& path) {
    net::ClientConfig config;
    config.timeout = 3s;
    net::HttpClient c("http://127.0.0.1:" + std::to_string(port), config);
    auto start = Clock::now();
    auto r = c.send({"GET", path, {}, "", ""});
    return {r.answered() ? r.status : 0, r.body, Clock::now() - start};
}

// /healthz, /readyz and /metrics (whose text is "m 1\n") each asked `rounds` times, each checked to
// answer 200 with its body within 1 s; how many did, and the slowest.
struct ProbeRounds {
    int answered = 0;
    Clock::duration slowest{};
};
ProbeRounds probe_rounds(int port, int rounds) {
    ProbeRounds out;
    for (int i = 0; i < rounds; ++i) {
        for (auto [path, body] :
             {std::pair<std::string, std::string>{"/healthz", "ok"}, {"/readyz", "ok"}, {"/metrics", "m 1\n"}}) {
            Probe p = probe(port, path);
            INFO(path << " #" << i);
            CHECK(p.status == 200);
            CHECK(p.body == body);
            CHECK(p.took < 1s);
            out.answered += p.status == 200 && p.body == body;
            out.slowest = std::max(out.slowest, p.took);
        }
    }
    return out;
}

// A bare TCP client, for what an HTTP client would not do: send part of a request, never read.
class RawClient {
public:
    // `receive_buffer` > 0 fixes SO_RCVBUF (no autotuning): an answer not read soon fills it.
    explicit RawClient(int port, int receive_buffer = 0) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
        if (receive_buffer > 0) ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(static_cast<uint16_t>(port));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
            throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port));
    }
    ~RawClient() { ::close(fd_); }
    RawClient(const RawClient&) = delete;
    RawClient& operator=(const RawClient&) = delete;

    void send(const std::string& data) { (void)::send(fd_, data.data(), data.size(), MSG_NOSIGNAL); }

    // Whether the server closes the connection (end of stream or reset) within `wait`; what it sends
    // before is read and dropped.
    bool closed_within(std::chrono::milliseconds wait) {
        auto until = Clock::now() + wait;
        for (;;) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
            pollfd p{fd_, POLLIN, 0};
            if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
            char buf[4096];
            if (::recv(fd_, buf, sizeof buf, 0) <= 0) return true;
        }
    }

    // Everything the server sends until it closes (eof) or `wait` passes.
    std::pair<std::string, bool> read_all(std::chrono::milliseconds wait) {
        std::string got;
        auto until = Clock::now() + wait;
        for (;;) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
            pollfd p{fd_, POLLIN, 0};
            if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) return {got, false};
            char buf[65536];
            long n = ::recv(fd_, buf, sizeof buf, 0);
            if (n <= 0) return {got, true};
            got.append(buf, static_cast<size_t>(n));
        }
    }

private:
    int fd_;
};

// Twice what the kernel lets a socket's send buffer grow to (tcp_wmem's maximum), and at least 8 MiB:
// an answer that cannot all sit in the buffers while nobody reads it.
size_t big_answer_bytes() {
    size_t min = 0, initial = 0, max = 0;
    std::ifstream("/proc/sys/net/ipv4/tcp_wmem") >> min >> initial >> max;
    return std::max<size_t>(8u << 20, 2 * max);
}

bool starts_with(const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

TEST_CASE("health server: /healthz fails while the heartbeat is older than stuck_after, then recovers") {
    daemon::HealthState state;
    // Long enough that a first request under a sanitizer on a busy machine is not late already.
    state.stuck_after = std::chrono::milliseconds(1000);
    daemon::HealthServer server("127.0.0.1:0", "127.0.0.1:0", state, [] { return std::string("m 1\n"); });
    int port = server.ports().at(0);
    state.beat();
    CHECK(get(port, "/healthz") == std::make_pair(200, std::string("ok")));
    std::this_thread::sleep_for(std::chrono::milliseconds(2200));  // a hook that hangs: no beat
    auto stuck = get(port, "/healthz");
    CHECK(stuck.first == 500);
    CHECK_THAT(stuck.second, Catch::Matches("the control loop has not moved for [1-9][0-9]* s"));
    state.beat();
    CHECK(get(port, "/healthz").first == 200);
}

TEST_CASE("health server: /readyz says what is not synced yet, 200 once everything is") {
    daemon::HealthState state;
    state.beat();
    daemon::HealthServer server("127.0.0.1:0", "127.0.0.1:0", state, [] { return std::string("m 1\n"); });
    int port = server.ports().at(0);
    CHECK(get(port, "/readyz") == std::make_pair(503, std::string("not ready: starting")));
    state.set_ready("Pod: no complete LIST yet; NodeMetric: HTTP 403 Forbidden");
    CHECK(get(port, "/readyz") ==
          std::make_pair(503, std::string("not ready: Pod: no complete LIST yet; NodeMetric: HTTP 403 Forbidden")));
    state.set_ready("");
    CHECK(get(port, "/readyz") == std::make_pair(200, std::string("ok")));
    CHECK(get(port, "/metrics") == std::make_pair(200, std::string("m 1\n")));
    CHECK(get(port, "/debug").first == 404);
}

TEST_CASE("health server: two addresses are two listeners, each serving only its own paths") {
    daemon::HealthState state;
    state.beat();
    state.set_ready("");
    daemon::HealthServer server("127.0.0.1:0", "127.0.0.2:0", state, [] { return std::string("m 1\n"); });
    REQUIRE(server.ports().size() == 2);
    int health = server.ports()[0], metrics = server.ports()[1];
    CHECK(get(health, "/healthz").first == 200);
    CHECK(get(health, "/metrics").first == 404);
    net::HttpClient c("http://127.0.0.2:" + std::to_string(metrics), net::ClientConfig{});
    CHECK(c.send({"GET", "/metrics", {}, "", ""}).status == 200);
    CHECK(c.send({"GET", "/healthz", {}, "", ""}).status == 404);
}

TEST_CASE("health server: /debug/model is answered by the control thread between hooks, 503 while a hook runs") {
    daemon::HealthState state;
    state.beat();
    daemon::ModelProbe probe;
    daemon::HealthServer server(
        "127.0.0.1:0", "127.0.0.1:0", state, [] { return std::string("m 1\n"); },
        [&probe] { return probe.ask(std::chrono::milliseconds(300)); });
    int port = server.ports().at(0);
    std::atomic<bool> done{false};
    std::atomic<int> computed{0};
    std::thread control([&] {  // the control loop: between hooks, it answers what was asked
        while (!done) {
            probe.serve([&] { return R"({"kinds":{"Pod":{"count":)" + std::to_string(++computed) + "}}}"; });
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    });
    CHECK(get(port, "/debug/model") == std::make_pair(200, std::string(R"({"kinds":{"Pod":{"count":1}}})")));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(computed == 1);  // computed only when asked
    CHECK(get(port, "/debug/model") == std::make_pair(200, std::string(R"({"kinds":{"Pod":{"count":2}}})")));
    done = true;
    control.join();
    // No control thread answering: a hook that runs past the wait.
    auto busy = get(port, "/debug/model");
    CHECK(busy.first == 503);
    CHECK(busy.second == "the control loop is inside a hook and did not answer in time; try again");
}

TEST_CASE("health server: idle connections, a slowloris and a client that never reads delay no probe, and are cut") {
    daemon::HealthState state;
    state.beat();
    state.set_ready("");
    daemon::HealthServerLimits limits;
    limits.max_request_duration = 2000ms;
    // The first /metrics answer is larger than the never-reading client's socket buffers can hold,
    // the others small.
    const std::string big(big_answer_bytes(), '#');
    std::atomic<bool> big_next{true};
    std::atomic<int> big_made{0};
    daemon::HealthServer server(
        "127.0.0.1:0", "127.0.0.1:0", state,
        [&] {
            if (!big_next.exchange(false)) return std::string("m 1\n");
            ++big_made;
            return big;
        },
        {}, limits);
    int port = server.ports().at(0);

    std::vector<std::unique_ptr<RawClient>> idle;  // connected, never a byte
    for (int i = 0; i < 100; ++i) idle.push_back(std::make_unique<RawClient>(port));

    RawClient reader(port, 4096);  // asks for /metrics, never reads the answer
    const auto reader_opened = Clock::now();
    reader.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    for (int i = 0; i < 200 && big_made == 0; ++i) std::this_thread::sleep_for(10ms);
    REQUIRE(big_made == 1);

    std::atomic<bool> slow_closed{false};
    Clock::duration slow_lasted{};
    std::thread slowloris([&] {  // a header byte every 200 ms, never the end of it
        RawClient c(port);
        const auto opened = Clock::now();
        const std::string head = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
        for (size_t i = 0; Clock::now() - opened < 6s; ++i) {
            c.send(i < head.size() ? head.substr(i, 1) : "a");
            if (c.closed_within(200ms)) {
                slow_lasted = Clock::now() - opened;
                slow_closed = true;
                return;
            }
        }
    });

    auto [answered, slowest] = probe_rounds(port, 20);
    CHECK(answered == 60);
    INFO("slowest probe: " << std::chrono::duration_cast<std::chrono::milliseconds>(slowest).count() << " ms");
    CHECK_FALSE(slow_closed);  // the probes were all answered while the slow clients were still there

    // The slowloris is cut at its deadline.
    slowloris.join();
    REQUIRE(slow_closed);
    CHECK(slow_lasted >= limits.max_request_duration - 100ms);
    CHECK(slow_lasted < limits.max_request_duration + 1s);
    // So is the write nobody read: past the deadline, the server gave up on it (reading now gets what
    // was already in the buffers, then the end).
    std::this_thread::sleep_until(reader_opened + limits.max_request_duration + 200ms);
    auto [got, eof] = reader.read_all(5s);
    CHECK(eof);
    CHECK(starts_with(got, "HTTP/1.1 200 OK\r\n"));
    CHECK(got.size() < big.size());
    // And the idle connections.
    int idle_closed = 0;
    for (auto& c : idle) idle_closed += c->closed_within(1s);
    CHECK(idle_closed == 100);
}

TEST_CASE("health server: at the connection bound the oldest connection is closed, and probes still answer") {
    daemon::HealthState state;
    state.beat();
    state.set_ready("");
    daemon::HealthServerLimits limits;
    limits.max_connections = 8;
    daemon::HealthServer server(
        "127.0.0.1:0", "127.0.0.1:0", state, [] { return std::string("m 1\n"); }, {}, limits);
    int port = server.ports().at(0);
    std::vector<std::unique_ptr<RawClient>> held;
    for (int i = 0; i < 20; ++i) held.push_back(std::make_unique<RawClient>(port));
    // Accepted in order: the 12 oldest made room for the 8 newest.
    int closed = 0;
    for (int i = 0; i < 12; ++i) closed += held[i]->closed_within(2s);
    CHECK(closed == 12);
    int open = 0;
    for (int i = 12; i < 20; ++i) open += !held[i]->closed_within(50ms);
    CHECK(open == 8);

    Probe p = probe(port, "/healthz");
    CHECK(p.status == 200);
    CHECK(p.body == "ok");
    CHECK(p.took < 1s);
    CHECK(held[12]->closed_within(2s));  // the probe's room
    open = 0;
    for (int i = 13; i < 20; ++i) open += !held[i]->closed_within(50ms);
    CHECK(open == 7);
    CHECK(get(port, "/readyz") == std::make_pair(200, std::string("ok")));
    CHECK(get(port, "/metrics") == std::make_pair(200, std::string("m 1\n")));
}

TEST_CASE("health server: an oversize header is answered 431, an oversize body 413, a request within both, 200") {
    daemon::HealthState state;
    state.beat();
    daemon::HealthServer server("127.0.0.1:0", "127.0.0.1:0", state, [] { return std::string("m 1\n"); });
    int port = server.ports().at(0);
    {
        RawClient c(port);
        c.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " +
               std::string(daemon::kMaxRequestHeaderBytes, 'a') + "\r\n\r\n");
        auto [got, eof] = c.read_all(2s);
        CHECK(eof);
        CHECK(starts_with(got, "HTTP/1.1 431 "));
        CHECK(got.find("\r\n\r\nrequest header larger than 8192 bytes (kMaxRequestHeaderBytes)") != std::string::npos);
    }
    {
        RawClient c(port);  // the length alone is refused: the body is not waited for
        c.send("POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1048576\r\n\r\n");
        auto [got, eof] = c.read_all(2s);
        CHECK(eof);
        CHECK(starts_with(got, "HTTP/1.1 413 "));
        CHECK(got.find("\r\n\r\nrequest body larger than 4096 bytes (kMaxRequestBodyBytes)") != std::string::npos);
    }
    {
        RawClient c(port);
        c.send("POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " +
               std::string(daemon::kMaxRequestHeaderBytes - 200, 'a') + "\r\nContent-Length: 5\r\n\r\nhello");
        auto [got, eof] = c.read_all(2s);
        CHECK(eof);
        CHECK(starts_with(got, "HTTP/1.1 200 OK\r\n"));
        CHECK(got.find("\r\nConnection: close\r\n") != std::string::npos);
        CHECK(got.size() > 6);
        CHECK(got.substr(got.size() - 6) == "\r\n\r\nok");
    }
}

TEST_CASE("health server: a /debug/model waiting for the control loop delays neither the probes nor /metrics") {
    daemon::HealthState state;
    state.beat();
    state.set_ready("");
    daemon::ModelProbe model;  // no control thread: each question waits its whole timeout
    daemon::HealthServer server(
        "127.0.0.1:0", "127.0.0.1:0", state, [] { return std::string("m 1\n"); },
        [&model] { return model.ask(1500ms); });
    int port = server.ports().at(0);
    const auto asked = Clock::now();
    std::pair<int, std::string> slow;
    Clock::duration slow_took{};
    std::thread asker([&] {
        slow = get(port, "/debug/model");
        slow_took = Clock::now() - asked;
    });
    std::this_thread::sleep_for(100ms);  // the digest is being waited for
    CHECK(probe_rounds(port, 5).answered == 15);
    CHECK(Clock::now() - asked < 1500ms);  // all of it while the digest was still awaited
    asker.join();
    CHECK(slow.first == 503);
    CHECK(slow.second == "the control loop is inside a hook and did not answer in time; try again");
    CHECK(slow_took >= 1400ms);
}
