// The PodMigrationJob state machine (koord's `Reconcile`) through the periodic hook, with the
// snapshot time as the clock and the listed objects as the cluster: Pending → Running with the
// Reservation (koord's `createReservation`), every abort reason, the requeues, the whole
// ReservationFirst and EvictDirectly workflows, paused jobs, and the scavenger.
#include "test_util.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

using namespace mc_test;

namespace {

// A cluster (base_cluster + pod default/p on n1), a fake host and one plugin instance.
struct World {
    SnapshotBuilder b;
    FakeHost host;
    std::optional<FakeHost::Handle> plugin;

    explicit World(const std::string& args = "{}", bool with_pod = true) {
        host.on_write = check_against_crds;  // every object written must fit Koordinator's CRDs
        base_cluster(b);
        if (with_pod) web_pod(b, "p");
        plugin.emplace(host.instantiate<MigrationController>(args));
    }
    // Lists `jobs` and `reservations` at `now` and runs the periodic hook.
    int64_t tick(int64_t now, const std::vector<std::string>& jobs, const std::vector<std::string>& reservations = {}) {
        b.set_now(now);
        b.objects("PodMigrationJob", join(jobs));
        b.objects("Reservation", join(reservations));
        return plugin->tick(b.build());
    }
    static std::string join(const std::vector<std::string>& objects) {
        std::string out = "[";
        for (const auto& o : objects) out += (out.size() > 1 ? "," : "") + o;
        return out + "]";
    }
};

const char* const kOrderLabel = "/metadata/labels/scheduling.koordinator.sh~1reservation-order";

// A Running job with its Reservation r1 created and seen.
JobJson running_with_reservation(const std::string& pod = "p") {
    JobJson j("default", pod);
    j.phase("Running").pod_uid("uid-pod-default-" + pod).reservation("r1").cond("ReservationCreated", "True");
    j.status_text("ReservationCreated");
    return j;
}

}  // namespace

TEST_CASE("reconcile: Pending → Running creates the Reservation", "[reconcile]") {
    World w;
    CHECK(w.tick(kT0, {JobJson("default", "p").json()}) == kT0);  // it wrote: again at once

    auto created = objects_written(w.host, "create", "Reservation");
    REQUIRE(created.size() == 1);
    const auto& r = created[0];
    CHECK(str(r, "/apiVersion") == "scheduling.koordinator.sh/v1alpha1");
    CHECK(str(r, "/metadata/name") == "uid-job-p");
    CHECK(str(r, "/metadata/labels/app.kubernetes.io~1created-by") == "koord-descheduler");
    CHECK(str(r, kOrderLabel) == std::to_string(kT0));
    CHECK(str(r, "/spec/template/metadata/namespace") == "default");
    CHECK(str(r, "/spec/template/metadata/name") == "p");
    CHECK(str(r, "/spec/template/metadata/labels/app") == "web");
    CHECK(str(r, "/spec/template/spec/schedulerName") == "koord-scheduler");
    CHECK_FALSE(has(r, "/spec/template/spec/nodeName"));
    CHECK(str(r, "/spec/template/spec/containers/0/resources/requests/cpu") == "500m");
    CHECK(str(r, "/spec/template/spec/containers/0/resources/requests/memory") == "1073741824");
    REQUIRE(at(r, "/spec/owners")->Size() == 1);
    CHECK(str(r, "/spec/owners/0/controller/apiVersion") == "apps/v1");
    CHECK(str(r, "/spec/owners/0/controller/kind") == "ReplicaSet");
    CHECK(str(r, "/spec/owners/0/controller/name") == "web-rs");
    CHECK(str(r, "/spec/owners/0/controller/uid") == "uid-ReplicaSet-web-rs");
    CHECK(at(r, "/spec/owners/0/controller/controller")->GetBool());
    CHECK(str(r, "/spec/owners/0/controller/namespace") == "default");
    CHECK(at(r, "/spec/allocateOnce")->GetBool());
    CHECK(str(r, "/spec/ttl") == "5m0s");
    const std::string term =
        "/spec/template/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/"
        "nodeSelectorTerms";
    REQUIRE(at(r, term)->Size() == 1);
    CHECK(to_json(*at(r, term + "/0/matchFields")) ==
          R"([{"key":"metadata.name","operator":"NotIn","values":["n1"]}])");

    // Spec first, then the status subresource, which carries the resourceVersion the spec update
    // answered (the fake host's third versioned write, after the Reservation and the spec).
    CHECK(job_write_verbs(w.host, "job-p") == std::vector<std::string>{"update", "status"});
    auto job = last_job_update(w.host, "job-p");
    CHECK(str(job_updates(w.host, "job-p")[0], "/metadata/resourceVersion") == "1");
    CHECK(str(job, "/metadata/resourceVersion") == "rv-2");
    CHECK(str(job, "/status/phase") == "Running");
    CHECK(str(job, "/spec/podRef/uid") == "uid-pod-default-p");
    CHECK(str(job, "/spec/reservationOptions/reservationRef/apiVersion") == "v1alpha1");
    CHECK(str(job, "/spec/reservationOptions/reservationRef/kind") == "Reservation");
    CHECK(str(job, "/spec/reservationOptions/reservationRef/name") == "uid-job-p");
    CHECK(contains(lines(w.host, "event "),
                   "PodMigrationJob /job-p Normal ReservationCreated Migrating: Reservation "
                   "\"uid-job-p\" created for Pod \"default/p\""));
    CHECK(w.host.cluster_evictions().empty());
}

