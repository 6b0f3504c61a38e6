// The auditor reports each kind of violation it exists for, and nothing on writes that keep the
// rules: without this, a safety run with 0 violations would prove nothing.
#include "safety_auditor.hpp"

#include "cluster/decode/snapshot_files.hpp"

#include <catch2/catch.hpp>

using namespace kd;
using kd::safety::SafetyAuditor;

namespace {

// Deployment shop/web (4 replicas) through ReplicaSet web-rs: web-0 and web-1 on node-a, web-2
// and web-3 on node-b (web-3 not ready); a protected DaemonSet pod on node-a.
std::string pod(const std::string& name, const std::string& node, const std::string& owner_kind,
                const std::string& owner, bool ready = true, const std::string& labels = "") {
    return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name + R"(","namespace":"shop","uid":"uid-)" +
           name + R"(","labels":{)" + labels + R"(},"ownerReferences":[{"apiVersion":"apps/v1","kind":")" + owner_kind +
           R"(","name":")" + owner + R"(","uid":"uid-)" + owner + R"(","controller":true}]},"spec":{"nodeName":")" +
           node +
           R"(","containers":[{"name":"c"}]},"status":{"phase":"Running","conditions":[{"type":"Ready","status":")" +
           (ready ? "True" : "False") + R"("}]}})";
}

