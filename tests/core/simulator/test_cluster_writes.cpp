// Plugins write to the cluster through kd_host (create/update/delete objects, delete and
// annotate pods, events); the simulator back end checks each write when it is made and applies
// it between cycles.
#include "cluster/cluster_model.hpp"
#include "cluster/cluster_snapshot.hpp"
#include "cluster/decode/snapshot_files.hpp"
#include "config/configuration.hpp"
#include "loader/plugin_catalog.hpp"
#include "simulator/simulated_backend.hpp"
#include "simulator/simulation.hpp"

#include <kdesched/plugin.hpp>
#include <kdesched/view.hpp>

#include <catch2/catch.hpp>

using namespace kd::core;

namespace {

std::vector<std::string> g_errors;             // what the back end answered to the writes it refused
std::string g_jobs_seen, g_reservations_seen;  // list_objects in cycle 2

const char* kJob = R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"PodMigrationJob",
  "metadata":{"name":"move-web-1","annotations":{"koordinator.sh/evict-reason":"test"}},
  "spec":{"podRef":{"namespace":"shop","name":"web-1"},"mode":"ReservationFirst","ttl":"5m"},
  "status":{"phase":"Pending"}})";

const char* kReservation = R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation",
  "metadata":{"name":"for-web-1"},
  "spec":{"allocateOnce":true,"owners":[{"object":{"kind":"Pod","namespace":"shop","name":"web-1"}}],
    "template":{"metadata":{"namespace":"shop"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}],
      "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
        {"matchFields":[{"key":"metadata.name","operator":"NotIn","values":["n1"]}]}]}}}}}}})";

// Writes once, in the first cycle; evicts nothing itself.
class Writer {
public:
    static constexpr const char* kName = "Writer";
    static constexpr const char* kVersion = "1.0.0";
    Writer(kd::Host&, kd::NoArgs) {}
    void balance(kd::Cycle& c) {
        if (c.number() == 2) {
            g_jobs_seen = c.snapshot().list_objects("PodMigrationJob");
            g_reservations_seen = c.snapshot().list_objects("Reservation");
        }
        if (c.number() != 1) return;
        auto snap = c.snapshot();
        auto keep = [](std::string e) {
            if (!e.empty()) g_errors.push_back(std::move(e));
        };
        keep(c.create_object(kJob));
        keep(c.create_object(kReservation));
        keep(c.annotate_pod(*snap.find_pod("shop", "web-2"), "example.com/marked", "yes"));
        keep(c.delete_pod(*snap.find_pod("shop", "web-3"), "test"));
        c.record_event("PodMigrationJob", "", "move-web-1", "Normal", "ReservationCreated", "Migrating", "made it");
        // Refused at once, with the reason.
        keep(c.create_object(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","namespace":"shop"}})"));
        keep(c.update_object(R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation",
                                 "metadata":{"name":"never-created"},"spec":{"template":{}}})"));
        keep(c.create_object("{not json"));
    }
    kd::EvictOutcome evict(kd::Cycle&, const kd::Pod&, const kd::EvictRequest&) { return kd::EvictOutcome::accepted(); }
};

void add_node(ClusterModel& m, const char* name) {
    NodeDraft n;
    n.meta.uid = name;
    n.meta.name = name;
    n.allocatable = {{"cpu", 4000}, {"memory", 8LL << 40}};
    m.on_node(n);
}

void add_pod(ClusterModel& m, const char* name) {
    PodDraft d;
    d.meta.uid = name;
    d.meta.ns = "shop";
    d.meta.name = name;
    d.meta.owners.push_back({"apps/v1", "ReplicaSet", "web-rs", "rs-uid", true});
    d.bound.node_name = kd::to_kd("n1");
    d.phase = "Running";
    d.containers.push_back({{{"cpu", 500}}, {}});
    d.conditions.push_back({"Ready", "True", "", "", std::nullopt});
    m.on_pod(d);
}

}  // namespace

