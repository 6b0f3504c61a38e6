// The event recorder against the test API server (testkit/fake_apiserver.py): the Event it
// creates (events.k8s.io/v1, regarding, reporting controller and instance, "default" for a
// cluster-scoped object), a repeat folded into the first event's series by a merge patch, the
// per-object spam filter, and the core/v1 fallback on a server without events.k8s.io.
#include "client_options.hpp"
#include "daemon/event_recorder.hpp"
#include "fake_apiserver.hpp"
#include "json_at.hpp"

#include <rapidjson/document.h>

#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <vector>

using namespace kd::core;
using kd_test::connection_to;
using kd_test::FakeApiServer;
using kd_test::string_at;

namespace {

// The objects of `kind` the server stores.
rapidjson::Document stored(FakeApiServer& s, const std::string& kind) {
    rapidjson::Document d;
    d.Parse(s.control("GET", "objects?kind=" + kind).c_str());
    return d;
}

bool has(const rapidjson::Value& v, const char* key) {
    return v.IsObject() && v.HasMember(key);
}

daemon::EventRecord pmj_event(std::string reason = "MigrationJobCreated", std::string note = "moving shop/web-1") {
    return {"PodMigrationJob", "", "", "move-web-1", "Normal", std::move(reason), "Migrating", std::move(note)};
}

daemon::EventRecorderOptions options() {
    daemon::EventRecorderOptions o;
    o.controller = "koord-descheduler";
    o.instance = "host-a_0123";
    return o;
}

}  // namespace

TEST_CASE("event recorder: an events.k8s.io/v1 Event about a cluster-scoped object, in \"default\"", "[kube][events]") {
    FakeApiServer server;
    kube::ApiClient client(connection_to(server), kd_test::quick_client_options());
    daemon::EventRecorder recorder(client, options());
    recorder.record(pmj_event());
    recorder.flush();

    auto sent = server.served("/apis/events.k8s.io/");
    REQUIRE(sent.size() == 1);
    CHECK(sent[0].method == "POST");
    CHECK(sent[0].path == "/apis/events.k8s.io/v1/namespaces/default/events");
    CHECK(sent[0].code == 201);
    const auto& b = sent[0].body;
    CHECK(string_at(b, "apiVersion") == "events.k8s.io/v1");
    CHECK(string_at(b, "kind") == "Event");
    CHECK(string_at(b, "metadata", "namespace") == "default");
    CHECK_THAT(string_at(b, "metadata", "name"), Catch::StartsWith("move-web-1."));
    CHECK(string_at(b, "regarding", "kind") == "PodMigrationJob");
    CHECK(string_at(b, "regarding", "name") == "move-web-1");
    CHECK(string_at(b, "regarding", "apiVersion") == "scheduling.koordinator.sh/v1alpha1");
    CHECK_FALSE(has(b["regarding"], "namespace"));  // cluster-scoped: no namespace in the reference
    CHECK(string_at(b, "type") == "Normal");
    CHECK(string_at(b, "reason") == "MigrationJobCreated");
    CHECK(string_at(b, "action") == "Migrating");
    CHECK(string_at(b, "note") == "moving shop/web-1");
    CHECK(string_at(b, "reportingController") == "koord-descheduler");
    CHECK(string_at(b, "reportingInstance") == "host-a_0123");
    CHECK(has(b, "eventTime"));
    CHECK_FALSE(has(b, "series"));

    auto events = stored(server, "Event");
    REQUIRE(events["items"].Size() == 1);
    CHECK(string_at(events["items"][0], "apiVersion") == "events.k8s.io/v1");
    CHECK(string_at(events["items"][0], "regarding", "name") == "move-web-1");

    auto c = recorder.counters();
    CHECK(c.created == 1);
    CHECK(c.folded + c.throttled + c.dropped + c.failed == 0);
}

TEST_CASE("event recorder: a namespaced object's Event lives in its namespace — no action → the reason",
          "[kube][events]") {
    FakeApiServer server;
    kube::ApiClient client(connection_to(server), kd_test::quick_client_options());
    daemon::EventRecorder recorder(client, options());
    recorder.record({"Pod", "", "shop", "web-1", "Warning", "Evicted", "", "evicted by LowNodeLoad"});
    recorder.flush();
    auto sent = server.served("/apis/events.k8s.io/");
    REQUIRE(sent.size() == 1);
    CHECK(sent[0].path == "/apis/events.k8s.io/v1/namespaces/shop/events");
    CHECK(string_at(sent[0].body, "metadata", "namespace") == "shop");
    CHECK(string_at(sent[0].body, "regarding", "namespace") == "shop");
    CHECK(string_at(sent[0].body, "regarding", "apiVersion") == "v1");
    CHECK(string_at(sent[0].body, "type") == "Warning");
    CHECK(string_at(sent[0].body, "action") == "Evicted");
}