TEST_CASE("reconcile: the Reservation follows the pod and the job's template", "[reconcile]") {
    const std::string terms =
        "/spec/template/spec/affinity/nodeAffinity/"
        "requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms";
    SECTION("required node affinity: NotIn the current node is added to every term") {
        World w("{}", false);
        web_pod(w.b, "p").require_node("zone", "In", {"a"}).require_node("zone", "In", {"b"});
        w.tick(kT0, {JobJson("default", "p").json()});
        auto all = objects_written(w.host, "create", "Reservation");
        REQUIRE(all.size() == 1);
        const auto& r = all[0];
        REQUIRE(at(r, terms)->Size() == 2);
        for (const char* i : {"/0", "/1"}) {
            CHECK(str(r, terms + i + "/matchExpressions/0/key") == "zone");
            CHECK(to_json(*at(r, terms + i + "/matchFields")) ==
                  R"([{"key":"metadata.name","operator":"NotIn","values":["n1"]}])");
        }
    }
    SECTION("a pending unscheduled pod: an object owner and no anti-affinity") {
        World w("{}", false);
        web_pod(w.b, "p", "").in_phase(KD_POD_PENDING).condition("PodScheduled", "False", "Unschedulable", "no fit");
        w.tick(kT0, {JobJson("default", "p").json()});
        auto all = objects_written(w.host, "create", "Reservation");
        REQUIRE(all.size() == 1);
        const auto& r = all[0];
        CHECK(to_json(*at(r, "/spec/owners")) ==
              R"([{"object":{"uid":"uid-pod-default-p","kind":"Pod","name":"p","namespace":"default"}}])");
        CHECK_FALSE(has(r, "/spec/template/spec/affinity"));
    }
    SECTION("nodeSelector, tolerations and priority are copied") {
        World w("{}", false);
        web_pod(w.b, "p")
            .select_node("pool", "a")
            .tolerate("dedicated", "Equal", "web", "NoSchedule")
            .with_priority(9000);
        w.tick(kT0, {JobJson("default", "p").json()});
        auto all = objects_written(w.host, "create", "Reservation");
        REQUIRE(all.size() == 1);
        const auto& r = all[0];
        CHECK(str(r, "/spec/template/spec/nodeSelector/pool") == "a");
        CHECK(to_json(*at(r, "/spec/template/spec/tolerations")) ==
              R"([{"key":"dedicated","operator":"Equal","value":"web","effect":"NoSchedule"}])");
        CHECK(at(r, "/spec/template/spec/priority")->GetInt() == 9000);
    }
    SECTION("the job's reservationOptions.template is the base: its name and ttl win") {
        World w;
        JobJson job("default", "p");
        job.set_json("/spec/reservationOptions/template",
                     R"({"metadata": {"name": "custom", "labels": {"team": "a"}}, "spec": {"ttl": "1h"}})");
        w.tick(kT0, {job.json()});
        auto all = objects_written(w.host, "create", "Reservation");
        REQUIRE(all.size() == 1);
        const auto& r = all[0];
        CHECK(str(r, "/metadata/name") == "custom");
        CHECK(str(r, "/metadata/labels/team") == "a");
        CHECK(str(r, "/metadata/labels/app.kubernetes.io~1created-by") == "koord-descheduler");
        CHECK(str(r, "/spec/ttl") == "1h");
        CHECK(str(last_job_update(w.host, "job-p"), "/spec/reservationOptions/reservationRef/name") == "custom");
    }
    SECTION("a job without ttl gives a Reservation without ttl") {
        World w;
        w.tick(kT0, {JobJson("default", "p").ttl("").json()});
        auto all = objects_written(w.host, "create", "Reservation");
        REQUIRE(all.size() == 1);
        const auto& r = all[0];
        CHECK_FALSE(has(r, "/spec/ttl"));
    }
}