TEST_CASE("plugin writes reach the simulated cluster between cycles — bad writes are refused at once", "[writes]") {
    g_errors.clear();
    ClusterModel m;
    for (const char* n : {"n1", "n2", "n3"}) add_node(m, n);
    for (const char* p : {"web-1", "web-2", "web-3"}) add_pod(m, p);
    PluginCatalog catalog;
    catalog.add_in_process(kd::module<Writer>("writes-test"));
    auto config = parse_configuration(R"(apiVersion: descheduler/v1alpha2
kind: DeschedulerConfiguration
profiles:
- name: p
  plugins:
    balance: {enabled: [{name: Writer}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: Writer}]}
    filter: {disabled: [{name: "*"}]}
)",
                                      "writes.yaml");
    SimulationReport report = simulate(config, catalog, m, {2, false, {}, {}});

    REQUIRE(g_errors.size() == 3);
    CHECK(g_errors[0] == "kdesched writes PodMigrationJob and Reservation objects, not Pod");
    CHECK(g_errors[1] == "reservations.scheduling.koordinator.sh \"never-created\" not found");
    CHECK_THAT(g_errors[2], Catch::Contains("<object written by Writer>.json:1:2: invalid JSON"));

    // The job exists from the next cycle on, with a UID and creation time given by the "API server".
    REQUIRE(m.migration_jobs().size() == 1);
    const PodMigrationJob& job = m.migration_jobs().begin()->second;
    CHECK(job.name == "move-web-1");
    CHECK(job.uid == "sim-pmj-1");
    CHECK(job.creation_ms == report.cycles[0].time_ms);
    CHECK(job.pod_ref.name == "web-1");
    CHECK(job.annotations.at("koordinator.sh/evict-reason") == "test");
    REQUIRE(report.cycles[1].migration_jobs.size() == 1);
    CHECK(report.cycles[1].migration_jobs[0].pod == "shop/web-1");

    // The Reservation was scheduled at the start of cycle 2, away from the pod's node.
    const Reservation* r = m.reservation_by_name("for-web-1");
    REQUIRE(r);
    CHECK(r->phase == "Available");
    CHECK(r->node_name != "n1");
    CHECK_FALSE(r->node_name.empty());

    // Annotation set on web-2, which otherwise did not change; web-3 deleted and recreated.
    kd::Pod web2(m.pod_by_name("shop", "web-2"));
    CHECK(web2.annotations().get("example.com/marked") == "yes");
    CHECK(web2.node_name() == "n1");
    CHECK(web2.uid() == "web-2");
    CHECK(m.pod_by_name("shop", "web-3") == nullptr);
    REQUIRE(report.cycles[0].moves.size() == 1);
    CHECK(report.cycles[0].moves[0].pod == "shop/web-3");

    // Plugins read them back as JSON in their wire form; the JSON decodes to the same objects.
    // The object as written, with what the server gives a created object; the TTL as spelled.
    CHECK(g_jobs_seen ==
          R"([{"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"PodMigrationJob",)"
          R"("metadata":{"name":"move-web-1","annotations":{"koordinator.sh/evict-reason":"test"},)"
          R"("resourceVersion":"1","uid":"sim-pmj-1","creationTimestamp":"2026-01-01T00:00:00Z"},)"
          R"("spec":{"podRef":{"namespace":"shop","name":"web-1"},"mode":"ReservationFirst","ttl":"5m"}}])");
    CHECK_THAT(g_reservations_seen, Catch::Contains(R"("status":{"phase":"Available","nodeName":")"));
    CHECK_THAT(g_reservations_seen, Catch::Contains(R"("type":"Scheduled","status":"True")"));
    ClusterModel again;
    load_cluster_text(R"({"apiVersion":"v1","kind":"List","items":)" + g_jobs_seen + "}", "round-trip.json", again);
    REQUIRE(again.migration_jobs().size() == 1);
    const PodMigrationJob& back = again.migration_jobs().begin()->second;
    CHECK(back.uid == job.uid);
    CHECK(back.creation_ms == job.creation_ms);
    CHECK(back.pod_ref == job.pod_ref);
    CHECK(back.ttl == job.ttl);
    CHECK(back.annotations == job.annotations);
    CHECK(kd::Snapshot(&ClusterSnapshot(m, 0).raw()).list_objects("Service") == "[]");

    REQUIRE(report.cycles[0].events.size() == 1);
    const EventReport& e = report.cycles[0].events[0];
    CHECK(e.kind == "PodMigrationJob");
    CHECK(e.name == "move-web-1");
    CHECK(e.type == "Normal");
    CHECK(e.reason == "ReservationCreated");
    CHECK(e.action == "Migrating");
    CHECK(e.message == "made it");
    CHECK(e.plugin == "Writer");
}

