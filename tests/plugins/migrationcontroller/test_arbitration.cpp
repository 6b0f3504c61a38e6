// The arbitrator (koord's MigrationController arbitration): each step of the sort chain through
// arbitration_order, and through the periodic hook: sequential admission, the passed-arbitration
// annotation, ForbiddenMigratePod, missing pods, other instances' jobs, the interval, and
// arbitrationArgs.enabled false.
#include "arbitrator.hpp"
#include "test_util.hpp"

#include <functional>
#include <string>
#include <vector>

using namespace mc_test;
using kd::plugins::migrationcontroller::arbitration_order;
using kd::plugins::migrationcontroller::Job;
using kd::plugins::migrationcontroller::Migrations;

namespace {

// The pod names of the waiting jobs in admission order; `others` are listed jobs not waiting.
std::vector<std::string> order(SnapshotBuilder& b, const std::vector<std::string>& waiting,
                               const std::vector<std::string>& others = {}) {
    std::string all = "[";
    for (const auto* list : {&waiting, &others})
        for (const auto& j : *list) all += (all.size() > 1 ? "," : "") + j;
    std::vector<Job> jobs = Job::list(all + "]");
    Migrations m(jobs);
    std::vector<Job*> in;
    for (size_t i = 0; i < waiting.size(); ++i) in.push_back(&jobs[i]);
    const kd_snapshot* s = b.build();
    std::vector<std::string> out;
    for (Job* j : arbitration_order(kd::Snapshot(s), in, m)) out.emplace_back(j->pod_name());
    return out;
}

std::string waiting_job(const std::string& pod, int64_t created_ms) {
    return JobJson("default", pod, created_ms).waiting().json();
}

PodSpec& plain_pod(SnapshotBuilder& b, const std::string& name) {
    return b.pod("default", name).on("n1").owner("ReplicaSet", "rs-" + name).scheduled_by("koord-scheduler");
}

}  // namespace

TEST_CASE("arbitration sort 1: newest job first", "[arbitration]") {
    SnapshotBuilder b;
    for (auto name : {"a", "b", "c"}) plain_pod(b, name);
    CHECK(order(b, {waiting_job("a", kT0 - 30 * kSecond), waiting_job("b", kT0 - 10 * kSecond),
                    waiting_job("c", kT0 - 20 * kSecond)}) == std::vector<std::string>{"b", "c", "a"});
}

TEST_CASE("arbitration sort 2: the pod order decides before the job age", "[arbitration]") {
    // x goes first by the pod order although its job is the older one.
    struct Case {
        const char* name;
        std::function<void(PodSpec& x, PodSpec& y)> setup;
    };
    const std::string pc = "koordinator.sh/priority-class";
    std::vector<Case> cases = {
        {"koordinator priority class (batch < prod)",
         [&](PodSpec& x, PodSpec& y) { x.label(pc, "koord-batch"), y.label(pc, "koord-prod"); }},
        {"koordinator priority class (free < mid)",
         [&](PodSpec& x, PodSpec& y) { x.label(pc, "koord-free"), y.label(pc, "koord-mid"); }},
        {"spec.priority", [](PodSpec& x, PodSpec& y) { x.with_priority(100), y.with_priority(200); }},
        {"Kubernetes QoS (BestEffort < Burstable)",
         [&](PodSpec& x, PodSpec& y) {
             x.label(pc, "koord-prod").with_qos(KD_QOS_BEST_EFFORT);
             y.label(pc, "koord-prod").with_qos(KD_QOS_BURSTABLE);
         }},
        {"koordinator QoS (BE < LS)",
         [&](PodSpec& x, PodSpec& y) {
             x.label(pc, "koord-prod").label("koordinator.sh/qosClass", "BE");
             y.label(pc, "koord-prod").label("koordinator.sh/qosClass", "LS");
         }},
        {"pod-deletion-cost",
         [](PodSpec& x, PodSpec& y) {
             x.annotation("controller.kubernetes.io/pod-deletion-cost", "-5");
             y.annotation("controller.kubernetes.io/pod-deletion-cost", "5");
         }},
        {"eviction-cost",
         [](PodSpec& x, PodSpec& y) {
             x.annotation("scheduling.koordinator.sh/eviction-cost", "1");
             y.annotation("scheduling.koordinator.sh/eviction-cost", "2");
         }},
        {"newer pod first", [](PodSpec& x, PodSpec& y) { x.created(kT0 - kMinute), y.created(kT0 - 120 * kMinute); }},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            SnapshotBuilder b;
            PodSpec& x = plain_pod(b, "x");
            PodSpec& y = plain_pod(b, "y");
            c.setup(x, y);
            CHECK(order(b, {waiting_job("y", kT0 - 10 * kSecond), waiting_job("x", kT0 - 60 * kSecond)}) ==
                  std::vector<std::string>{"x", "y"});
        }
    }
    SECTION("a job whose pod is missing goes first") {
        SnapshotBuilder b;
        plain_pod(b, "y").label(pc, "koord-free");
        CHECK(order(b, {waiting_job("y", kT0 - 10 * kSecond), waiting_job("gone", kT0 - 60 * kSecond)}) ==
              std::vector<std::string>{"gone", "y"});
    }
    SECTION("equal pods keep the newest-first order") {
        SnapshotBuilder b;
        plain_pod(b, "x");
        plain_pod(b, "y");
        CHECK(order(b, {waiting_job("x", kT0 - 60 * kSecond), waiting_job("y", kT0 - 10 * kSecond)}) ==
              std::vector<std::string>{"y", "x"});
    }
}

