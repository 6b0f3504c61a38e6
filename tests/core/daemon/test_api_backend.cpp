// The daemon's ClusterBackend over the API (ApiBackend) against the test API server
// (testkit/fake_apiserver.py): what each write sends and what the server then holds — the
// Eviction API (a PodDisruptionBudget's 429 refused at once, a 404 as done), merge patches,
// PodMigrationJob / Reservation with the status subresource, conflicts re-read and written again
// only when the other half is unchanged, AlreadyExists; the gate and dry run sending nothing; and
// the mapping of HTTP answers to kd_write_code.
#include "closed_port.hpp"
#include "cluster/cluster_model.hpp"
#include "cluster/decode/snapshot_files.hpp"
#include "daemon/api_backend.hpp"
#include "fake_apiserver.hpp"
#include "json_at.hpp"
#include "text/json_writer.hpp"

#include <rapidjson/document.h>

#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace kd::core;
using kd_test::FakeApiServer;
using kd_test::string_at;

namespace {

const std::string kJobs = "/apis/scheduling.koordinator.sh/v1alpha1/podmigrationjobs";
const std::string kJob = kJobs + "/move-web-1";
const std::string kReservations = "/apis/scheduling.koordinator.sh/v1alpha1/reservations";

kube::ClientOptions client_options() {
    kube::ClientOptions c;
    c.qps = 0;
    c.backoff_base = std::chrono::milliseconds(10);
    c.backoff_cap = std::chrono::milliseconds(50);
    c.max_attempts = 3;
    c.timeout = std::chrono::seconds(5);
    return c;
}

std::string pod_json(const std::string& name) {
    return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name + R"(","namespace":"shop","uid":"uid-)" +
           name +
           R"("},"spec":{"nodeName":"n1","containers":[{"name":"c","resources":{"requests":{"cpu":"100m"}}}]},)"
           R"("status":{"phase":"Running"}})";
}

// A PodMigrationJob in its wire form; "" leaves out resourceVersion / status.
std::string job_json(const std::string& rv, const std::string& mode, const std::string& phase) {
    std::string out = R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"PodMigrationJob",)"
                      R"("metadata":{"name":"move-web-1")";
    if (!rv.empty()) out += R"(,"resourceVersion":")" + rv + R"(")";
    out += R"(},"spec":{"podRef":{"namespace":"shop","name":"web-1"},"mode":")" + mode + R"(","ttl":"5m"})";
    if (!phase.empty()) out += R"(,"status":{"phase":")" + phase + R"("})";
    return out + "}";
}

const char* kReservation = R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation",
  "metadata":{"name":"for-web-1"},
  "spec":{"allocateOnce":true,"owners":[{"object":{"kind":"Pod","namespace":"shop","name":"web-1"}}],
    "template":{"metadata":{"namespace":"shop"},"spec":{"containers":[{"name":"c"}]}}}})";

// A client, an event recorder and the back end on a test server, and a model holding the pods
// (loaded into the server too) to take kd_pod values from.
struct Fixture {
    FakeApiServer server;
    kube::ApiClient client;
    daemon::EventRecorder events;
    daemon::ApiBackend backend;
    ClusterModel model;
    // The PodMigrationJobs and Reservations the model holds, by "kind/name": what the back end
    // patches against (set by sees()).
    std::map<std::string, std::string> seen;

    explicit Fixture(kube::ClientOptions o = client_options())
        : client(connection_of(server), o), events(client, {}), backend(client, events) {
        backend.set_stored_objects([this](std::string_view kind, std::string_view name) {
            auto it = seen.find(std::string(kind) + "/" + std::string(name));
            return it == seen.end() ? std::string() : it->second;
        });
        const std::string pods = "[" + pod_json("web-1") + "," + pod_json("web-2") + "," + pod_json("web-3") + "]";
        server.load(pods);
        load_cluster_text(R"({"apiVersion":"v1","kind":"List","items":)" + pods + "}", "pods.json", model);
    }
    static kube::Connection connection_of(FakeApiServer& s) {
        kube::Connection c;
        c.server = s.url();
        return c;
    }
    const kd_pod& pod(const std::string& name) const {
        const kd_pod* p = model.pod_by_name("shop", name);
        if (!p) throw std::logic_error("no pod " + name);
        return *p;
    }
    void forget_requests() { server.control("DELETE", "requests"); }
};

// "<METHOD> <path> <code>" of each request under `prefix`.
std::vector<std::string> summary(FakeApiServer& s, const std::string& prefix = "") {
    std::vector<std::string> out;
    for (const auto& e : s.served(prefix)) out.push_back(e.method + " " + e.path + " " + std::to_string(e.code));
    return out;
}

// The stored object of `kind` named `name` (a Null document when there is none).
rapidjson::Document stored(FakeApiServer& s, const std::string& kind, const std::string& name) {
    rapidjson::Document all, out;
    all.Parse(s.control("GET", "objects?kind=" + kind).c_str());
    for (auto& item : all["items"].GetArray())
        if (std::string(item["metadata"]["name"].GetString()) == name) out.CopyFrom(item, out.GetAllocator());
    return out;
}