TEST_CASE("reconcile: every abort reason", "[reconcile]") {
    struct Case {
        const char* name;
        std::string job;
        std::vector<std::string> reservations;
        std::string reason, message;
        std::vector<std::string> writes;  // fragments expected among the writes
        std::function<void(SnapshotBuilder&)> pods = [](SnapshotBuilder& b) { web_pod(b, "p"); };
    };
    auto pods = [](std::function<void(SnapshotBuilder&)> f) { return f; };
    ReservationJson expired("r1", "Failed");
    expired.cond("Ready", "False", "Expired", "expired");
    ReservationJson unschedulable("r1", "Failed");
    unschedulable.cond("Scheduled", "False", "Unschedulable", "0/2 nodes are available: 2 Insufficient cpu.");
    ReservationJson bound("r1");
    bound.scheduled_on("n2").set("/status/phase", "Succeeded");
    std::vector<Case> cases = {
        {"Timeout with a Reservation",
         running_with_reservation().created(kT0 - 6 * kMinute).json(),
         {ReservationJson("r1").json()},
         "Timeout",
         "Abort job caused by timeout",
         {"delete Reservation /r1",
          "event PodMigrationJob /job-p Warning Timeout Migrating: Abort job caused by timeout"}},
        {"Timeout of a Pending job",
         JobJson("default", "p").created(kT0 - 5 * kMinute).json(),
         {},
         "Timeout",
         "Abort job caused by timeout",
         {}},
        {"Timeout of a job still waiting for arbitration",
         JobJson("default", "p").waiting().created(kT0 - 5 * kMinute).json(),
         {},
         "Timeout",
         "Abort job caused by timeout",
         {}},
        // docs/compatibility.md: the scheduler's reason is kept when the Reservation never fit.
        {"Timeout while the Reservation is unschedulable",
         running_with_reservation()
             .cond("ReservationScheduled", "False", "Unschedulable", "0/2 nodes are available.")
             .created(kT0 - 6 * kMinute)
             .json(),
         {ReservationJson("r1").json()},
         "Unschedulable",
         "Abort job caused by timeout: the Reservation is unschedulable: 0/2 nodes are available.",
         {"delete Reservation /r1"}},
        {"InvalidPodRef",
         JobJson("", "p").json(),
         {},
         "InvalidPodRef",
         "Abort job caused by invalid podRef: namespace and name are required",
         {}},
        {"MissingPod while Pending",
         JobJson("default", "gone").name("job-p").json(),
         {},
         "MissingPod",
         "Abort job caused by missing Pod \"default/gone\"",
         {}},
        {"MissingPod before the eviction (EvictDirectly)",
         JobJson("default", "p").mode("EvictDirectly").phase("Running").pod_uid("uid-pod-default-p").json(),
         {},
         "MissingPod",
         "Abort job caused by missing Pod \"default/p\"",
         {},
         pods([](SnapshotBuilder&) {})},
        {"MissingPod: another pod under the same name after the eviction started",
         JobJson("default", "p")
             .mode("EvictDirectly")
             .phase("Running")
             .pod_uid("uid-old")
             .cond("Eviction", "False", "Evicting")
             .status_text("Other")
             .json(),
         {},
         "MissingPod",
         "Abort job caused by missing Pod \"default/p\"",
         {}},
        {"ReservationExpired",
         running_with_reservation().json(),
         {expired.json()},
         "ReservationExpired",
         "Reservation expired",
         {}},
        {"Unschedulable",
         running_with_reservation().json(),
         {unschedulable.json()},
         "Unschedulable",
         "0/2 nodes are available: 2 Insufficient cpu.",
         {"Warning Unschedulable Migrating: 0/2 nodes are available: 2 Insufficient cpu."}},
        {"ForbiddenMigratePod: the Reservation landed on the pod's node",
         running_with_reservation().json(),
         {ReservationJson("r1").scheduled_on("n1").json()},
         "ForbiddenMigratePod",
         "Scheduler assignes the Reservation \"r1\" on the same node \"n1\" as the Pod \"default/p\"",
         {}},
        {"ForbiddenMigratePod: the Reservation is already bound",
         running_with_reservation().json(),
         {bound.json()},
         "ForbiddenMigratePod",
         "Reservation is already bound by another Pod",
         {}},
        {"MissingReservation once it was seen",
         running_with_reservation().json(),
         {},
         "MissingReservation",
         "Abort job caused by missing Reservation \"r1\"",
         {}},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            World w("{}", false);
            c.pods(w.b);
            w.tick(kT0, {c.job}, c.reservations);
            auto job = last_job_update(w.host, "job-p");
            CHECK(str(job, "/status/phase") == "Failed");
            CHECK(str(job, "/status/reason") == c.reason);
            CHECK(str(job, "/status/message") == c.message);
            for (const auto& fragment : c.writes) CHECK(contains(w.host.writes(), fragment));
            CHECK(contains(lines(w.host, "event "),
                           "PodMigrationJob /job-p Warning " + c.reason + " Migrating: " + c.message));
            CHECK(w.host.cluster_evictions().empty());
        }
    }
}

TEST_CASE("reconcile: a Timeout whose Reservation cannot be deleted is retried", "[reconcile]") {
    World w;
    w.host.on_write = [](const std::string& what) {
        return what.rfind("delete Reservation", 0) == 0 ? std::string("forbidden") : std::string();
    };
    std::string job = running_with_reservation().created(kT0 - 6 * kMinute).json();
    CHECK(w.tick(kT0, {job}) == kT0 + 1000);
    CHECK(job_updates(w.host).empty());
    CHECK(contains(w.host.logs(), "deleting Reservation \"r1\": forbidden"));
    w.host.on_write = [](const std::string&) { return std::string(); };
    w.tick(kT0 + 1000, {job});
    CHECK(str(last_job_update(w.host, "job-p"), "/status/reason") == "Timeout");
}

TEST_CASE("reconcile: waiting states requeue after 3 s", "[reconcile]") {
    struct Case {
        const char* name;
        std::string job;
        std::vector<std::string> reservations;
        bool updated;  // the job changed (so the hook asks to run again at once)
        std::function<void(const FakeHost&)> check;
    };
    ReservationJson unlabelled("r1");
    unlabelled.erase(kOrderLabel);
    ReservationJson pending_unschedulable("r1", "Pending");
    pending_unschedulable.cond("Scheduled", "False", "Unschedulable", "0/2 nodes are available.");
    JobJson not_seen("default", "p");
    not_seen.phase("Running").pod_uid("uid-pod-default-p").reservation("r1");
    std::vector<Case> cases = {
        {"Reservation pending, already seen",
         running_with_reservation().json(),
         {ReservationJson("r1").json()},
         false,
         [](const FakeHost& h) { CHECK(h.writes().empty()); }},
        {"Reservation pending, seen the first time",
         not_seen.json(),
         {ReservationJson("r1").json()},
         true,
         [](const FakeHost& h) {
             auto job = last_job_update(h, "job-p");
             auto c = condition(job, "ReservationCreated");
             REQUIRE(c);
             CHECK(c->status == "True");
             CHECK(str(job, "/status/status") == "ReservationCreated");
             CHECK(str(job, "/status/conditions/0/lastTransitionTime") == kd::format_rfc3339(kT0));
             CHECK(str(job, "/status/phase") == "Running");
         }},
        {"Reservation not listed yet",
         not_seen.json(),
         {},
         false,
         [](const FakeHost& h) { CHECK(h.writes().empty()); }},
        {"Reservation without the order label gets it",
         running_with_reservation().json(),
         {unlabelled.json()},
         false,
         [](const FakeHost& h) {
             auto r = objects_written(h, "update", "Reservation", "r1");
             REQUIRE(r.size() == 1);
             CHECK(str(r[0], kOrderLabel) == std::to_string(kT0));
         }},
        {"Reservation pending and unschedulable",
         running_with_reservation().json(),
         {pending_unschedulable.json()},
         true,
         [](const FakeHost& h) {
             auto job = last_job_update(h, "job-p");
             CHECK(str(job, "/status/phase") == "Running");
             auto c = condition(job, "ReservationScheduled");
             REQUIRE(c);
             CHECK(c->status == "False");
             CHECK(c->reason == "Unschedulable");
             CHECK(c->message == "0/2 nodes are available.");
             CHECK(str(job, "/status/reason") == "Unschedulable");
             CHECK(contains(lines(h, "event "),
                            "PodMigrationJob /job-p Warning Unschedulable Migrating: 0/2 nodes are available."));
         }},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            World w;
            int64_t next = w.tick(kT0, {c.job}, c.reservations);
            CHECK(next == (c.updated ? kT0 : kT0 + 3000));
            CHECK(job_updates(w.host).empty() == !c.updated);
            c.check(w.host);
            CHECK(w.host.cluster_evictions().empty());
            // Within the 3 s the job is not looked at again.
            w.host.clear();
            CHECK(w.tick(kT0 + 2999, {c.job}, c.reservations) == kT0 + 3000);
            CHECK(w.host.writes().empty());
        }
    }
}