TEST_CASE("host services read Secrets from the snapshot's Secret objects", "[writes][secrets]") {
    kd::core::ClusterModel model;
    kd::core::load_cluster_text(
        R"({"apiVersion":"v1","kind":"Secret","metadata":{"namespace":"jobs","name":"pod-picker","uid":"s1"},)"
        R"("data":{"token":"ZGVtby10b2tlbg=="}})",
        "secret.json", model);
    kd::core::SimulatedBackend backend(model);
    std::map<std::string, std::string> data;
    CHECK(backend.read_secret("jobs", "pod-picker", data) == "");
    CHECK(data == std::map<std::string, std::string>{{"token", "ZGVtby10b2tlbg=="}});  // base64, as stored
    CHECK(backend.read_secret("jobs", "missing", data) ==
          "Secret jobs/missing is not in the cluster snapshot (add it to a --cluster file)");
}

namespace {

// What each write of Versions answered, in order: the code's name and the message.
std::vector<std::pair<std::string, std::string>> g_answers;
std::string g_after;  // the job as cycle 2 lists it

const char* kVersionedJob = R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"PodMigrationJob",
  "metadata":{"name":"j"%s},"spec":{"podRef":{"namespace":"shop","name":"web-1"}%s},"status":{"phase":"%s"}})";

std::string job_json(const std::string& rv, bool paused, const std::string& phase) {
    char buf[512];
    std::snprintf(buf, sizeof buf, kVersionedJob, rv.empty() ? "" : (",\"resourceVersion\":\"" + rv + "\"").c_str(),
                  paused ? ",\"paused\":true" : "", phase.c_str());
    return buf;
}

// Writes one PodMigrationJob the way a controller must against an API server.
class Versions {
public:
    static constexpr const char* kName = "Versions";
    static constexpr const char* kVersion = "1.0.0";
    Versions(kd::Host&, kd::NoArgs) {}
    void balance(kd::Cycle& c) {
        if (c.number() == 2) g_after = c.snapshot().list_objects("PodMigrationJob");
        if (c.number() != 1) return;
        auto keep = [](const kd::WriteResult& r) {
            g_answers.emplace_back(kd::write_code_name(r.code), r.message);
            return r.resource_version;
        };
        std::string v1 = keep(c.create_object(job_json("", false, "Running")));  // status ignored
        keep(c.create_object(job_json("", false, "Pending")));
        std::string v2 = keep(c.update_object(job_json(v1, true, "Failed")));  // spec only
        keep(c.update_object(job_json(v1, false, "Pending")));                 // stale
        keep(c.update_object(job_json("", false, "Pending")));                 // no resourceVersion
        keep(c.update_object_status(job_json(v2, false, "Running")));          // status only
        keep(c.delete_object("Reservation", "", "nope"));
        keep(c.update_object(R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation",
                                 "metadata":{"name":"never","resourceVersion":"1"},"spec":{"template":{}}})"));
    }
    kd::EvictOutcome evict(kd::Cycle&, const kd::Pod&, const kd::EvictRequest&) { return kd::EvictOutcome::accepted(); }
};