// The model receives the server's object as it is now, as the watch would deliver it.
void sees(Fixture& f, const std::string& kind, const std::string& name) {
    f.seen[kind + "/" + name] = json::text_of(stored(f.server, kind, name));
}

// Someone else's write (another controller) with a client of its own, on the job or (`subresource`
// "/status") its status.
void patch_job(Fixture& f, const std::string& merge_patch, const std::string& subresource = "") {
    kube::ClientOptions other = client_options();
    other.declared_only = false;
    kube::ApiClient client(Fixture::connection_of(f.server), other);
    auto r = client.call({"PATCH", kJob + subresource, {}, merge_patch, "application/merge-patch+json"});
    REQUIRE(r.code == 200);
}

}  // namespace

// --- pods ----------------------------------------------------------------------------------------

TEST_CASE("api backend: evict_pod sends a policy/v1 Eviction to pods/<name>/eviction — the pod is gone",
          "[daemon][api_backend]") {
    Fixture f;
    WriteResult r = f.backend.evict_pod(f.pod("web-1"), "node hot", "LowNodeLoad");
    INFO(r.message);
    REQUIRE(r.ok());
    auto evictions = f.server.served("/api/v1/namespaces/shop/pods/web-1/eviction");
    REQUIRE(evictions.size() == 1);
    CHECK(evictions[0].method == "POST");
    CHECK(evictions[0].code == 201);
    CHECK(evictions[0].content_type == "application/json");
    const auto& b = evictions[0].body;
    CHECK(string_at(b, "apiVersion") == "policy/v1");
    CHECK(string_at(b, "kind") == "Eviction");
    CHECK(string_at(b, "metadata", "name") == "web-1");
    CHECK(string_at(b, "metadata", "namespace") == "shop");
    CHECK(stored(f.server, "Pod", "web-1").IsNull());
    CHECK(stored(f.server, "Pod", "web-2").IsObject());

    // The Eviction version is asked once.
    REQUIRE(f.backend.evict_pod(f.pod("web-2"), "", "LowNodeLoad").ok());
    CHECK(summary(f.server, "/apis/policy/") == std::vector<std::string>{"GET /apis/policy/v1 200"});
    CHECK(stored(f.server, "Pod", "web-2").IsNull());
    CHECK(b.FindMember("deleteOptions") == b.MemberEnd());  // no grace period of its own: the pod's
}

TEST_CASE("api backend: a DeschedulerPolicy's gracePeriodSeconds goes with every Eviction", "[daemon][api_backend]") {
    Fixture f;
    f.backend.set_eviction_grace_period(30);
    REQUIRE(f.backend.evict_pod(f.pod("web-1"), "too old", "PodLifeTime").ok());
    auto evictions = f.server.served("/api/v1/namespaces/shop/pods/web-1/eviction");
    REQUIRE(evictions.size() == 1);
    const auto& b = evictions[0].body;
    REQUIRE(b.HasMember("deleteOptions"));
    CHECK(b["deleteOptions"]["gracePeriodSeconds"].GetInt64() == 30);
    CHECK(string_at(b, "metadata", "name") == "web-1");
}

TEST_CASE("api backend: a server without policy/v1 gets a policy/v1beta1 Eviction", "[daemon][api_backend]") {
    Fixture f;
    f.server.settings(R"({"not_served":[{"group":"policy","resource":"poddisruptionbudgets"},
                                        {"group":"policy","resource":"pods/eviction"}]})");
    REQUIRE(f.backend.evict_pod(f.pod("web-1"), "", "LowNodeLoad").ok());
    auto evictions = f.server.served("/api/v1/namespaces/shop/pods/web-1/eviction");
    REQUIRE(evictions.size() == 1);
    CHECK(string_at(evictions[0].body, "apiVersion") == "policy/v1beta1");
}

TEST_CASE("api backend: a PodDisruptionBudget's 429 is KD_WRITE_REFUSED with the server's message, not retried",
          "[daemon][api_backend]") {
    Fixture f;
    f.server.settings(R"({"pdb_protected":[{"namespace":"shop","name":"web-1"}]})");
    WriteResult r = f.backend.evict_pod(f.pod("web-1"), "node hot", "LowNodeLoad");
    CHECK(r.code == KD_WRITE_REFUSED);
    CHECK_THAT(r.message, Catch::Contains("Cannot evict pod as it would violate the pod's disruption budget."));
    CHECK_THAT(r.message, Catch::Contains("shop/web-1"));
    CHECK_THAT(r.message, Catch::Contains("429"));
    CHECK(summary(f.server, "/api/v1/") ==
          std::vector<std::string>{"POST /api/v1/namespaces/shop/pods/web-1/eviction 429"});
    CHECK(stored(f.server, "Pod", "web-1").IsObject());
}