TEST_CASE("arbitration sort 3: the jobs of one batch Job take the position of its first", "[arbitration]") {
    struct Case {
        const char* name;
        std::string owner_kind;
        std::vector<std::string> want;
    };
    for (const Case& c : std::vector<Case>{{"Kind Job groups", "Job", {"a1", "a2", "r"}},
                                           {"other kinds do not", "StatefulSet", {"a1", "r", "a2"}}}) {
        SECTION(c.name) {
            SnapshotBuilder b;
            b.pod("default", "a1").on("n1").owner(c.owner_kind, "batch-a").with_priority(1);
            b.pod("default", "r").on("n1").owner("ReplicaSet", "rs").with_priority(2);
            b.pod("default", "a2").on("n1").owner(c.owner_kind, "batch-a").with_priority(3);
            CHECK(order(b, {waiting_job("a1", kT0 - 3 * kSecond), waiting_job("r", kT0 - 2 * kSecond),
                            waiting_job("a2", kT0 - kSecond)}) == c.want);
        }
    }
}

TEST_CASE("arbitration sort 4: the batch Job with more migrations under way first", "[arbitration]") {
    struct Case {
        const char* name;
        std::string b0_job;  // the job of pod b0 (Job B), not waiting
        std::vector<std::string> want;
    };
    std::vector<Case> cases = {
        {"Running job of Job B", JobJson("default", "b0").phase("Running").json(), {"b", "r", "a"}},
        {"Pending job of Job B that passed arbitration", JobJson("default", "b0").json(), {"b", "r", "a"}},
        {"Pending job of Job B still waiting", JobJson("default", "b0").waiting().json(), {"r", "a", "b"}},
        {"Succeeded job of Job B", JobJson("default", "b0").phase("Succeeded").json(), {"r", "a", "b"}},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            SnapshotBuilder b;
            b.pod("default", "r").on("n1").owner("ReplicaSet", "rs").with_priority(0);
            b.pod("default", "a").on("n1").owner("Job", "job-a").with_priority(1);
            b.pod("default", "b").on("n1").owner("Job", "job-b").with_priority(2);
            b.pod("default", "b0").on("n2").owner("Job", "job-b").with_priority(2);
            CHECK(order(b,
                        {waiting_job("r", kT0 - 3 * kSecond), waiting_job("a", kT0 - 2 * kSecond),
                         waiting_job("b", kT0 - kSecond)},
                        {c.b0_job}) == c.want);
        }
    }
}

