// `kdesched run` against a real kube-apiserver (../shared/envtest, when KDESCHED_ENVTEST names it;
// skipped otherwise): the hotspot scenario's writes are accepted as a real server checks them —
// the Lease, PodMigrationJob create then its status subresource, the Reservation, the Eviction
// API, Events — with the test playing koordlet, the scheduler and the workload controller (a
// server alone has none: evicted pods stay Terminating until the test deletes them).
#include "api_actor.hpp"
#include "api_loader.hpp"
#include "daemon_harness.hpp"
#include "envtest.hpp"

#include <catch2/catch.hpp>

using kd_test::str;

TEST_CASE("kdesched run's writes are accepted by a real API server: the hotspot migration", "[envtest]") {
    kd_test::Envtest* env = kd_test::Envtest::get("`kdesched run` writing to a real API server");
    if (!env) return;
    auto client = env->client();
    kd_test::ApiLoader api(*client);
    kd_test::install_hotspot(api, kd_test::Envtest::crds(), std::string(KDESCHED_EXAMPLES_DIR) + "/hotspot.json");
    kd_test::ApiActor actor(api);
    actor.step();
    int port = kd_test::free_port();
    kd_test::DaemonFiles files(std::filesystem::path(env->kubeconfig()), port);
    kd_test::DaemonProcess daemon(files, "envtest");

    bool done = actor.step_until_succeeded(120);
    INFO(kd_test::warnings_in(daemon.log()));
    REQUIRE(done);
    // The status went through the subresource (a create drops it), so the phase is the server's.
    std::string holder = actor.lease_holder();
    CHECK_FALSE(holder.empty());
    CHECK(holder.find("leases>") == std::string::npos);
    CHECK(actor.list("/apis/scheduling.koordinator.sh/v1alpha1/reservations")["items"].Size() >= 1);
    auto events = actor.list("/apis/events.k8s.io/v1/events");
    bool descheduled = false;
    for (const auto& e : events["items"].GetArray())
        descheduled |= str(e, {"reason"}) == "Descheduled" && str(e, {"reportingController"}) == "koord-descheduler";
    CHECK(descheduled);
    daemon.signal(SIGTERM);
    CHECK(daemon.wait(20) == 0);
    CHECK(actor.lease_holder().empty());  // handed back
}