TEST_CASE("event recorder: a repeat folds into the first event's series (merge patch, count 2)", "[kube][events]") {
    FakeApiServer server;
    kube::ApiClient client(connection_to(server), kd_test::quick_client_options());
    daemon::EventRecorder recorder(client, options());
    recorder.record(pmj_event());
    recorder.flush();
    recorder.record(pmj_event());
    recorder.flush();

    auto sent = server.served("/apis/events.k8s.io/");
    REQUIRE(sent.size() == 2);
    CHECK(sent[0].method == "POST");
    const std::string name = string_at(sent[0].body, "metadata", "name");
    CHECK(sent[1].method == "PATCH");
    CHECK(sent[1].path == "/apis/events.k8s.io/v1/namespaces/default/events/" + name);
    CHECK(sent[1].content_type == "application/merge-patch+json");
    CHECK(sent[1].code == 200);
    REQUIRE(has(sent[1].body, "series"));
    CHECK(sent[1].body["series"]["count"].GetInt() == 2);
    CHECK(has(sent[1].body["series"], "lastObservedTime"));

    auto events = stored(server, "Event");
    REQUIRE(events["items"].Size() == 1);  // one object, its series grown
    const auto& e = events["items"][0];
    CHECK(string_at(e, "metadata", "name") == name);
    REQUIRE(has(e, "series"));
    CHECK(e["series"]["count"].GetInt() == 2);
    CHECK(string_at(e, "note") == "moving shop/web-1");

    // A third: count 3. A different note is a different event.
    recorder.record(pmj_event());
    recorder.record(pmj_event("MigrationJobCreated", "moving shop/web-2"));
    recorder.flush();
    events = stored(server, "Event");
    REQUIRE(events["items"].Size() == 2);
    for (const auto& item : events["items"].GetArray()) {
        if (string_at(item, "metadata", "name") == name)
            CHECK(item["series"]["count"].GetInt() == 3);
        else
            CHECK_FALSE(has(item, "series"));
    }
    auto c = recorder.counters();
    CHECK(c.created == 2);
    CHECK(c.folded == 2);
    CHECK(c.failed == 0);
}

TEST_CASE("event recorder: beyond the burst, events about one object are dropped and counted — others pass",
          "[kube][events]") {
    FakeApiServer server;
    kube::ApiClient client(connection_to(server), kd_test::quick_client_options());
    auto o = options();
    o.burst = 2;
    o.refill = std::chrono::seconds(3600);
    daemon::EventRecorder recorder(client, o);
    for (int i = 0; i < 5; ++i) {
        recorder.record(pmj_event("Reason" + std::to_string(i)));
        recorder.flush();  // one at a time: each gets a name of its own
    }
    recorder.record({"Pod", "", "shop", "web-1", "Normal", "Other", "", "another object"});
    recorder.flush();

    auto c = recorder.counters();
    CHECK(c.created == 3);
    CHECK(c.throttled == 3);
    CHECK(c.failed == 0);
    auto posts = server.served("/apis/events.k8s.io/");
    REQUIRE(posts.size() == 3);
    CHECK(string_at(posts[0].body, "reason") == "Reason0");
    CHECK(string_at(posts[1].body, "reason") == "Reason1");
    CHECK(string_at(posts[2].body, "reason") == "Other");
    CHECK(stored(server, "Event")["items"].Size() == 3);

    // A repeat of an event already sent needs no token: it still folds.
    recorder.record(pmj_event("Reason0"));
    recorder.flush();
    CHECK(recorder.counters().folded == 1);
    CHECK(recorder.counters().throttled == 3);
}

