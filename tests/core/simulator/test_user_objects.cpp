// Hand-written PodMigrationJobs and Reservations (tests/data/clusters/manual-jobs.yaml) run by the
// real MigrationController in the simulator: the simulated API server gives them what a real one
// gives a created object, every job reaches its end, and every field kdesched does not own —
// finalizers, owner references, fields of a newer CRD at every level, the user's spelling of a
// duration — is still there after every update kdesched made.
#include "cluster/cluster_model.hpp"
#include "cluster/decode/snapshot_files.hpp"
#include "config/configuration.hpp"
#include "json_at.hpp"
#include "loader/plugin_catalog.hpp"
#include "simulator/simulation.hpp"

#include <rapidjson/document.h>

#include <catch2/catch.hpp>

#include <string>

using namespace kd::core;
using kd_test::at;

namespace {

const std::string kData = KDESCHED_TEST_DATA_ROOT;

rapidjson::Document dom(const std::string& wire) {
    rapidjson::Document d;
    d.Parse(wire.c_str());
    REQUIRE_FALSE(d.HasParseError());
    return d;
}

// What the user wrote and kdesched does not own, on a job or Reservation as the cluster holds it.
void check_user_fields(const std::string& wire) {
    INFO(wire);
    auto d = dom(wire);
    CHECK(at(d, "/metadata/finalizers/0") == "example.com/keep");
    CHECK(at(d, "/metadata/ownerReferences/0/uid") == "cm-plan");
    CHECK(at(d, "/metadata/labels/team") == "shop");
    CHECK(at(d, "/metadata/annotations/note") == "by hand");
}

}  // namespace

TEST_CASE("hand-written jobs run to their end and keep every field kdesched does not own", "[simulate][nothing-lost]") {
    PluginCatalog catalog;
    catalog.load({KDESCHED_PLUGIN_DIR});
    auto config = load_configuration(kData + "/profiles/simulate/manual-jobs.yaml");
    ClusterModel model;
    load_cluster_files({kData + "/clusters/manual-jobs.yaml"}, model);
    SimulationReport report = simulate(config, catalog, model, {6, false, {}, {}});

    auto job = [&](const char* name) -> const PodMigrationJob& {
        const PodMigrationJob* j = model.migration_job_by_name(name);
        INFO(name);
        REQUIRE(j);
        return *j;
    };
    // The simulated API server gave each one what a created object has.
    for (const auto& [key, j] : model.migration_jobs()) {
        INFO(j.name);
        CHECK_FALSE(j.resource_version.empty());
        CHECK(j.creation_ms != 0);
        CHECK(j.uid.rfind("sim-loaded-pmj-", 0) == 0);
    }
    // Every job at its end, with the reason each way of ending gives.
    struct End {
        const char* job;
        const char* phase;
        const char* reason;
    };
    for (const End& e :
         {End{"evict-web-0", "Succeeded", ""}, End{"move-web-1", "Succeeded", ""},
          End{"gone-pod", "Failed", "MissingPod"}, End{"no-pod-name", "Failed", "InvalidPodRef"},
          End{"bare-pod", "Failed", "ForbiddenMigratePod"}, End{"unschedulable", "Failed", "Unschedulable"},
          End{"timed-out", "Failed", "Timeout"}, End{"expired-reservation", "Failed", "ReservationExpired"},
          End{"missing-reservation", "Failed", "MissingReservation"},
          End{"taken-reservation", "Failed", "ForbiddenMigratePod"}}) {
        const PodMigrationJob& j = job(e.job);
        INFO(e.job << ": " << j.message);
        CHECK(j.phase == e.phase);
        CHECK(j.reason == e.reason);
    }

    // The user's fields survived the arbitration mark, each phase and the conditions (timed-out
    // ended while it waited for admission).
    for (const char* name : {"evict-web-0", "move-web-1", "gone-pod", "timed-out", "expired-reservation"}) {
        const PodMigrationJob& j = job(name);
        INFO(name);
        check_user_fields(j.wire);
        if (std::string(name) != "timed-out")
            CHECK(at(dom(j.wire), "/metadata/annotations/descheduler.koordinator.sh~1passed-arbitration") == "true");
    }
    for (const char* name : {"evict-web-0", "move-web-1"}) {
        auto d = dom(job(name).wire);
        CHECK(at(d, "/spec/futureSpecField/level") == "3");
        CHECK(at(d, "/futureTopLevel/kept") == "true");
        CHECK(at(d, "/spec/ttl") == "5m");  // as the user spelled it
    }
    CHECK(at(dom(job("evict-web-0").wire), "/spec/deleteOptions/gracePeriodSeconds") == "7");
    CHECK(at(dom(job("move-web-1").wire), "/spec/reservationOptions/template/metadata/labels/reserved-for") == "web-1");
    CHECK(at(dom(job("unschedulable").wire), "/spec/ttl") == "30s");

    // The user's Reservation kdesched labelled keeps what it had.
    const Reservation* expired = model.reservation_by_name("r-expired");
    REQUIRE(expired);
    check_user_fields(expired->wire);
    auto r = dom(expired->wire);
    CHECK(at(r, "/metadata/labels/scheduling.koordinator.sh~1reservation-order") != "<absent>");
    CHECK(at(r, "/spec/futureSpecField/level") == "3");
    CHECK(at(r, "/futureTopLevel/kept") == "true");
    CHECK(at(r, "/status/futureStatusField") == "x");
    CHECK(at(r, "/status/phase") == "Failed");

    // The Reservation made from move-web-1's template carries it, and was bound by the replacement.
    const std::string& reserved = job("move-web-1").reservation_ref->name;
    const Reservation* made = model.reservation_by_name(reserved);
    REQUIRE(made);
    auto m = dom(made->wire);
    CHECK(at(m, "/metadata/labels/reserved-for") == "web-1");
    CHECK(at(m, "/status/phase") == "Succeeded");
    CHECK(at(m, "/status/currentOwners/0/kind") == "Pod");
    REQUIRE(report.cycles.size() == 6);
}