const std::string kCluster =
    R"({"apiVersion":"v1","kind":"List","items":[
  {"apiVersion":"v1","kind":"Node","metadata":{"name":"node-a","uid":"uid-node-a"},"status":{"allocatable":{"cpu":"8"}}},
  {"apiVersion":"v1","kind":"Node","metadata":{"name":"node-b","uid":"uid-node-b"},"status":{"allocatable":{"cpu":"8"}}},
  {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop","uid":"uid-web"},"spec":{"replicas":4}},
  {"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"web-rs","namespace":"shop","uid":"uid-web-rs",
    "ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"web","uid":"uid-web","controller":true}]},
    "spec":{"replicas":4}},
  {"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"agent","namespace":"shop","uid":"uid-agent"}},)" +
    pod("web-0", "node-a", "ReplicaSet", "web-rs") + "," + pod("web-1", "node-a", "ReplicaSet", "web-rs") + "," +
    pod("web-2", "node-b", "ReplicaSet", "web-rs") + "," + pod("web-3", "node-b", "ReplicaSet", "web-rs", false) + "," +
    pod("agent-a", "node-a", "DaemonSet", "agent", true, R"("safety.kdesched.io/protected":"daemonset")") + "]}";

void load(core::ClusterModel& model) {
    core::load_cluster_text(kCluster, "auditor.json", model);
}

core::PodMigrationJob job(const std::string& name, const std::string& pod, const std::string& phase,
                          bool passed = false) {
    core::PodMigrationJob j;
    j.uid = "uid-" + name;
    j.name = name;
    j.pod_ref.ns = "shop";
    j.pod_ref.name = pod;
    j.pod_ref.uid = "uid-" + pod;
    j.phase = phase;
    if (passed) j.annotations["descheduler.koordinator.sh/passed-arbitration"] = "true";
    return j;
}

core::QueuedEviction eviction(const std::string& pod, const std::string& node) {
    return {"uid-" + pod, "shop/" + pod, node, "test", "MigrationController"};
}

core::Reservation reservation(const std::string& name, const std::string& phase, const std::string& node) {
    core::Reservation r;
    r.uid = "uid-" + name;
    r.name = name;
    r.phase = phase;
    r.node_name = node;
    return r;
}

safety::ScenarioRules migration(bool reservation_first, std::optional<safety::Budget> max_migrating = std::nullopt,
                                std::optional<safety::Budget> max_unavailable = safety::Budget{false, 3}) {
    return {true, reservation_first, max_migrating, max_unavailable};
}

}  // namespace

TEST_CASE("safety auditor: writes that keep every rule are not reported") {
    core::ClusterModel model;
    load(model);
    auto running = job("move-web-0", "web-0", "Running");
    running.mode = "ReservationFirst";
    running.reservation_ref = core::ObjectReference{"v1alpha1", "Reservation", "", "r-web-0", "uid-r-web-0", "", ""};
    model.on_migration_job(running);
    model.on_reservation(reservation("r-web-0", "Available", "node-b"));
    SafetyAuditor auditor(migration(true));
    core::CycleWrites writes;
    writes.evictions.push_back(eviction("web-0", "node-a"));
    auditor.audit(model, writes, 0);
    CHECK(auditor.violations().empty());
    CHECK(auditor.counts().evictions == 1);
    CHECK(auditor.counts().reservation_checks == 1);
}

TEST_CASE("safety auditor: a protected pod evicted, or given a migration job, is a violation") {
    core::ClusterModel model;
    load(model);
    SafetyAuditor auditor(safety::ScenarioRules{});  // DefaultEvictor: evictions need no job
    core::CycleWrites writes;
    writes.evictions.push_back(eviction("agent-a", "node-a"));
    writes.upserts.push_back(job("move-agent", "agent-a", "Pending"));
    auditor.audit(model, writes, 0);
    REQUIRE(auditor.violations().size() == 2);
    CHECK(auditor.violations()[0] ==
          "job-for-protected-pod: migration job move-agent for shop/agent-a (daemonset) (at 1970-01-01T00:00:00Z)");
    CHECK(auditor.violations()[1] ==
          "protected-pod-evicted: shop/agent-a (daemonset) by MigrationController (at 1970-01-01T00:00:00Z)");
}

TEST_CASE("safety auditor: the same pod evicted twice is a violation") {
    core::ClusterModel model;
    load(model);
    SafetyAuditor auditor(safety::ScenarioRules{});
    core::CycleWrites writes;
    writes.evictions.push_back(eviction("web-1", "node-a"));
    auditor.audit(model, writes, 0);
    CHECK(auditor.violations().empty());
    auditor.audit(model, writes, 10'000);
    CHECK(auditor.violation_kinds() == std::map<std::string, size_t>{{"evicted-twice", 1}});
}

TEST_CASE(
    "safety auditor: MigrationController evicts only through an admitted job, in ReservationFirst only with a "
    "scheduled Reservation elsewhere") {
    core::ClusterModel model;
    load(model);
    SECTION("no job") {
        SafetyAuditor auditor(migration(false));
        core::CycleWrites writes;
        writes.evictions.push_back(eviction("web-1", "node-a"));
        auditor.audit(model, writes, 0);
        CHECK(auditor.violation_kinds() == std::map<std::string, size_t>{{"evicted-without-admitted-job", 1}});
    }
    SECTION("a job still Pending") {
        model.on_migration_job(job("move-web-1", "web-1", "Pending", true));
        SafetyAuditor auditor(migration(false));
        core::CycleWrites writes;
        writes.evictions.push_back(eviction("web-1", "node-a"));
        auditor.audit(model, writes, 0);
        CHECK(auditor.violation_kinds() == std::map<std::string, size_t>{{"evicted-without-admitted-job", 1}});
    }
    SECTION("EvictDirectly needs no Reservation") {
        model.on_migration_job(job("move-web-1", "web-1", "Running"));
        SafetyAuditor auditor(migration(false));
        core::CycleWrites writes;
        writes.evictions.push_back(eviction("web-1", "node-a"));
        auditor.audit(model, writes, 0);
        CHECK(auditor.violations().empty());
    }
    SECTION("ReservationFirst with a Reservation not scheduled, or on the pod's own node") {
        auto pending = job("move-web-1", "web-1", "Running");
        pending.reservation_ref = core::ObjectReference{"v1alpha1", "Reservation", "", "r-web-1", "", "", ""};
        model.on_migration_job(pending);
        auto other = job("move-web-2", "web-2", "Running");
        other.reservation_ref = core::ObjectReference{"v1alpha1", "Reservation", "", "r-web-2", "", "", ""};
        model.on_migration_job(other);
        model.on_reservation(reservation("r-web-1", "Pending", ""));
        model.on_reservation(reservation("r-web-2", "Available", "node-b"));
        SafetyAuditor auditor(migration(true));
        core::CycleWrites writes;
        writes.evictions.push_back(eviction("web-1", "node-a"));
        writes.evictions.push_back(eviction("web-2", "node-b"));
        auditor.audit(model, writes, 0);
        REQUIRE(auditor.violations().size() == 2);
        CHECK(auditor.violations()[0].find("shop/web-1 evicted by job move-web-1; its Reservation is not scheduled") !=
              std::string::npos);
        CHECK(auditor.violations()[1].find("its Reservation is Available on node-b") != std::string::npos);
    }
}

TEST_CASE("safety auditor: a migration admitted beyond the workload's budgets is a violation") {
    core::ClusterModel model;
    load(model);
    SECTION("maxMigratingPerWorkload 1 with web-0 already migrating") {
        model.on_migration_job(job("move-web-0", "web-0", "Running"));
        SafetyAuditor auditor(migration(true, safety::Budget{false, 1}));
        core::CycleWrites writes;
        writes.upserts.push_back(job("move-web-1", "web-1", "Pending", true));
        auditor.audit(model, writes, 0);
        CHECK(auditor.counts().admissions == 1);
        CHECK(auditor.violation_kinds() ==
              std::map<std::string, size_t>{{"workload-migrating-budget", 1}, {"workload-over-budget", 1}});
    }
    SECTION("two admissions in one call count one after the other") {
        SafetyAuditor auditor(migration(true, safety::Budget{true, 25}));  // 25% of 4 = 1
        core::CycleWrites writes;
        writes.upserts.push_back(job("move-web-0", "web-0", "Pending", true));
        writes.upserts.push_back(job("move-web-1", "web-1", "Pending", true));
        auditor.audit(model, writes, 0);
        CHECK(auditor.counts().admissions == 2);
        CHECK(auditor.violation_kinds() ==
              std::map<std::string, size_t>{{"workload-migrating-budget", 1}, {"workload-over-budget", 1}});
    }
    SECTION("maxUnavailablePerWorkload 2 with web-3 not ready and web-0 migrating") {
        model.on_migration_job(job("move-web-0", "web-0", "Pending", true));
        SafetyAuditor auditor(migration(true, safety::Budget{false, 3}, safety::Budget{false, 2}));
        core::CycleWrites writes;
        writes.upserts.push_back(job("move-web-1", "web-1", "Running"));
        auditor.audit(model, writes, 0);
        REQUIRE(auditor.violations().size() == 1);
        CHECK(auditor.violations()[0].find("workload-unavailable-budget: job move-web-1 for shop/web-1 admitted with 2 "
                                           "other pods of Deployment web unavailable, maxUnavailablePerWorkload "
                                           "allows 2") == 0);
    }
    SECTION("the spec's defaults: 4 replicas may have 2 migrating") {
        model.on_migration_job(job("move-web-0", "web-0", "Running"));
        SafetyAuditor auditor(migration(true, std::nullopt, safety::Budget{false, 4}));
        core::CycleWrites writes;
        writes.upserts.push_back(job("move-web-1", "web-1", "Pending", true));
        auditor.audit(model, writes, 0);
        CHECK(auditor.violations().empty());
        writes.upserts = {job("move-web-2", "web-2", "Pending", true)};
        model.on_migration_job(job("move-web-1", "web-1", "Pending", true));
        auditor.audit(model, writes, 1000);
        CHECK(auditor.violation_kinds() ==
              std::map<std::string, size_t>{{"workload-migrating-budget", 1}, {"workload-over-budget", 1}});
    }
}