TEST_CASE("api backend: evicting a pod that is already gone (404) succeeds", "[daemon][api_backend]") {
    Fixture f;
    f.server.remove(R"([{"apiVersion":"v1","kind":"Pod","namespace":"shop","name":"web-1"}])");
    WriteResult r = f.backend.evict_pod(f.pod("web-1"), "", "LowNodeLoad");
    CHECK(r.ok());
    CHECK(r.message.empty());
    CHECK(summary(f.server, "/api/v1/") ==
          std::vector<std::string>{"POST /api/v1/namespaces/shop/pods/web-1/eviction 404"});
}

TEST_CASE("api backend: an eviction answered 500 is retried, then KD_WRITE_TRANSIENT", "[daemon][api_backend]") {
    Fixture f;
    f.server.faults(
        R"([{"method":"POST","path":"/api/v1/namespaces/shop/pods/web-1/eviction","times":0,"action":{"type":"status","code":500}}])");
    WriteResult r = f.backend.evict_pod(f.pod("web-1"), "", "LowNodeLoad");
    CHECK(r.code == KD_WRITE_TRANSIENT);
    CHECK(f.server.served("/api/v1/namespaces/shop/pods/web-1/eviction").size() == 3);  // max_attempts
    CHECK(stored(f.server, "Pod", "web-1").IsObject());
}

TEST_CASE("api backend: annotate_pod is a merge patch of one annotation — delete_pod deletes (404: done)",
          "[daemon][api_backend]") {
    Fixture f;
    WriteResult r = f.backend.annotate_pod(f.pod("web-2"), "example.com/marked", "yes", "P");
    INFO(r.message);
    REQUIRE(r.ok());
    auto patches = f.server.served("/api/v1/namespaces/shop/pods/web-2");
    REQUIRE(patches.size() == 1);
    CHECK(patches[0].method == "PATCH");
    CHECK(patches[0].content_type == "application/merge-patch+json");
    CHECK(string_at(patches[0].body, "metadata", "annotations") == "<not a string>");
    CHECK(patches[0].body["metadata"]["annotations"].MemberCount() == 1);
    CHECK(string_at(patches[0].body["metadata"], "annotations", "example.com/marked") == "yes");
    auto pod = stored(f.server, "Pod", "web-2");
    CHECK(string_at(pod, "metadata", "annotations") == "<not a string>");
    CHECK(string_at(pod["metadata"], "annotations", "example.com/marked") == "yes");
    CHECK(string_at(pod, "spec", "nodeName") == "n1");  // the rest untouched

    REQUIRE(f.backend.delete_pod(f.pod("web-3"), "", "P").ok());
    CHECK(stored(f.server, "Pod", "web-3").IsNull());
    CHECK(f.backend.delete_pod(f.pod("web-3"), "", "P").ok());  // gone already
    CHECK(summary(f.server, "/api/v1/namespaces/shop/pods/web-3") ==
          std::vector<std::string>{"DELETE /api/v1/namespaces/shop/pods/web-3 200",
                                   "DELETE /api/v1/namespaces/shop/pods/web-3 404"});
    // Annotating a pod that is gone: not found.
    CHECK(f.backend.annotate_pod(f.pod("web-3"), "k", "v", "P").code == KD_WRITE_NOT_FOUND);
}

// --- PodMigrationJob / Reservation ---------------------------------------------------------------

TEST_CASE("api backend: create ignores status — update_status writes it on the status subresource — update keeps it",
          "[daemon][api_backend]") {
    Fixture f;
    WriteResult created = f.backend.create_object(job_json("", "ReservationFirst", "Pending"), "Migration");
    INFO(created.message);
    REQUIRE(created.ok());
    CHECK_FALSE(created.resource_version.empty());
    auto posts = f.server.served(kJobs);
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].method == "POST");
    CHECK(posts[0].path == kJobs);  // cluster-scoped: no namespace
    CHECK(posts[0].code == 201);
    auto job = stored(f.server, "PodMigrationJob", "move-web-1");
    REQUIRE(job.IsObject());
    CHECK_FALSE(job.HasMember("status"));  // the create's status was dropped by the server
    CHECK(string_at(job, "spec", "mode") == "ReservationFirst");
    CHECK(string_at(job, "metadata", "resourceVersion") == created.resource_version);

    f.forget_requests();
    WriteResult st = f.backend.update_status(job_json(created.resource_version, "ReservationFirst", "Running"), "M");
    INFO(st.message);
    REQUIRE(st.ok());
    CHECK(st.resource_version != created.resource_version);
    CHECK(summary(f.server, kJobs) == std::vector<std::string>{"PUT " + kJob + "/status 200"});
    job = stored(f.server, "PodMigrationJob", "move-web-1");
    CHECK(string_at(job, "status", "phase") == "Running");
    CHECK(string_at(job, "spec", "mode") == "ReservationFirst");
    CHECK(string_at(job, "metadata", "resourceVersion") == st.resource_version);

    // A spec update carrying another status: the spec changes, the status stays.
    f.forget_requests();
    WriteResult up = f.backend.update_object(job_json(st.resource_version, "EvictDirectly", "Running"), "M");
    INFO(up.message);
    REQUIRE(up.ok());
    CHECK(summary(f.server, kJobs) == std::vector<std::string>{"PUT " + kJob + " 200"});
    job = stored(f.server, "PodMigrationJob", "move-web-1");
    CHECK(string_at(job, "spec", "mode") == "EvictDirectly");
    CHECK(string_at(job, "status", "phase") == "Running");

    // And delete_object.
    REQUIRE(f.backend.delete_object("PodMigrationJob", "", "move-web-1", "M").ok());
    CHECK(stored(f.server, "PodMigrationJob", "move-web-1").IsNull());
    CHECK(f.backend.delete_object("PodMigrationJob", "", "move-web-1", "M").code == KD_WRITE_NOT_FOUND);
}