TEST_CASE("arbitration: sequential admission within one round", "[arbitration]") {
    SnapshotBuilder b;
    base_cluster(b);
    web_pod(b, "p1");
    web_pod(b, "p2");
    std::string j1 = waiting_job("p1", kT0 - 20 * kSecond), j2 = waiting_job("p2", kT0 - 10 * kSecond);
    b.objects("PodMigrationJob", array({j1, j2}));
    FakeHost host;
    host.on_write = check_against_crds;
    auto plugin = host.instantiate<MigrationController>(R"({"maxMigratingPerNode": 1})");
    CHECK(plugin.tick(b.build()) == kT0);  // it wrote: run again at once

    // The newest job passes and is reconciled in the same tick; the other one waits.
    auto p2 = job_updates(host, "job-p2");
    // The annotation (metadata), then the reconcile's spec and status, each write carrying the
    // resourceVersion the one before answered.
    REQUIRE(job_write_verbs(host, "job-p2") == std::vector<std::string>{"update", "update", "status"});
    CHECK(str(p2[0], "/metadata/annotations/descheduler.koordinator.sh~1passed-arbitration") == "true");
    CHECK(str(p2[0], "/status/phase") == "Pending");
    CHECK(str(p2[1], "/metadata/resourceVersion") == "rv-1");
    CHECK(str(p2[2], "/metadata/resourceVersion") == "rv-3");
    CHECK(str(p2[2], "/status/phase") == "Running");
    CHECK(job_updates(host, "job-p1").empty());
    CHECK(contains(host.reports(), "pod default/p1 skipped=MaxMigratingPerNode"));

    // Next round: p2's job is Running and still counts, p1 keeps waiting.
    host.clear();
    b.set_now(kT0 + 500);
    b.objects("PodMigrationJob", array({j1, to_json(p2[1])}));
    int64_t next = plugin.tick(b.build());
    CHECK(job_updates(host, "job-p1").empty());
    CHECK(next == kT0 + 1000);  // the next arbitration round

    // Once p2's job succeeded, p1's job passes.
    host.clear();
    b.set_now(kT0 + 1000);
    b.objects("PodMigrationJob", array({j1, JobJson("default", "p2").phase("Succeeded").json()}));
    plugin.tick(b.build());
    auto p1 = job_updates(host, "job-p1");
    REQUIRE_FALSE(p1.empty());
    CHECK(str(p1[0], "/metadata/annotations/descheduler.koordinator.sh~1passed-arbitration") == "true");
}

TEST_CASE("arbitration: rounds follow arbitrationArgs.interval", "[arbitration]") {
    SnapshotBuilder b;
    base_cluster(b);
    web_pod(b, "p");
    b.objects("PodMigrationJob", array({JobJson("other", "x").phase("Running").created_by("another-instance").json(),
                                        waiting_job("p", kT0 - 10 * kSecond)}));
    FakeHost host;
    host.on_write = check_against_crds;
    auto plugin =
        host.instantiate<MigrationController>(R"({"maxMigratingGlobally": 1, "arbitrationArgs": {"interval": "2s"}})");
    CHECK(plugin.tick(b.build()) == kT0 + 2000);
    CHECK(host.writes().empty());
    CHECK(contains(host.reports(), "pod default/p skipped=MaxMigratingGlobally"));
    // Between rounds nothing is arbitrated, and the next round is still asked for.
    host.clear();
    b.set_now(kT0 + 1000);
    CHECK(plugin.tick(b.build()) == kT0 + 2000);
    CHECK(host.reports().empty());
    // The limit is gone at the next round: the job passes.
    b.set_now(kT0 + 2000);
    b.objects("PodMigrationJob", array({waiting_job("p", kT0 - 10 * kSecond)}));
    plugin.tick(b.build());
    auto updates = job_updates(host, "job-p");
    REQUIRE_FALSE(updates.empty());
    CHECK(str(updates[0], "/metadata/annotations/descheduler.koordinator.sh~1passed-arbitration") == "true");
}

TEST_CASE("arbitration: a pod failing the non-retryable filter fails its job", "[arbitration]") {
    struct Case {
        const char* name;
        std::function<void(PodSpec&)> setup;
        std::string reason;  // the filter's reason in the event
    };
    std::vector<Case> cases = {
        {"DaemonSet pod",
         [](PodSpec& p) {
             p.owners.clear();
             p.owner("DaemonSet", "ds");
         },
         "DaemonSetPod"},
        {"eviction cost MaxInt32",
         [](PodSpec& p) { p.annotation("scheduling.koordinator.sh/eviction-cost", "2147483647"); }, "EvictionCostMax"},
        {"replicas 1 workload",
         [](PodSpec& p) {
             p.owners.clear();
             p.owner("ReplicaSet", "solo-rs");
         },
         "ExpectedReplicas"},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            SnapshotBuilder b;
            base_cluster(b);
            b.workload("ReplicaSet", "default", "solo-rs", 1);
            c.setup(web_pod(b, "p"));
            b.objects("PodMigrationJob", array({waiting_job("p", kT0 - 10 * kSecond)}));
            FakeHost host;
            host.on_write = check_against_crds;
            auto plugin = host.instantiate<MigrationController>("{}");
            plugin.tick(b.build());
            auto updates = job_updates(host, "job-p");
            REQUIRE(updates.size() == 1);  // failed: not reconciled afterwards
            const std::string msg =
                "Pod \"default/p\" is forbidden to migrate because it does not meet the requirements";
            CHECK(str(updates[0], "/status/phase") == "Failed");
            CHECK(str(updates[0], "/status/reason") == "ForbiddenMigratePod");
            CHECK(str(updates[0], "/status/message") == msg);
            CHECK_FALSE(has(updates[0], "/metadata/annotations/descheduler.koordinator.sh~1passed-arbitration"));
            CHECK(contains(lines(host, "event "), "PodMigrationJob /job-p Warning ForbiddenMigratePod Migrating: " +
                                                      msg + " (" + c.reason + ")"));
            CHECK(lines(host, "create ").empty());
            CHECK(host.cluster_evictions().empty());
        }
    }
}