TEST_CASE("reconcile: a failed Reservation create sets ReservationCreated False", "[reconcile]") {
    World w;
    w.host.on_write = [](const std::string& what) {
        return what.rfind("create ", 0) == 0 ? std::string("quota exceeded") : std::string();
    };
    CHECK(w.tick(kT0, {JobJson("default", "p").json()}) == kT0);
    auto job = last_job_update(w.host, "job-p");
    CHECK(str(job, "/status/phase") == "Running");
    auto c = condition(job, "ReservationCreated");
    REQUIRE(c);
    CHECK(c->status == "False");
    CHECK(c->reason == "FailedCreateReservation");
    CHECK(c->message == "quota exceeded");
    CHECK_FALSE(has(job, "/spec/reservationOptions/reservationRef"));
    CHECK(contains(lines(w.host, "event "), "Warning FailedCreateReservation Migrating: quota exceeded"));
}

TEST_CASE("reconcile: paused and finished jobs are left alone", "[reconcile]") {
    for (auto phase : {"Succeeded", "Failed", "Aborted"}) {
        World w;
        w.tick(kT0, {JobJson("default", "p").phase(phase).json()});
        CHECK(w.host.writes().empty());
    }
    World w;
    // Paused even past its ttl.
    w.tick(kT0, {JobJson("default", "p").paused().created(kT0 - 6 * kMinute).json()});
    CHECK(w.host.writes().empty());
}

TEST_CASE("reconcile: the whole ReservationFirst workflow to Succeeded", "[reconcile]") {
    World w;
    int64_t now = kT0;
    std::string job = JobJson("default", "p").json();

    // 1. Pending → Running, Reservation created.
    w.tick(now, {job});
    job = to_json(last_job_update(w.host, "job-p"));
    ReservationJson r("uid-job-p");  // what the cluster stores, still pending
    CHECK(str(parse(job), "/status/phase") == "Running");

    // 2. The Reservation is listed, pending: ReservationCreated True.
    w.host.clear();
    now += 3000;
    w.tick(now, {job}, {r.json()});
    job = to_json(last_job_update(w.host, "job-p"));
    CHECK(condition(parse(job), "ReservationCreated")->status == "True");

    // 3. Scheduled on n2: ReservationScheduled True, nodeName n2, the pod evicted.
    w.host.clear();
    now += 3000;
    r.scheduled_on("n2");
    CHECK(w.tick(now, {job}, {r.json()}) == now);
    job = to_json(last_job_update(w.host, "job-p"));
    {
        auto j = parse(job);
        CHECK(str(j, "/status/nodeName") == "n2");
        CHECK(condition(j, "ReservationScheduled")->status == "True");
        auto e = condition(j, "Eviction");
        REQUIRE(e);
        CHECK(e->status == "False");
        CHECK(e->reason == "Evicting");
        CHECK(e->message == "Pod \"default/p\" evicted from node \"n1\" by the reason \"NotSet\"");
        CHECK(str(j, "/status/status") == "Eviction");
        CHECK(str(j, "/status/phase") == "Running");
    }
    REQUIRE(w.host.cluster_evictions().size() == 1);
    CHECK(w.host.cluster_evictions()[0].pod == "default/p");
    CHECK(contains(lines(w.host, "event "),
                   "Normal ReservationScheduled Migrating: Assign Reservation \"uid-job-p\" "
                   "to node \"n2\""));

    // 4. Still there 3 s later: waiting for it to go, no second eviction.
    w.host.clear();
    now += 3000;
    CHECK(w.tick(now, {job}, {r.json()}) == now + 3000);
    CHECK(w.host.writes().empty());
    CHECK(w.host.cluster_evictions().empty());

    // 5. The pod is gone: EvictComplete, then waiting for the replacement to bind.
    SnapshotBuilder& b = w.b;
    b = SnapshotBuilder();
    base_cluster(b);
    w.host.clear();
    now += 3000;
    CHECK(w.tick(now, {job}, {r.json()}) == now);
    job = to_json(last_job_update(w.host, "job-p"));
    {
        auto j = parse(job);
        auto e = condition(j, "Eviction");
        CHECK(e->status == "True");
        CHECK(e->reason == "EvictComplete");
        CHECK(e->message == "Pod \"default/p\" has been evicted");
        auto bind = condition(j, "PodBoundReservation");
        REQUIRE(bind);
        CHECK(bind->status == "False");
        CHECK(bind->reason == "WaitForPodBindReservation");
    }
    CHECK(contains(lines(w.host, "event "), "Normal EvictComplete Migrating: Pod \"default/p\" has been evicted"));

    // 6. The replacement binds but is not Ready yet.
    web_pod(b, "p-new", "n2").set_flag(KD_POD_READY, false);
    r.bound_to("default", "p-new", "uid-pod-default-p-new").set("/status/phase", "Succeeded");
    w.host.clear();
    now += 3000;
    w.tick(now, {job}, {r.json()});
    job = to_json(last_job_update(w.host, "job-p"));
    {
        auto j = parse(job);
        CHECK(condition(j, "ReservationBound")->status == "True");
        CHECK(str(j, "/status/podRef/name") == "p-new");
        CHECK(str(j, "/status/podRef/uid") == "uid-pod-default-p-new");
        auto ready = condition(j, "BoundPodReady");
        REQUIRE(ready);
        CHECK(ready->status == "False");
        CHECK(ready->reason == "WaitForBoundPodReady");
        CHECK(str(j, "/status/phase") == "Running");
    }

    // 7. Ready: Succeeded.
    b = SnapshotBuilder();
    base_cluster(b);
    web_pod(b, "p-new", "n2");
    w.host.clear();
    now += 3000;
    w.tick(now, {job}, {r.json()});
    auto done = last_job_update(w.host, "job-p");
    CHECK(str(done, "/status/phase") == "Succeeded");
    CHECK(str(done, "/status/status") == "Complete");
    CHECK(str(done, "/status/reason") == "");
    CHECK(str(done, "/status/message") == "Bind Pod \"default/p-new\" in Reservation \"uid-job-p\"");
    CHECK(condition(done, "BoundPodReady")->status == "True");
    CHECK(condition(done, "PodBoundReservation")->status == "True");
    CHECK(contains(lines(w.host, "event "),
                   "Normal Complete Migrating: Bind Pod \"default/p-new\" in Reservation \"uid-job-p\""));
    CHECK(w.host.cluster_evictions().empty());
}