TEST_CASE("api backend: a Reservation is created cluster-scoped — a second create is KD_WRITE_EXISTS",
          "[daemon][api_backend]") {
    Fixture f;
    REQUIRE(f.backend.create_object(kReservation, "Migration").ok());
    CHECK(stored(f.server, "Reservation", "for-web-1").IsObject());
    WriteResult again = f.backend.create_object(kReservation, "Migration");
    CHECK(again.code == KD_WRITE_EXISTS);
    CHECK_THAT(again.message, Catch::Contains("already exists"));
    CHECK_THAT(again.message, Catch::Contains("Reservation for-web-1"));
    CHECK(summary(f.server, kReservations) ==
          std::vector<std::string>{"POST " + kReservations + " 201", "POST " + kReservations + " 409"});

    REQUIRE(f.backend.create_object(job_json("", "ReservationFirst", ""), "M").ok());
    CHECK(f.backend.create_object(job_json("", "EvictDirectly", ""), "M").code == KD_WRITE_EXISTS);
    CHECK(string_at(stored(f.server, "PodMigrationJob", "move-web-1"), "spec", "mode") == "ReservationFirst");
}

TEST_CASE("api backend: update_status on a stale resourceVersion with the spec unchanged is read again and written",
          "[daemon][api_backend]") {
    Fixture f;
    WriteResult created = f.backend.create_object(job_json("", "ReservationFirst", ""), "M");
    REQUIRE(created.ok());
    sees(f, "PodMigrationJob", "move-web-1");
    patch_job(f, R"({"metadata":{"annotations":{"other.example.com/seen":"yes"}}})");  // someone else: rv moves
    const std::string fresh =
        string_at(stored(f.server, "PodMigrationJob", "move-web-1"), "metadata", "resourceVersion");
    REQUIRE(fresh != created.resource_version);

    f.forget_requests();
    WriteResult r = f.backend.update_status(job_json(created.resource_version, "ReservationFirst", "Running"), "M");
    INFO(r.message);
    REQUIRE(r.ok());
    CHECK(summary(f.server, kJobs) == std::vector<std::string>{"PATCH " + kJob + "/status 409", "GET " + kJob + " 200",
                                                               "PATCH " + kJob + "/status 200"});
    auto patches = f.server.served(kJob + "/status");
    REQUIRE(patches.size() == 2);
    // Only the status, with the version it was decided on as the precondition.
    CHECK(json::text_of(patches[0].body) ==
          R"({"status":{"phase":"Running"},"metadata":{"resourceVersion":")" + created.resource_version + R"("}})");
    CHECK(string_at(patches[1].body, "metadata", "resourceVersion") == fresh);
    auto job = stored(f.server, "PodMigrationJob", "move-web-1");
    CHECK(string_at(job, "status", "phase") == "Running");
    CHECK(string_at(job["metadata"], "annotations", "other.example.com/seen") == "yes");  // theirs kept
    CHECK(r.resource_version == string_at(job, "metadata", "resourceVersion"));
}

TEST_CASE("api backend: update_status after someone changed the spec is KD_WRITE_CONFLICT, not written again",
          "[daemon][api_backend]") {
    Fixture f;
    WriteResult created = f.backend.create_object(job_json("", "ReservationFirst", ""), "M");
    REQUIRE(created.ok());
    sees(f, "PodMigrationJob", "move-web-1");
    patch_job(f, R"({"spec":{"mode":"EvictDirectly"}})");

    f.forget_requests();
    WriteResult r = f.backend.update_status(job_json(created.resource_version, "ReservationFirst", "Running"), "M");
    CHECK(r.code == KD_WRITE_CONFLICT);
    CHECK_THAT(r.message, Catch::Contains("409"));
    CHECK_THAT(r.message, Catch::Contains("PodMigrationJob move-web-1"));
    CHECK(summary(f.server, kJobs) ==
          std::vector<std::string>{"PATCH " + kJob + "/status 409", "GET " + kJob + " 200"});
    auto job = stored(f.server, "PodMigrationJob", "move-web-1");
    CHECK_FALSE(job.HasMember("status"));
    CHECK(string_at(job, "spec", "mode") == "EvictDirectly");
}

