// /healthz, /readyz and /metrics as a kubelet probe and Prometheus see them: /healthz fails once
// the control loop's heartbeat is older than stuck_after (a hook that hangs stops the beats) and
// recovers with the next beat; /readyz names what is not synced; one listener or two; /debug/model
// answered by the control thread.
#include "daemon/health_server.hpp"
#include "daemon/model_probe.hpp"
#include "net/http_client.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

using namespace kd::core;

namespace {

std::pair<int, std::string> get(int port, const std::string& path) {
    net::HttpClient c("http://127.0.0.1:" + std::to_string(port), net::ClientConfig{});
    auto r = c.send({"GET", path, {}, "", ""});
    return {r.answered() ? r.status : 0, r.body};
}

}  // namespace

TEST_CASE("health server: /healthz fails while the heartbeat is older than stuck_after, then recovers") {
    daemon::HealthState state;
    state.stuck_after = std::chrono::milliseconds(300);
    state.beat();
    daemon::HealthServer server("127.0.0.1:0", "127.0.0.1:0", state, [] { return std::string("m 1\n"); });
    int port = server.ports().at(0);
    CHECK(get(port, "/healthz") == std::make_pair(200, std::string("ok")));
    std::this_thread::sleep_for(std::chrono::milliseconds(1300));  // a hook that hangs: no beat
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
    int computed = 0;
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