TEST_CASE("reconcile: a bound pod that is already gone counts as ready", "[reconcile]") {
    World w("{}", false);
    JobJson job = running_with_reservation();
    job.node("n2")
        .cond("ReservationScheduled", "True")
        .cond("Eviction", "True", "EvictComplete")
        .status_text("Eviction");
    ReservationJson r("r1");
    r.scheduled_on("n2").bound_to("default", "p-new", "uid-new");
    w.tick(kT0, {job.json()}, {r.json()});
    auto done = last_job_update(w.host, "job-p");
    CHECK(str(done, "/status/phase") == "Succeeded");
    CHECK(str(done, "/status/message") == "Bind Pod \"default/p-new\" in Reservation \"r1\"");
}

TEST_CASE("reconcile: a pending pod's migration waits for the pod to be scheduled", "[reconcile]") {
    auto setup = [](World& w, bool scheduled) {
        auto& p = web_pod(w.b, "p", scheduled ? "n2" : "").in_phase(scheduled ? KD_POD_RUNNING : KD_POD_PENDING);
        if (scheduled)
            p.condition("PodScheduled", "True");
        else
            p.condition("PodScheduled", "False", "Unschedulable", "0/2 nodes are available.");
    };
    JobJson job = running_with_reservation();
    job.node("n2").cond("ReservationScheduled", "True");
    auto reservation = [](bool bound_elsewhere) {
        ReservationJson r("r1");
        r.scheduled_on("n2").set_json(
            "/spec/owners",
            R"([{"object":{"uid":"uid-pod-default-p","kind":"Pod","name":"p","namespace":"default"}}])");
        if (bound_elsewhere) r.bound_to("default", "q", "uid-q").set("/status/phase", "Succeeded");
        return r.json();
    };
    SECTION("scheduled: Succeeded") {
        World w("{}", false);
        setup(w, true);
        w.tick(kT0, {job.json()}, {reservation(false)});
        auto j = last_job_update(w.host, "job-p");
        CHECK(str(j, "/status/phase") == "Succeeded");
        CHECK(str(j, "/status/message") == "Assign Pod \"default/p\" to node \"n2\"");
        CHECK(condition(j, "PodScheduled")->status == "True");
        CHECK(w.host.cluster_evictions().empty());
    }
    SECTION("not scheduled yet: PodScheduled False with the pod's message") {
        World w("{}", false);
        setup(w, false);
        CHECK(w.tick(kT0, {job.json()}, {reservation(false)}) == kT0);
        auto j = last_job_update(w.host, "job-p");
        CHECK(str(j, "/status/phase") == "Running");
        auto c = condition(j, "PodScheduled");
        REQUIRE(c);
        CHECK(c->status == "False");
        CHECK(c->reason == "Unschedulable");
        CHECK(c->message == "0/2 nodes are available.");
    }
    SECTION("the Reservation went to another pod: ForbiddenMigratePod") {
        World w("{}", false);
        setup(w, false);
        w.tick(kT0, {job.json()}, {reservation(true)});
        auto j = last_job_update(w.host, "job-p");
        CHECK(str(j, "/status/phase") == "Failed");
        CHECK(str(j, "/status/reason") == "ForbiddenMigratePod");
        CHECK(str(j, "/status/message") == "Reservation is already bound by another Pod");
    }
    SECTION("the pod is gone: MissingPod") {
        World w("{}", false);
        w.tick(kT0, {job.json()}, {reservation(false)});
        CHECK(str(last_job_update(w.host, "job-p"), "/status/reason") == "MissingPod");
    }
}