TEST_CASE("api backend: update (spec) is written again when only metadata moved, refused when the status changed",
          "[daemon][api_backend]") {
    Fixture f;
    REQUIRE(f.backend.create_object(job_json("", "ReservationFirst", ""), "M").ok());
    std::string rv = string_at(stored(f.server, "PodMigrationJob", "move-web-1"), "metadata", "resourceVersion");
    WriteResult st = f.backend.update_status(job_json(rv, "ReservationFirst", "Pending"), "M");
    REQUIRE(st.ok());
    sees(f, "PodMigrationJob", "move-web-1");

    // Only an annotation moved: the spec write goes through on the fresh resourceVersion.
    patch_job(f, R"({"metadata":{"annotations":{"a":"1"}}})");
    f.forget_requests();
    WriteResult up = f.backend.update_object(job_json(st.resource_version, "EvictDirectly", "Pending"), "M");
    INFO(up.message);
    REQUIRE(up.ok());
    CHECK(summary(f.server, kJobs) ==
          std::vector<std::string>{"PATCH " + kJob + " 409", "GET " + kJob + " 200", "PATCH " + kJob + " 200"});
    auto job = stored(f.server, "PodMigrationJob", "move-web-1");
    CHECK(string_at(job, "spec", "mode") == "EvictDirectly");
    CHECK(string_at(job["metadata"], "annotations", "a") == "1");  // theirs kept

    // The status changed since it was read (Pending → Running): the spec write was decided on
    // something that no longer holds.
    sees(f, "PodMigrationJob", "move-web-1");
    patch_job(f, R"({"status":{"phase":"Running"}})", "/status");
    f.forget_requests();
    WriteResult stale = f.backend.update_object(job_json(up.resource_version, "ReservationFirst", "Pending"), "M");
    CHECK(stale.code == KD_WRITE_CONFLICT);
    CHECK(summary(f.server, kJobs) == std::vector<std::string>{"PATCH " + kJob + " 409", "GET " + kJob + " 200"});
    CHECK(string_at(stored(f.server, "PodMigrationJob", "move-web-1"), "spec", "mode") == "EvictDirectly");
}

TEST_CASE("api backend: conflicts are written again at most kConflictRetries times", "[daemon][api_backend]") {
    Fixture f;
    WriteResult created = f.backend.create_object(job_json("", "ReservationFirst", ""), "M");
    REQUIRE(created.ok());
    sees(f, "PodMigrationJob", "move-web-1");
    f.server.faults(R"([{"method":"PATCH","path":")" + kJob +
                    R"(/status","times":0,"action":{"type":"status","code":409,"reason":"Conflict"}}])");
    f.forget_requests();
    WriteResult r = f.backend.update_status(job_json(created.resource_version, "ReservationFirst", "Running"), "M");
    CHECK(r.code == KD_WRITE_CONFLICT);
    auto sent = f.server.served(kJobs);
    size_t patches = 0, gets = 0;
    for (const auto& e : sent) {
        patches += e.method == "PATCH";
        gets += e.method == "GET";
    }
    CHECK(patches == size_t(1 + daemon::ApiBackend::kConflictRetries));
    CHECK(gets == size_t(daemon::ApiBackend::kConflictRetries));
    CHECK_FALSE(stored(f.server, "PodMigrationJob", "move-web-1").HasMember("status"));
}

// A job as a user writes it (kubectl apply), with what kdesched does not model: finalizers, an
// owner, fields of a newer CRD at every level, a duration in the user's spelling.
const char* kUserJob = R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"PodMigrationJob",
  "metadata":{"name":"move-web-1","finalizers":["example.com/keep"],"labels":{"team":"shop"},
    "annotations":{"note":"by hand"},
    "ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"plan","uid":"cm-uid"}]},
  "spec":{"podRef":{"namespace":"shop","name":"web-1"},"mode":"EvictDirectly","ttl":"5m",
    "deleteOptions":{"gracePeriodSeconds":7},
    "reservationOptions":{"template":{"metadata":{"labels":{"r":"1"}},"spec":{"allocateOnce":true}}},
    "futureSpecField":{"level":3}},
  "futureTopLevel":{"kept":true},
  "status":{"phase":"Pending","futureStatusField":"x"}})";

// `object` (JSON) with `edit` applied to its DOM: what a plugin sends back.
std::string edited(const std::string& object, const std::function<void(rapidjson::Document&)>& edit) {
    rapidjson::Document d;
    d.Parse(object.c_str());
    edit(d);
    return json::text_of(d);
}

