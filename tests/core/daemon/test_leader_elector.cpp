// Leader election on a coordination.k8s.io/v1 Lease against the test API server
// (testkit/fake_apiserver.py), with short durations: the Lease created by the first
// elector, a second waiting while the first renews, release() handing over at once, a holder
// that stops renewing taken over after the lease duration, and renewals failing for the renew
// deadline ending the leadership (on_lost).
#include "daemon/leader_elector.hpp"
#include "fake_apiserver.hpp"

#include <rapidjson/document.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace kd::core;
using kd_test::FakeApiServer;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

const std::string kLeases = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases";
const std::string kLease = kLeases + "/kdesched-test";

kube::ClientOptions client_options() {
    kube::ClientOptions c;
    c.qps = 0;
    c.max_attempts = 1;  // a failed renewal is the elector's to handle
    c.timeout = std::chrono::seconds(2);
    return c;
}

kube::Connection connection_to(FakeApiServer& s) {
    kube::Connection c;
    c.server = s.url();
    return c;
}

daemon::LeaderElectionOptions lease_options(std::string identity, std::chrono::milliseconds lease = 1000ms) {
    daemon::LeaderElectionOptions o;
    o.ns = "kube-system";
    o.name = "kdesched-test";
    o.identity = std::move(identity);
    o.lease_duration = lease;
    o.renew_deadline = 600ms;
    o.retry_period = 100ms;
    return o;
}

// The Lease as the server stores it (a Null document when there is none).
rapidjson::Document lease(FakeApiServer& s) {
    rapidjson::Document all, out;
    all.Parse(s.control("GET", "objects?kind=Lease").c_str());
    for (auto& item : all["items"].GetArray())
        if (std::string(item["metadata"]["name"].GetString()) == "kdesched-test")
            out.CopyFrom(item, out.GetAllocator());
    return out;
}

std::string holder(FakeApiServer& s) {
    auto l = lease(s);
    if (!l.IsObject()) return "<no lease>";
    const auto& spec = l["spec"];
    return spec.HasMember("holderIdentity") ? spec["holderIdentity"].GetString() : "";
}

int64_t transitions(FakeApiServer& s) {
    auto l = lease(s);
    return l.IsObject() && l["spec"].HasMember("leaseTransitions") ? l["spec"]["leaseTransitions"].GetInt64() : -1;
}

struct Served {
    std::string method, path, holder;  // holder: the body's spec.holderIdentity ("" when absent)
    bool has_holder = false;
    int code = 0;
};

std::vector<Served> served(FakeApiServer& s, const std::string& prefix) {
    std::vector<Served> out;
    auto r = s.requests();
    for (auto& q : r["requests"].GetArray()) {
        std::string path = q["path"].GetString();
        if (path.rfind(prefix, 0) != 0) continue;
        Served e{q["method"].GetString(), path, "", false, q["code"].GetInt()};
        if (q.HasMember("body") && q["body"].IsObject() && q["body"].HasMember("spec")) {
            const auto& spec = q["body"]["spec"];
            e.has_holder = spec.HasMember("holderIdentity");
            if (e.has_holder) e.holder = spec["holderIdentity"].GetString();
        }
        out.push_back(std::move(e));
    }
    return out;
}

size_t count(const std::vector<Served>& v, const std::string& method, int code = 0) {
    size_t n = 0;
    for (const auto& e : v) n += e.method == method && (code == 0 || e.code == code);
    return n;
}

long ms_since(Clock::time_point t) {
    return long(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count());
}

}  // namespace