const char* kVersionsProfile = R"(apiVersion: descheduler/v1alpha2
kind: DeschedulerConfiguration
profiles:
- name: p
  plugins:
    balance: {enabled: [{name: Versions}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: Versions}]}
    filter: {disabled: [{name: "*"}]}
)";

}  // namespace

TEST_CASE("the simulated API server: resourceVersions, conflicts and the status subresource", "[writes][versions]") {
    g_answers.clear();
    ClusterModel m;
    for (const char* n : {"n1", "n2"}) add_node(m, n);
    add_pod(m, "web-1");
    PluginCatalog catalog;
    catalog.add_in_process(kd::module<Versions>("versions-test"));
    simulate(parse_configuration(kVersionsProfile, "versions.yaml"), catalog, m, {2, false, {}, {}});

    const std::string what = "podmigrationjobs.scheduling.koordinator.sh \"j\"";
    REQUIRE(g_answers.size() == 8);
    CHECK(g_answers[0] == std::pair<std::string, std::string>{"ok", ""});
    CHECK(g_answers[1] == std::pair<std::string, std::string>{"exists", what + " already exists"});
    CHECK(g_answers[2].first == "ok");
    CHECK(g_answers[3] == std::pair<std::string, std::string>{
                              "conflict", "Operation cannot be fulfilled on " + what +
                                              ": the object has been modified; please apply your changes to the latest "
                                              "version and try again"});
    CHECK(g_answers[4].first == "invalid");
    CHECK_THAT(g_answers[4].second, Catch::Contains("metadata.resourceVersion: Invalid value: 0: must be specified"));
    CHECK(g_answers[5].first == "ok");
    CHECK(g_answers[6] == std::pair<std::string, std::string>{
                              "not-found", "reservations.scheduling.koordinator.sh \"nope\" not found"});
    CHECK(g_answers[7] == std::pair<std::string, std::string>{
                              "not-found", "reservations.scheduling.koordinator.sh \"never\" not found"});

    // What is stored: the spec of the accepted update, the status of the status update only, at
    // the resourceVersion of the last accepted write.
    const PodMigrationJob* job = m.migration_job_by_name("j");
    REQUIRE(job);
    CHECK(job->paused);
    CHECK(job->phase == "Running");
    CHECK(job->resource_version == "3");  // create, update, status update
    CHECK_THAT(g_after, Catch::Contains(R"("paused":true)"));
    CHECK_THAT(g_after, Catch::Contains(R"("status":{"phase":"Running"})"));
    CHECK_THAT(g_after, Catch::Contains("\"resourceVersion\":\"" + job->resource_version + "\""));
}

TEST_CASE("a plugin built against API 1.1 still writes status with create and update", "[writes][versions]") {
    g_answers.clear();
    ClusterModel m;
    for (const char* n : {"n1", "n2"}) add_node(m, n);
    add_pod(m, "web-1");
    // The module as a 1.1 plugin would hand it over (same hooks; the host reads the version).
    static const kd_plugin_descriptor* const plugins[] = {kd::descriptor<Versions>()};
    static const kd_module legacy{sizeof(kd_module), {1, 1, 0}, "versions-1.1", plugins, 1};
    PluginCatalog catalog;
    catalog.add_in_process(&legacy);
    simulate(parse_configuration(kVersionsProfile, "versions.yaml"), catalog, m, {2, false, {}, {}});
    // Each accepted create and update was followed by a status write with the resourceVersion it
    // answered: create + status, update + status, then the status update.
    const PodMigrationJob* job = m.migration_job_by_name("j");
    REQUIRE(job);
    CHECK(job->paused);
    CHECK(job->phase == "Running");
    CHECK(job->resource_version == "5");
    CHECK(g_answers[3].first == "conflict");
}