TEST_CASE("reconcile: EvictDirectly evicts, then succeeds once the pod is gone", "[reconcile]") {
    World w;
    std::string job = JobJson("default", "p").mode("EvictDirectly").json();
    CHECK(w.tick(kT0, {job}) == kT0);
    auto j = last_job_update(w.host, "job-p");
    CHECK(job_write_verbs(w.host, "job-p") == std::vector<std::string>{"update", "status"});
    CHECK(str(j, "/status/phase") == "Running");
    CHECK(condition(j, "Eviction")->reason == "Evicting");
    CHECK(objects_written(w.host, "create", "Reservation").empty());
    REQUIRE(w.host.cluster_evictions().size() == 1);

    w.b = SnapshotBuilder();
    base_cluster(w.b);
    w.host.clear();
    w.tick(kT0 + 3000, {to_json(j)});
    auto done = last_job_update(w.host, "job-p");
    CHECK(str(done, "/status/phase") == "Succeeded");
    CHECK(str(done, "/status/status") == "Complete");
    CHECK(str(done, "/status/reason") == "");
    CHECK(str(done, "/status/message") == "Pod \"default/p\" has been evicted");
    CHECK(condition(done, "Eviction")->status == "True");
    CHECK(contains(lines(w.host, "event "),
                   "PodMigrationJob /job-p Normal Complete Migrating: Pod \"default/p\" has been "
                   "evicted"));
}

TEST_CASE("reconcile: an empty spec.mode follows defaultJobMode", "[reconcile]") {
    World w(R"({"defaultJobMode": "EvictDirectly"})");
    JobJson job("default", "p");
    job.erase("/spec/mode");
    w.tick(kT0, {job.json()});
    CHECK(w.host.cluster_evictions().size() == 1);
    CHECK(objects_written(w.host, "create", "Reservation").empty());
}

TEST_CASE("reconcile: a Timeout whose Reservation is gone already ends the job (found by the fault soak)",
          "[reconcile]") {
    World w;
    w.host.on_write = [](const std::string& what) {
        return what.rfind("delete Reservation", 0) == 0
                   ? kd::WriteResult(KD_WRITE_NOT_FOUND, R"(reservations.scheduling.koordinator.sh "r1" not found)")
                   : kd::WriteResult();
    };
    std::string job = running_with_reservation().created(kT0 - 6 * kMinute).json();
    w.tick(kT0, {job});
    CHECK(str(last_job_update(w.host, "job-p"), "/status/phase") == "Failed");
    CHECK(str(last_job_update(w.host, "job-p"), "/status/reason") == "Timeout");
    CHECK_FALSE(contains(w.host.logs(), "deleting Reservation"));
}

TEST_CASE("scavenger: deletes old jobs and their Reservations every minute", "[reconcile]") {
    struct Case {
        const char* name;
        std::string ttl;
        int64_t age_ms;
        bool deleted;
    };
    std::vector<Case> cases = {
        {"ttl 5m, older than 10m", "5m", 10 * kMinute + 1, true},
        {"ttl 5m, exactly 10m", "5m", 10 * kMinute, false},
        {"no ttl, older than 30m", "", 30 * kMinute + 1, true},
        {"no ttl, 29m", "", 29 * kMinute, false},
        {"ttl 1h, 40m", "1h", 40 * kMinute, false},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            World w;
            JobJson job("default", "p", kT0 - c.age_ms);
            job.phase("Succeeded").ttl(c.ttl).reservation("r-old");
            w.tick(kT0, {job.json()});
            if (c.deleted) {
                CHECK(lines(w.host, "delete ") ==
                      std::vector<std::string>{"Reservation /r-old", "PodMigrationJob /job-p"});
            } else {
                CHECK(lines(w.host, "delete ").empty());
            }
        }
    }
    SECTION("any phase and any instance; once a minute") {
        World w;
        JobJson a("default", "a", kT0 - 11 * kMinute), b("default", "b", kT0 - 11 * kMinute);
        a.phase("Failed");
        b.phase("Succeeded").created_by("another-instance");
        w.tick(kT0 - 1000, {});  // the first sweep
        w.host.clear();
        w.tick(kT0, {a.json(), b.json()});
        CHECK(lines(w.host, "delete ").empty());
        w.tick(kT0 + 59'000, {a.json(), b.json()});
        CHECK(lines(w.host, "delete ") == std::vector<std::string>{"PodMigrationJob /job-a", "PodMigrationJob /job-b"});
    }
    SECTION("a Reservation or a job already gone does not stop the sweep") {
        World w;
        w.host.on_write = [](const std::string& what) {
            return what.rfind("delete ", 0) == 0 ? kd::WriteResult(KD_WRITE_NOT_FOUND, "not found") : kd::WriteResult();
        };
        JobJson a("default", "a", kT0 - 11 * kMinute), b("default", "b", kT0 - 11 * kMinute);
        a.phase("Failed").reservation("r-a");
        b.phase("Failed").reservation("r-b");
        w.tick(kT0, {a.json(), b.json()});
        CHECK(lines(w.host, "delete ") == std::vector<std::string>{"Reservation /r-a", "PodMigrationJob /job-a",
                                                                   "Reservation /r-b", "PodMigrationJob /job-b"});
        CHECK_FALSE(contains(w.host.logs(), "scavenger"));
    }
    SECTION("a failed Reservation delete stops the sweep") {
        World w;
        w.host.on_write = [](const std::string& what) {
            return what == "delete Reservation /r-a" ? std::string("forbidden") : std::string();
        };
        JobJson a("default", "a", kT0 - 11 * kMinute), b("default", "b", kT0 - 11 * kMinute);
        a.phase("Failed").reservation("r-a");
        b.phase("Failed");
        w.tick(kT0, {a.json(), b.json()});
        CHECK(lines(w.host, "delete ") == std::vector<std::string>{"Reservation /r-a"});
        CHECK(contains(w.host.logs(), "scavenger stopped"));
    }
}