TEST_CASE("leader election: the first elector creates the Lease and holds it, renewing", "[kube][leader]") {
    FakeApiServer server;
    kube::ApiClient client(connection_to(server), client_options());
    daemon::LeaderElector a(client, lease_options("a"), nullptr);
    CHECK(a.identity() == "a");
    CHECK_FALSE(a.leading());
    a.start();
    REQUIRE(a.wait_leading(Clock::now() + 5s));
    CHECK(a.leading());

    auto l = lease(server);
    REQUIRE(l.IsObject());
    CHECK(std::string(l["metadata"]["namespace"].GetString()) == "kube-system");
    CHECK(std::string(l["spec"]["holderIdentity"].GetString()) == "a");
    CHECK(l["spec"]["leaseDurationSeconds"].GetInt() == 1);
    CHECK(l["spec"]["leaseTransitions"].GetInt() == 0);
    const std::string first_renew = l["spec"]["renewTime"].GetString();
    auto sent = served(server, kLeases);
    REQUIRE(count(sent, "POST") == 1);
    CHECK(count(sent, "POST", 201) == 1);

    // Renewed every retry period: PUTs by "a", renewTime moving on.
    std::this_thread::sleep_for(600ms);
    sent = served(server, kLeases);
    CHECK(count(sent, "PUT", 200) >= 2);
    for (const auto& e : sent)
        if (e.method == "PUT") CHECK(e.holder == "a");
    CHECK(std::string(lease(server)["spec"]["renewTime"].GetString()) != first_renew);
    CHECK(a.leading());
    CHECK(a.last_error().empty());
}

TEST_CASE("leader election: an identity is made when none is given", "[kube][leader]") {
    FakeApiServer server;
    kube::ApiClient client(connection_to(server), client_options());
    daemon::LeaderElector a(client, lease_options(""), nullptr);
    CHECK_FALSE(a.identity().empty());
    CHECK(a.identity().find('_') != std::string::npos);
    CHECK(daemon::make_identity() != daemon::make_identity());
}

TEST_CASE("leader election: a second elector waits while the first renews — release() hands over at once",
          "[kube][leader]") {
    FakeApiServer server;
    kube::ApiClient client(connection_to(server), client_options());
    const auto lease_duration = 2000ms;
    daemon::LeaderElector a(client, lease_options("a", lease_duration), nullptr);
    a.start();
    REQUIRE(a.wait_leading(Clock::now() + 5s));
    std::atomic<int> b_lost{0};
    daemon::LeaderElector b(client, lease_options("b", lease_duration), [&] { ++b_lost; });
    b.start();

    // Longer than the lease duration: "a" renews, so "b" never takes over.
    CHECK_FALSE(b.wait_leading(Clock::now() + lease_duration + 500ms));
    CHECK(a.leading());
    CHECK(holder(server) == "a");
    for (const auto& e : served(server, kLeases)) {
        if (e.method == "PUT" || e.method == "POST") CHECK(e.holder == "a");
        if (e.method == "PUT" || e.method == "POST") CHECK(e.code / 100 == 2);
    }
    CHECK_THAT(b.last_error(), Catch::Contains("held by a"));

    server.control("DELETE", "requests");
    const auto released = Clock::now();
    a.release();
    CHECK_FALSE(a.leading());
    REQUIRE(b.wait_leading(released + 5s));
    const long handover = ms_since(released);
    INFO("handover after " << handover << " ms");
    CHECK(handover < 1000);  // well under the lease duration (2 s)
    CHECK(holder(server) == "b");
    CHECK(transitions(server) == 1);
    CHECK(b.transitions_seen() == 1);

    // The release: a PUT without holderIdentity, before "b"'s takeover.
    auto sent = served(server, kLeases);
    size_t release_at = sent.size(), takeover_at = sent.size();
    for (size_t i = 0; i < sent.size(); ++i) {
        if (sent[i].method != "PUT" || sent[i].code != 200) continue;
        if (!sent[i].has_holder && release_at == sent.size()) release_at = i;
        if (sent[i].holder == "b" && takeover_at == sent.size()) takeover_at = i;
    }
    CHECK(release_at < takeover_at);
    CHECK(takeover_at < sent.size());
    CHECK(b_lost == 0);
}