TEST_CASE("event recorder: a refill gives the object one more event", "[kube][events]") {
    FakeApiServer server;
    kube::ApiClient client(connection_to(server), kd_test::quick_client_options());
    auto o = options();
    o.burst = 1;
    o.refill = std::chrono::seconds(1);
    daemon::EventRecorder recorder(client, o);
    recorder.record(pmj_event("A"));
    recorder.record(pmj_event("B"));
    recorder.flush();
    CHECK(recorder.counters().created == 1);
    CHECK(recorder.counters().throttled == 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    recorder.record(pmj_event("C"));
    recorder.flush();
    CHECK(recorder.counters().created == 2);
    CHECK(stored(server, "Event")["items"].Size() == 2);
}

TEST_CASE("event recorder: events.k8s.io not served (plain 404) → core/v1 Events, repeats counted there",
          "[kube][events]") {
    FakeApiServer server;
    server.settings(R"({"unserved_groups":["events.k8s.io"]})");
    kube::ApiClient client(connection_to(server), kd_test::quick_client_options());
    daemon::EventRecorder recorder(client, options());
    recorder.record(pmj_event());
    recorder.flush();

    auto tried = server.served("/apis/events.k8s.io/");
    REQUIRE(tried.size() == 1);
    CHECK(tried[0].code == 404);
    auto sent = server.served("/api/v1/");
    REQUIRE(sent.size() == 1);
    CHECK(sent[0].method == "POST");
    CHECK(sent[0].path == "/api/v1/namespaces/default/events");
    CHECK(sent[0].code == 201);
    const auto& b = sent[0].body;
    CHECK(string_at(b, "apiVersion") == "v1");
    CHECK(string_at(b, "involvedObject", "kind") == "PodMigrationJob");
    CHECK(string_at(b, "involvedObject", "name") == "move-web-1");
    CHECK(string_at(b, "reason") == "MigrationJobCreated");
    CHECK(string_at(b, "message") == "moving shop/web-1");
    CHECK(string_at(b, "source", "component") == "koord-descheduler");
    CHECK(string_at(b, "reportingComponent") == "koord-descheduler");
    CHECK(string_at(b, "reportingInstance") == "host-a_0123");
    CHECK(b["count"].GetInt() == 1);
    CHECK_FALSE(has(b, "regarding"));

    // From now on core/v1 directly; a repeat patches count.
    recorder.record(pmj_event());
    recorder.record(pmj_event("Other"));
    recorder.flush();
    CHECK(server.served("/apis/events.k8s.io/").size() == 1);
    sent = server.served("/api/v1/");
    REQUIRE(sent.size() == 3);
    CHECK(sent[1].method == "PATCH");
    CHECK(sent[1].path == "/api/v1/namespaces/default/events/" + string_at(sent[0].body, "metadata", "name"));
    CHECK(sent[1].body["count"].GetInt() == 2);
    CHECK(sent[2].method == "POST");
    auto events = stored(server, "Event");
    REQUIRE(events["items"].Size() == 2);
    for (const auto& e : events["items"].GetArray()) {
        CHECK(string_at(e, "apiVersion") == "v1");
        CHECK(e["count"].GetInt() == (string_at(e, "reason") == "Other" ? 1 : 2));
    }
    auto c = recorder.counters();
    CHECK(c.created == 2);
    CHECK(c.folded == 1);
    CHECK(c.failed == 0);
}

TEST_CASE("event recorder: a 404 Status (the namespace is missing) is a failure, not a fallback", "[kube][events]") {
    FakeApiServer server;
    server.faults(R"([{"method":"POST","path":"/apis/events.k8s.io/","action":{"type":"status","code":404}}])");
    kube::ApiClient client(connection_to(server), kd_test::quick_client_options());
    daemon::EventRecorder recorder(client, options());
    recorder.record(pmj_event("A"));
    recorder.flush();
    CHECK(recorder.counters().failed == 1);
    CHECK(server.served("/api/v1/").empty());
    // The next one still goes to events.k8s.io.
    recorder.record(pmj_event("B"));
    recorder.flush();
    CHECK(recorder.counters().created == 1);
    auto sent = server.served("/apis/events.k8s.io/");
    REQUIRE(sent.size() == 2);
    CHECK(sent[1].code == 201);
}

TEST_CASE("event recorder: beyond queue_limit new events are dropped and counted", "[kube][events]") {
    FakeApiServer server;
    // A slow client (two requests a second) so the queue fills behind the one being sent.
    auto co = kd_test::quick_client_options();
    co.qps = 2;
    co.burst = 1;
    kube::ApiClient client(connection_to(server), co);
    auto o = options();
    o.queue_limit = 2;
    daemon::EventRecorder recorder(client, o);
    for (int i = 0; i < 6; ++i) recorder.record(pmj_event("R" + std::to_string(i)));
    recorder.flush();
    auto c = recorder.counters();
    // At most one in flight and two waiting: three or four of the six are dropped.
    CHECK(c.dropped >= 3);
    CHECK(c.dropped <= 4);
    CHECK(c.created + c.dropped == 6);
    CHECK(c.failed == 0);
    CHECK(stored(server, "Event")["items"].Size() == c.created);
}

// Event names must differ even for events made within one clock tick (a 409 AlreadyExists would
// lose the second one).
TEST_CASE("event recorder: different events about one object sent back to back each get an Event of their own",
          "[kube][events]") {
    FakeApiServer server;
    kube::ApiClient client(connection_to(server), kd_test::quick_client_options());
    auto o = options();
    o.burst = 100;
    daemon::EventRecorder recorder(client, o);
    const int n = 40;
    for (int i = 0; i < n; ++i) recorder.record(pmj_event("R" + std::to_string(i)));
    recorder.flush();
    auto c = recorder.counters();
    std::vector<std::string> refused;
    for (auto& e : server.served("/apis/events.k8s.io/"))
        if (e.code != 201) refused.push_back(std::to_string(e.code) + " " + string_at(e.body, "metadata", "name"));
    INFO("created " << c.created << ", failed " << c.failed);
    CHECK(refused == std::vector<std::string>{});
    CHECK(c.created == uint64_t(n));
    CHECK(c.failed == 0);
    CHECK(stored(server, "Event")["items"].Size() == rapidjson::SizeType(n));
}