TEST_CASE(
    "api backend: an update sends only what the plugin changed — every other field, and what another writer "
    "added meanwhile, stays",
    "[daemon][api_backend][nothing-lost]") {
    Fixture f;
    f.server.load(std::string("[") + kUserJob + "]");
    sees(f, "PodMigrationJob", "move-web-1");
    const std::string given = f.seen["PodMigrationJob/move-web-1"];
    // Another controller adds a finalizer after the model saw the job.
    patch_job(f, R"({"metadata":{"finalizers":["example.com/keep","example.com/other"]}})");
    const std::string fresh =
        string_at(stored(f.server, "PodMigrationJob", "move-web-1"), "metadata", "resourceVersion");

    // The plugin marks the job (spec half), then writes a condition (status half).
    f.forget_requests();
    std::string marked = edited(given, [](rapidjson::Document& d) {
        d["metadata"]["annotations"].AddMember("descheduler.koordinator.sh/passed-arbitration", "true",
                                               d.GetAllocator());
    });
    WriteResult up = f.backend.update_object(marked, "MigrationController");
    INFO(up.message);
    REQUIRE(up.ok());
    auto sent = f.server.served(kJob);
    REQUIRE(sent.size() == 3);  // PATCH 409, GET, PATCH 200
    CHECK(json::text_of(sent[2].body) ==
          R"({"metadata":{"annotations":{"descheduler.koordinator.sh/passed-arbitration":"true"},)"
          R"("resourceVersion":")" +
              fresh + R"("}})");
    std::string status_written = edited(marked, [&](rapidjson::Document& d) {
        auto& a = d.GetAllocator();
        d["metadata"]["resourceVersion"].SetString(up.resource_version.c_str(), a);
        d["status"]["phase"] = "Running";
        rapidjson::Value c(rapidjson::kObjectType);
        c.AddMember("type", "Eviction", a).AddMember("status", "True", a);
        d["status"].AddMember("conditions", rapidjson::Value(rapidjson::kArrayType).PushBack(c, a), a);
    });
    WriteResult st = f.backend.update_status(status_written, "MigrationController");
    INFO(st.message);
    REQUIRE(st.ok());

    auto job = stored(f.server, "PodMigrationJob", "move-web-1");
    const auto& meta = job["metadata"];
    REQUIRE(meta["finalizers"].Size() == 2);
    CHECK(std::string(meta["finalizers"][1].GetString()) == "example.com/other");
    CHECK(string_at(meta["ownerReferences"][0], "uid") == "cm-uid");
    CHECK(string_at(meta, "labels", "team") == "shop");
    CHECK(string_at(meta, "annotations", "note") == "by hand");
    CHECK(string_at(meta, "annotations", "descheduler.koordinator.sh/passed-arbitration") == "true");
    CHECK(string_at(job, "spec", "ttl") == "5m");
    CHECK(job["spec"]["deleteOptions"]["gracePeriodSeconds"].GetInt() == 7);
    CHECK(string_at(job["spec"]["reservationOptions"]["template"]["metadata"], "labels", "r") == "1");
    CHECK(job["spec"]["futureSpecField"]["level"].GetInt() == 3);
    CHECK(job["futureTopLevel"]["kept"].GetBool());
    CHECK(string_at(job, "status", "phase") == "Running");
    CHECK(string_at(job, "status", "futureStatusField") == "x");
    CHECK(string_at(job["status"]["conditions"][0], "type") == "Eviction");
}

TEST_CASE("api backend: an object the model has not seen is updated whole (PUT) — a conflict goes back to the plugin",
          "[daemon][api_backend][nothing-lost]") {
    Fixture f;
    WriteResult created = f.backend.create_object(job_json("", "ReservationFirst", ""), "M");
    REQUIRE(created.ok());
    patch_job(f, R"({"metadata":{"annotations":{"a":"1"}}})");
    f.forget_requests();
    WriteResult r = f.backend.update_object(job_json(created.resource_version, "EvictDirectly", ""), "M");
    CHECK(r.code == KD_WRITE_CONFLICT);
    CHECK(summary(f.server, kJobs) == std::vector<std::string>{"PUT " + kJob + " 409"});
    CHECK(string_at(stored(f.server, "PodMigrationJob", "move-web-1")["metadata"], "annotations", "a") == "1");
}

TEST_CASE("api backend: writes of other kinds, or without a name, are KD_WRITE_INVALID and sent nowhere",
          "[daemon][api_backend]") {
    Fixture f;
    f.forget_requests();
    CHECK(f.backend.create_object(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","namespace":"shop"}})", "P")
              .code == KD_WRITE_INVALID);
    CHECK(f.backend.create_object("{not json", "P").code == KD_WRITE_INVALID);
    CHECK(f.backend
              .update_object(R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation",
                                 "metadata":{},"spec":{}})",
                             "P")
              .code == KD_WRITE_INVALID);
    CHECK(f.backend.delete_object("Pod", "shop", "web-1", "P").code == KD_WRITE_INVALID);
    CHECK(f.server.served().empty());
    CHECK(stored(f.server, "Pod", "web-1").IsObject());
}

// --- gate, dry run, events -----------------------------------------------------------------------