TEST_CASE("release: a job that ended leaves no Reservation holding capacity (found by the fault soak)", "[reconcile]") {
    SECTION("the job fails in this tick: its Available Reservation is deleted after the job's write") {
        // The pod is gone and no eviction was recorded (a leader killed between its eviction and
        // the job's write): MissingPod, and the Reservation it never used goes.
        World w("{}", false);
        w.tick(kT0, {running_with_reservation().json()}, {ReservationJson("r1").scheduled_on("n2").json()});
        CHECK(str(last_job_update(w.host, "job-p"), "/status/reason") == "MissingPod");
        CHECK(lines(w.host, "delete ") == std::vector<std::string>{"Reservation /r1"});
        CHECK(contains(w.host.logs(),
                       "released Reservation \"r1\" (Available) of PodMigrationJob \"job-p\", which ended Failed"));
    }
    struct Case {
        const char* name;
        std::string job_phase, created_by;
        ReservationJson reservation;
        bool deleted;
    };
    std::vector<Case> cases = {
        {"Failed, Reservation Available", "Failed", kInstance, ReservationJson("r1").scheduled_on("n2"), true},
        {"Failed, Reservation Pending", "Failed", kInstance, ReservationJson("r1"), true},
        {"Failed, Reservation with no status yet", "Failed", kInstance, ReservationJson("r1", ""), true},
        {"Succeeded, Reservation Available, no pod bound (a pending pod scheduled elsewhere)", "Succeeded", kInstance,
         ReservationJson("r1").scheduled_on("n2"), true},
        {"a job made by hand (no creator)", "Failed", "", ReservationJson("r1").scheduled_on("n2"), true},
        {"Reservation Succeeded (consumed)", "Failed", kInstance, ReservationJson("r1", "Succeeded"), false},
        {"Reservation Failed (expired)", "Failed", kInstance, ReservationJson("r1", "Failed"), false},
        {"a pod is bound to it", "Succeeded", kInstance,
         ReservationJson("r1").scheduled_on("n2").bound_to("default", "p2", "uid-p2"), false},
        {"the job still runs", "Running", kInstance, ReservationJson("r1").scheduled_on("n2"), false},
        {"another instance's job", "Failed", "another-instance", ReservationJson("r1").scheduled_on("n2"), false},
    };
    for (auto& c : cases) {
        SECTION(c.name) {
            World w;
            JobJson job = running_with_reservation();
            job.phase(c.job_phase);
            if (c.created_by.empty())
                job.no_annotation("koordinator.sh/job-created-by");
            else
                job.created_by(c.created_by);
            w.tick(kT0, {job.json()}, {c.reservation.json()});
            bool deleted = contains(lines(w.host, "delete "), "Reservation /r1");
            CHECK(deleted == c.deleted);
        }
    }
    SECTION("gone already: nothing said; a refused delete is warned and tried again") {
        World w;
        JobJson job = running_with_reservation();
        job.phase("Failed");
        const std::string r1 = ReservationJson("r1").scheduled_on("n2").json();
        w.host.on_write = [](const std::string& what) {
            return what == "delete Reservation /r1" ? kd::WriteResult(KD_WRITE_NOT_FOUND, "not found")
                                                    : kd::WriteResult();
        };
        w.tick(kT0, {job.json()}, {r1});
        CHECK_FALSE(contains(w.host.logs(), "Reservation \"r1\""));
        w.host.clear();
        w.host.on_write = [](const std::string& what) {
            return what == "delete Reservation /r1" ? std::string("reservations \"r1\" is forbidden") : std::string();
        };
        w.tick(kT0 + 1000, {job.json()}, {r1});
        CHECK(contains(w.host.logs(),
                       "Reservation \"r1\": releasing it for ended PodMigrationJob \"job-p\": "
                       "reservations \"r1\" is forbidden"));
        w.host.clear();
        w.host.on_write = check_against_crds;
        w.tick(kT0 + 2000, {job.json()}, {r1});
        CHECK(lines(w.host, "delete ") == std::vector<std::string>{"Reservation /r1"});
    }
}

TEST_CASE("reconcile: a new pod under the same name after the eviction completes the eviction", "[reconcile]") {
    World w;  // default/p now has uid-pod-default-p
    JobJson job = JobJson("default", "p").mode("EvictDirectly").phase("Running").pod_uid("uid-old");
    job.cond("Eviction", "False", "Evicting").status_text("Eviction");
    w.tick(kT0, {job.json()});
    auto done = last_job_update(w.host, "job-p");
    CHECK(str(done, "/status/phase") == "Succeeded");
    CHECK(str(done, "/status/message") == "Pod \"default/p\" has been evicted");
    CHECK(condition(done, "Eviction")->reason == "EvictComplete");
    CHECK(w.host.cluster_evictions().empty());
}