TEST_CASE("arbitration: a job whose pod is missing passes", "[arbitration]") {
    SnapshotBuilder b;
    base_cluster(b);
    b.objects("PodMigrationJob", array({waiting_job("gone", kT0 - 10 * kSecond)}));
    FakeHost host;
    host.on_write = check_against_crds;
    auto plugin = host.instantiate<MigrationController>("{}");
    plugin.tick(b.build());
    auto updates = job_updates(host, "job-gone");
    REQUIRE(updates.size() == 2);
    CHECK(str(updates[0], "/metadata/annotations/descheduler.koordinator.sh~1passed-arbitration") == "true");
    CHECK(str(updates[0], "/status/phase") == "Pending");
    // ... and reconcile then aborts it.
    CHECK(str(updates[1], "/status/phase") == "Failed");
    CHECK(str(updates[1], "/status/reason") == "MissingPod");
}

TEST_CASE("arbitration: jobs of another instance are left alone — unclaimed jobs are run", "[arbitration]") {
    struct Case {
        const char* name;
        std::function<void(JobJson&)> setup;
        bool touched;
    };
    std::vector<Case> cases = {
        {"created by this instance", [](JobJson&) {}, true},
        {"created by another instance", [](JobJson& j) { j.created_by("another-instance"); }, false},
        {"Running job of another instance", [](JobJson& j) { j.created_by("another-instance").phase("Running"); },
         false},
        {"created by hand (no job-created-by)", [](JobJson& j) { j.no_annotation("koordinator.sh/job-created-by"); },
         true},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            SnapshotBuilder b;
            base_cluster(b);
            web_pod(b, "p");
            JobJson job("default", "p");
            job.waiting();
            c.setup(job);
            b.objects("PodMigrationJob", array({job.json()}));
            FakeHost host;
            host.on_write = check_against_crds;
            auto plugin = host.instantiate<MigrationController>("{}");
            plugin.tick(b.build());
            CHECK(job_updates(host, "job-p").empty() == !c.touched);
            CHECK(lines(host, "create ").empty() == !c.touched);
            CHECK(host.cluster_evictions().empty());
        }
    }
}

TEST_CASE("arbitration: arbitrationArgs.enabled false reconciles jobs without the annotation", "[arbitration]") {
    SnapshotBuilder b;
    base_cluster(b);
    web_pod(b, "p1");
    web_pod(b, "p2");
    b.objects("PodMigrationJob", array({waiting_job("p1", kT0 - 20 * kSecond), waiting_job("p2", kT0 - 10 * kSecond)}));
    FakeHost host;
    host.on_write = check_against_crds;
    // maxMigratingPerNode 1 would hold one of them back under arbitration.
    auto plugin =
        host.instantiate<MigrationController>(R"({"maxMigratingPerNode": 1, "arbitrationArgs": {"enabled": false}})");
    plugin.tick(b.build());
    for (auto name : {"job-p1", "job-p2"}) {
        auto updates = job_updates(host, name);
        REQUIRE(job_write_verbs(host, name) == std::vector<std::string>{"update", "status"});
        CHECK(str(updates[1], "/status/phase") == "Running");
        CHECK_FALSE(has(updates[1], "/metadata/annotations/descheduler.koordinator.sh~1passed-arbitration"));
    }
    CHECK(objects_written(host, "create", "Reservation").size() == 2);
}
