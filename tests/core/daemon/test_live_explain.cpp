// /debug/explain: the daemon's last cycle as the control thread published it — nothing before the
// first cycle, a cycle's ticks included, the query's pod and format — served by the health server.
#include "daemon/health_server.hpp"
#include "daemon/live_explain.hpp"
#include "net/http_client.hpp"

#include <catch2/catch.hpp>
#include <kdesched/testing.hpp>

using namespace kd::core;

namespace {

net::Response fetch(int port, const std::string& target) {
    net::HttpClient c("http://127.0.0.1:" + std::to_string(port), net::ClientConfig{});
    return c.send({"GET", target, {}, "", ""});
}

}  // namespace

TEST_CASE("live explain: what the last published cycle said, by pod and format, over HTTP") {
    kd::testing::SnapshotBuilder b;
    b.pod("shop", "web-1");
    b.pod("kube-system", "proxy-1");
    const kd_snapshot* snap = b.build();

    daemon::LiveExplain explain;
    daemon::HealthState state;
    state.beat();
    daemon::HealthServer server(
        "127.0.0.1:0", "127.0.0.1:0", state, [] { return std::string("m 1\n"); }, {}, {},
        [&explain](std::string_view q) { return daemon::answer_explain(explain, q); });
    const int port = server.ports()[0];

    auto r = fetch(port, "/debug/explain");
    CHECK(r.status == 200);
    CHECK(r.header("Content-Type") == "application/json");
    CHECK(r.body == "{\"cycle\":0,\"time\":\"\",\"explain\":[]}\n");
    CHECK_THAT(fetch(port, "/debug/explain?format=text").body, Catch::Contains("standby: ask the leader"));

    explain.begin_cycle(7, 1767225600000);
    explain.on_filter_rejection("p", "LowNodeLoad", *snap->pods[1], "DefaultEvictor", "SystemCritical");
    // Not published yet: the previous answer stands.
    CHECK(fetch(port, "/debug/explain").body == r.body);
    explain.publish();
    EvictionRecord refused;
    refused.requested_by = "LowNodeLoad";
    refused.pod = snap->pods[0];
    refused.code = KD_EVICT_FILTERED;
    refused.decided_by = "MigrationController";
    refused.detail = "MaxMigratingPerNode";
    explain.on_eviction(refused);  // during the cycle's tick
    explain.publish();

    auto all = fetch(port, "/debug/explain").body;
    CHECK_THAT(all, Catch::StartsWith(R"({"cycle":7,"time":"2026-01-01T00:00:00Z","explain":[)"));
    CHECK_THAT(all, Catch::Contains(R"({"pod":"kube-system/proxy-1","stage":"filtered","plugin":"DefaultEvictor",)"
                                    R"("reason":"SystemCritical"})"));
    CHECK_THAT(all, Catch::Contains(R"({"pod":"shop/web-1","stage":"refused","plugin":"MigrationController",)"
                                    R"("reason":"MaxMigratingPerNode"})"));
    auto one = fetch(port, "/debug/explain?format=text&pod=shop%2Fweb-1");
    CHECK(one.header("Content-Type") == "text/plain; charset=utf-8");
    CHECK(one.body ==
          "cycle 7 at 2026-01-01T00:00:00Z: 1 pod(s) considered and not evicted named shop/web-1\n"
          "  shop/web-1  refused  MigrationController  MaxMigratingPerNode\n");

    // The next cycle starts empty.
    explain.begin_cycle(8, 1767225610000);
    explain.publish();
    CHECK(fetch(port, "/debug/explain").body == "{\"cycle\":8,\"time\":\"2026-01-01T00:00:10Z\",\"explain\":[]}\n");
    CHECK(fetch(port, "/debug/nothing").status == 404);
}