TEST_CASE("reconcile: a conflict on the job's update is reconciled again from the job as it is now",
          "[reconcile][conflict]") {
    World w;
    auto is = [](const std::string& what, const char* verb, const char* kind) {
        return what.rfind(verb, 0) == 0 && what.find(std::string("\"kind\":\"") + kind + "\"") != std::string::npos;
    };
    // Someone else wrote the job after this tick's snapshot was taken: its update is refused.
    w.host.on_write = [&](const std::string& what) -> kd::WriteResult {
        if (is(what, "update ", "PodMigrationJob"))
            return {KD_WRITE_CONFLICT,
                    "Operation cannot be fulfilled on podmigrationjobs.scheduling.koordinator.sh \"job-p\": the object "
                    "has been modified; please apply your changes to the latest version and try again"};
        return check_against_crds(what);
    };
    CHECK(w.tick(kT0, {JobJson("default", "p").json()}) == kT0);  // again at once, from the fresh job
    CHECK(objects_written(w.host, "create", "Reservation").size() == 1);
    CHECK(job_write_verbs(w.host, "job-p") == std::vector<std::string>{"update"});  // no status after the refusal
    CHECK(contains(w.host.logs(), "PodMigrationJob \"job-p\" changed meanwhile"));
    CHECK_FALSE(contains(w.host.logs(), "update failed"));

    // The next tick lists the job as the other writer left it, at its new resourceVersion; the
    // Reservation made in the first tick exists already and is taken up, without a second event.
    w.host.clear();
    w.host.on_write = [&](const std::string& what) -> kd::WriteResult {
        if (is(what, "create ", "Reservation"))
            return {KD_WRITE_EXISTS, "reservations.scheduling.koordinator.sh \"uid-job-p\" already exists"};
        return check_against_crds(what);
    };
    JobJson edited("default", "p");
    edited.set("/metadata/resourceVersion", "7").set("/metadata/labels/team", "shop");
    CHECK(w.tick(kT0 + 1, {edited.json()}) == kT0 + 1);
    REQUIRE(job_write_verbs(w.host, "job-p") == std::vector<std::string>{"update", "status"});
    auto updates = job_updates(w.host, "job-p");
    CHECK(str(updates[0], "/metadata/resourceVersion") == "7");
    CHECK(str(updates[0], "/metadata/labels/team") == "shop");  // the other writer's change survives
    CHECK(str(updates[0], "/spec/reservationOptions/reservationRef/name") == "uid-job-p");
    CHECK(str(updates[1], "/status/phase") == "Running");
    CHECK_FALSE(contains(lines(w.host, "event "), "ReservationCreated"));
}

TEST_CASE("reconcile: a job update the server refuses is tried again next cycle, and said once per cycle",
          "[reconcile][refused]") {
    World w;
    auto is_job_write = [](const std::string& what) {
        return (what.rfind("update ", 0) == 0 || what.rfind("status ", 0) == 0) &&
               what.find(R"("kind":"PodMigrationJob")") != std::string::npos;
    };
    w.host.on_write = [&](const std::string& what) -> kd::WriteResult {
        if (is_job_write(what))
            return {KD_WRITE_INVALID,
                    "podmigrationjobs.scheduling.koordinator.sh \"job-p\" is invalid: spec.mode: Unsupported value"};
        return check_against_crds(what);
    };
    auto refusals = [&] {
        size_t n = 0;
        for (const auto& l : w.host.logs()) n += l.find("update refused") != std::string::npos;
        return n;
    };
    auto job_writes = [&] {
        size_t n = 0;
        for (const auto& what : w.host.writes()) n += is_job_write(what);
        return n;
    };
    w.host.cycle = 1;
    w.tick(kT0, {JobJson("default", "p").json()});
    CHECK(job_writes() == 1);
    CHECK(refusals() == 1);
    CHECK(contains(w.host.logs(),
                   "PodMigrationJob \"job-p\": update refused: podmigrationjobs.scheduling.koordinator.sh "
                   "\"job-p\" is invalid: spec.mode: Unsupported value; tried again next cycle"));
    // The ticks left in this cycle leave the job alone: no loop of refused writes.
    for (int i = 1; i <= 20; ++i) w.tick(kT0 + i * 100, {JobJson("default", "p").json()});
    CHECK(job_writes() == 1);
    CHECK(refusals() == 1);
    // The next cycle tries once more, and says so once more.
    w.host.cycle = 2;
    w.tick(kT0 + 10 * kSecond, {JobJson("default", "p").json()});
    w.tick(kT0 + 10 * kSecond + 100, {JobJson("default", "p").json()});
    CHECK(job_writes() == 2);
    CHECK(refusals() == 2);
}

TEST_CASE("reconcile: a step that keeps failing is said once per cycle, with how often it failed since",
          "[reconcile][refused]") {
    World w;
    w.host.on_evict_pod = [](const kd::Pod&) {
        return kd::WriteResult{KD_WRITE_TRANSIENT, "evicting pod default/p: HTTP 503 Service Unavailable"};
    };
    JobJson job("default", "p");
    job.mode("EvictDirectly").phase("Running").pod_uid("uid-pod-default-p");
    auto said = [&] {
        std::vector<std::string> out;
        for (const auto& l : w.host.logs())
            if (l.find("HTTP 503") != std::string::npos) out.push_back(l);
        return out;
    };
    w.host.cycle = 1;
    for (int i = 0; i < 5; ++i)
        w.tick(kT0 + i * kd::plugins::migrationcontroller::kErrorBackoffMs, {job.json()});  // after each backoff
    REQUIRE(said().size() == 1);
    w.host.cycle = 2;
    w.tick(kT0 + 10 * kSecond, {job.json()});
    REQUIRE(said().size() == 2);
    CHECK_THAT(said()[1], Catch::EndsWith("(and 4 more times since it was last said)"));
}