TEST_CASE(
    "leader election: a holder that stops renewing (gone without release) is taken over after the lease "
    "duration",
    "[kube][leader]") {
    FakeApiServer server;
    kube::ApiClient client(connection_to(server), client_options());
    auto a = std::make_unique<daemon::LeaderElector>(client, lease_options("a"), nullptr);
    a->start();
    REQUIRE(a->wait_leading(Clock::now() + 5s));
    daemon::LeaderElector b(client, lease_options("b"), nullptr);
    b.start();
    std::this_thread::sleep_for(400ms);  // "b" has seen "a" renew
    CHECK_FALSE(b.leading());

    const auto gone = Clock::now();
    a.reset();  // stops without release: the Lease still names "a"
    CHECK(holder(server) == "a");
    REQUIRE(b.wait_leading(gone + 5s));
    const long takeover = ms_since(gone);
    INFO("takeover after " << takeover << " ms");
    // The lease duration (1 s) from "a"'s last renewal, at most a retry period before it went.
    CHECK(takeover >= 750);
    CHECK(takeover < 2500);
    CHECK(holder(server) == "b");
    CHECK(transitions(server) == 1);
    CHECK(b.transitions_seen() == 1);
}

TEST_CASE("leader election: renewals failing for the renew deadline end the leadership (on_lost)", "[kube][leader]") {
    FakeApiServer server;
    kube::ApiClient client(connection_to(server), client_options());
    std::atomic<int> lost{0};
    std::atomic<Clock::rep> lost_at{0};
    daemon::LeaderElector a(client, lease_options("a"), [&] {
        lost_at = Clock::now().time_since_epoch().count();
        ++lost;
    });
    a.start();
    REQUIRE(a.wait_leading(Clock::now() + 5s));
    std::this_thread::sleep_for(250ms);  // a renewal or two

    const auto failing_since = Clock::now();
    server.faults(R"([{"path":")" + kLease + R"(","times":0,"action":{"type":"status","code":500}}])");
    auto deadline = Clock::now() + 5s;
    while (lost == 0 && Clock::now() < deadline) std::this_thread::sleep_for(10ms);
    REQUIRE(lost == 1);
    CHECK_FALSE(a.leading());
    const long lost_after = long(std::chrono::duration_cast<std::chrono::milliseconds>(
                                     Clock::time_point(Clock::duration(lost_at.load())) - failing_since)
                                     .count());
    INFO("lost after " << lost_after << " ms");
    // The renew deadline (600 ms) from the last success, at most a retry period before the faults.
    CHECK(lost_after >= 450);
    CHECK(lost_after < 2000);
    CHECK_THAT(a.last_error(), Catch::Contains("500"));
    // Renewals were tried meanwhile, and none got through.
    auto failing = served(server, kLease);
    size_t failed = 0;
    for (const auto& e : failing) failed += e.code == 500;
    CHECK(failed >= 3);

    // Once lost the elector stops: no more requests, on_lost only once.
    server.control("DELETE", "faults");
    const size_t before = served(server, kLeases).size();
    std::this_thread::sleep_for(400ms);
    CHECK(served(server, kLeases).size() == before);
    CHECK(lost == 1);
    CHECK_FALSE(a.leading());
}

TEST_CASE("leader election: release() by a standby writes nothing", "[kube][leader]") {
    FakeApiServer server;
    kube::ApiClient client(connection_to(server), client_options());
    daemon::LeaderElector a(client, lease_options("a"), nullptr);
    a.start();
    REQUIRE(a.wait_leading(Clock::now() + 5s));
    daemon::LeaderElector b(client, lease_options("b"), nullptr);
    b.start();
    std::this_thread::sleep_for(300ms);
    server.control("DELETE", "requests");
    b.release();
    for (const auto& e : served(server, kLeases)) {
        CHECK(e.holder != "b");
        CHECK_FALSE((e.method == "PUT" && !e.has_holder));  // no release
    }
    CHECK(holder(server) == "a");
    CHECK(a.leading());
}