TEST_CASE("api backend: with the gate closed every write is KD_WRITE_FORBIDDEN and nothing is sent",
          "[daemon][api_backend]") {
    Fixture f;
    bool open = false;
    f.backend.set_gate([&] { return open; }, "this replica is not the leader");
    f.forget_requests();
    std::vector<WriteResult> results = {
        f.backend.evict_pod(f.pod("web-1"), "", "P"),
        f.backend.delete_pod(f.pod("web-2"), "", "P"),
        f.backend.annotate_pod(f.pod("web-3"), "k", "v", "P"),
        f.backend.create_object(job_json("", "ReservationFirst", ""), "P"),
        f.backend.update_object(job_json("5", "ReservationFirst", ""), "P"),
        f.backend.update_status(job_json("5", "ReservationFirst", "Running"), "P"),
        f.backend.delete_object("Reservation", "", "for-web-1", "P"),
    };
    for (const auto& r : results) {
        CHECK(r.code == KD_WRITE_FORBIDDEN);
        CHECK_THAT(r.message, Catch::Contains("this replica is not the leader"));
    }
    f.backend.record_event("Pod", "shop", "web-1", "Normal", "Evicted", "Evicting", "no", "P");
    f.events.flush();
    CHECK(f.server.served().empty());
    CHECK(f.events.counters().created == 0);
    CHECK(stored(f.server, "Pod", "web-1").IsObject());
    CHECK(stored(f.server, "Pod", "web-2").IsObject());

    open = true;  // leading again
    REQUIRE(f.backend.evict_pod(f.pod("web-1"), "", "P").ok());
    CHECK(stored(f.server, "Pod", "web-1").IsNull());
}

TEST_CASE("api backend: dry run sends nothing, counts each write and answers success", "[daemon][api_backend]") {
    Fixture f;
    std::vector<std::string> counted;
    f.backend.set_dry_run(true, [&](std::string_view w) { counted.emplace_back(w); });
    f.forget_requests();
    CHECK(f.backend.evict_pod(f.pod("web-1"), "", "P").ok());
    CHECK(f.backend.delete_pod(f.pod("web-2"), "", "P").ok());
    CHECK(f.backend.annotate_pod(f.pod("web-3"), "k", "v", "P").ok());
    CHECK(f.backend.create_object(job_json("", "ReservationFirst", ""), "P").ok());
    CHECK(f.backend.update_object(job_json("5", "ReservationFirst", ""), "P").ok());
    CHECK(f.backend.update_status(job_json("5", "ReservationFirst", "Running"), "P").ok());
    CHECK(f.backend.delete_object("Reservation", "", "for-web-1", "P").ok());
    f.backend.record_event("Pod", "shop", "web-1", "Normal", "Evicted", "Evicting", "no", "P");
    f.events.flush();
    CHECK(f.server.served().empty());
    CHECK(counted ==
          std::vector<std::string>{"evict", "delete", "patch", "create", "update", "update", "delete", "event"});
    CHECK(stored(f.server, "Pod", "web-1").IsObject());
    CHECK(stored(f.server, "Pod", "web-2").IsObject());
    CHECK(stored(f.server, "PodMigrationJob", "move-web-1").IsNull());

    f.backend.set_dry_run(false, nullptr);
    REQUIRE(f.backend.evict_pod(f.pod("web-1"), "", "P").ok());
    CHECK(stored(f.server, "Pod", "web-1").IsNull());
    CHECK(counted.size() == 8);
}

TEST_CASE("api backend: record_event hands the event to the recorder", "[daemon][api_backend]") {
    Fixture f;
    f.backend.record_event("PodMigrationJob", "", "move-web-1", "Warning", "MigrationFailed", "Migrating", "no room",
                           "Migration");
    f.events.flush();
    auto sent = f.server.served("/apis/events.k8s.io/");
    REQUIRE(sent.size() == 1);
    CHECK(sent[0].path == "/apis/events.k8s.io/v1/namespaces/default/events");
    CHECK(string_at(sent[0].body, "regarding", "kind") == "PodMigrationJob");
    CHECK(string_at(sent[0].body, "regarding", "name") == "move-web-1");
    CHECK(string_at(sent[0].body, "type") == "Warning");
    CHECK(string_at(sent[0].body, "reason") == "MigrationFailed");
    CHECK(string_at(sent[0].body, "action") == "Migrating");
    CHECK(string_at(sent[0].body, "note") == "no room");
    CHECK(f.events.counters().created == 1);
}

// --- answers → kd_write_code ---------------------------------------------------------------------

TEST_CASE("api backend: the server's 403, 422 and 500 answers as write codes", "[daemon][api_backend]") {
    Fixture f;
    SECTION("403 Forbidden (RBAC) → KD_WRITE_FORBIDDEN with the server's words") {
        f.server.settings(R"({"forbid":[{"verb":"create","group":"scheduling.koordinator.sh",
                                         "resource":"podmigrationjobs"}]})");
        WriteResult r = f.backend.create_object(job_json("", "ReservationFirst", ""), "M");
        CHECK(r.code == KD_WRITE_FORBIDDEN);
        CHECK_THAT(r.message, Catch::Contains("HTTP 403"));
        CHECK_THAT(r.message, Catch::Contains("cannot create resource \"podmigrationjobs\""));
        // … and names the rule to add, in RBAC's words.
        CHECK_THAT(r.message, Catch::Contains("grant kdesched's ServiceAccount verb \"create\" on \"podmigrationjobs\" "
                                              "in API group \"scheduling.koordinator.sh\" in deploy/base/rbac.yaml"));
        CHECK(summary(f.server, kJobs) == std::vector<std::string>{"POST " + kJobs + " 403"});
        CHECK(stored(f.server, "PodMigrationJob", "move-web-1").IsNull());
    }
    SECTION("403 from an admission plugin (not RBAC) → KD_WRITE_FORBIDDEN, without an RBAC hint") {
        f.server.faults(R"([{"method":"POST","path":")" + kJobs + R"(","times":1,"action":{"type":"status","code":403,
            "message":"podmigrationjobs \"move-web-1\" is forbidden: exceeded quota: jobs"}}])");
        WriteResult r = f.backend.create_object(job_json("", "ReservationFirst", ""), "M");
        CHECK(r.code == KD_WRITE_FORBIDDEN);
        CHECK_THAT(r.message, Catch::Contains("is forbidden: exceeded quota: jobs"));
        CHECK_THAT(r.message, !Catch::Contains("grant kdesched"));
    }
    SECTION("422 Invalid (an update without resourceVersion) → KD_WRITE_INVALID") {
        REQUIRE(f.backend.create_object(job_json("", "ReservationFirst", ""), "M").ok());
        WriteResult r = f.backend.update_object(job_json("", "EvictDirectly", ""), "M");
        CHECK(r.code == KD_WRITE_INVALID);
        CHECK_THAT(r.message, Catch::Contains("HTTP 422"));
        CHECK_THAT(r.message, Catch::Contains("resourceVersion"));
        CHECK(string_at(stored(f.server, "PodMigrationJob", "move-web-1"), "spec", "mode") == "ReservationFirst");
    }
    SECTION("500 → retried by the client, then KD_WRITE_TRANSIENT") {
        f.server.faults(R"([{"method":"POST","path":")" + kJobs +
                        R"(","times":0,"action":{"type":"status","code":500}}])");
        WriteResult r = f.backend.create_object(job_json("", "ReservationFirst", ""), "M");
        CHECK(r.code == KD_WRITE_TRANSIENT);
        CHECK_THAT(r.message, Catch::Contains("HTTP 500"));
        CHECK(summary(f.server, kJobs) == std::vector<std::string>(3, "POST " + kJobs + " 500"));
    }
    SECTION("no server → KD_WRITE_TRANSIENT") {
        kube::Connection c;
        c.server = "http://127.0.0.1:" + std::to_string(closed_port());
        auto o = client_options();
        o.max_attempts = 1;
        kube::ApiClient nowhere(c, o);
        daemon::EventRecorder events(nowhere, {});
        daemon::ApiBackend backend(nowhere, events);
        WriteResult r = backend.create_object(job_json("", "ReservationFirst", ""), "M");
        CHECK(r.code == KD_WRITE_TRANSIENT);
        CHECK_THAT(r.message, Catch::StartsWith("creating PodMigrationJob move-web-1: no connection"));
    }
}

TEST_CASE("api backend: write_result maps each answer", "[daemon][api_backend]") {
    auto answer = [](int code, std::string body = "") {
        kube::ApiResult r;
        r.code = code;
        r.body = std::move(body);
        if (code >= 300) r.status = kube::parse_status(r.body);
        return daemon::write_result(r, "writing X");
    };
    auto status = [](int code, const char* reason) {
        return std::string(R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":")") + reason +
               R"(","message":"the words","code":)" + std::to_string(code) + "}";
    };
    WriteResult ok = answer(200, R"({"metadata":{"name":"x","resourceVersion":"42"}})");
    CHECK(ok.ok());
    CHECK(ok.resource_version == "42");
    CHECK(answer(201, "{}").ok());
    CHECK(answer(409, status(409, "AlreadyExists")).code == KD_WRITE_EXISTS);
    CHECK(answer(409, status(409, "Conflict")).code == KD_WRITE_CONFLICT);
    CHECK(answer(404, status(404, "NotFound")).code == KD_WRITE_NOT_FOUND);
    CHECK(answer(401, status(401, "Unauthorized")).code == KD_WRITE_FORBIDDEN);
    CHECK(answer(403, status(403, "Forbidden")).code == KD_WRITE_FORBIDDEN);
    CHECK(answer(400, status(400, "BadRequest")).code == KD_WRITE_INVALID);
    CHECK(answer(422, status(422, "Invalid")).code == KD_WRITE_INVALID);
    CHECK(answer(429, status(429, "TooManyRequests")).code == KD_WRITE_TRANSIENT);
    CHECK(answer(500, status(500, "InternalError")).code == KD_WRITE_TRANSIENT);
    CHECK(answer(503, "").code == KD_WRITE_TRANSIENT);
    CHECK(answer(418, "").code == KD_WRITE_FAILED);
    WriteResult conflict = answer(409, status(409, "Conflict"));
    CHECK_THAT(conflict.message, Catch::StartsWith("writing X: HTTP 409"));
    CHECK_THAT(conflict.message, Catch::Contains("the words"));
    kube::ApiResult none;
    none.failure = net::Failure::timeout;
    none.problem = "read timed out";
    WriteResult t = daemon::write_result(none, "writing X");
    CHECK(t.code == KD_WRITE_TRANSIENT);
    CHECK_THAT(t.message, Catch::Contains("read timed out"));
}
