// `kdesched run` on a real kube-apiserver (../shared/envtest; skipped without it) with a
// PodMigrationJob and a Reservation written by hand, as an operator writes a manual migration, on a
// newer Koordinator whose CRDs have fields kdesched does not know: after every update kdesched makes
// — the arbitration mark, each phase, the conditions, the Reservation's order label — the user's
// finalizers, owner references, labels, annotations, template, TTL spelling and the newer fields
// are still there, and a finalizer another controller adds meanwhile is kept too.
#include "api_actor.hpp"
#include "api_loader.hpp"
#include "daemon_harness.hpp"
#include "envtest.hpp"
#include "json_at.hpp"

#include <catch2/catch.hpp>

using kd_test::at;
using kd_test::str;

namespace {

const std::string kGroup = "/apis/scheduling.koordinator.sh/v1alpha1";
const std::string kCrds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/";

// Koordinator's CRDs as a newer release might have them: a field more in spec, status and at the top.
void install_newer_crds(kd_test::ApiLoader& api) {
    for (const char* crd : {"podmigrationjobs.scheduling.koordinator.sh", "reservations.scheduling.koordinator.sh"}) {
        rapidjson::Document d;
        d.Parse(api.request("GET", kCrds + crd, "").c_str());
        auto& a = d.GetAllocator();
        for (auto& version : d["spec"]["versions"].GetArray()) {
            auto& schema = version["schema"]["openAPIV3Schema"]["properties"];
            rapidjson::Value spec_field(rapidjson::kObjectType), status_field(rapidjson::kObjectType),
                top_field(rapidjson::kObjectType);
            spec_field.AddMember("type", "object", a).AddMember("x-kubernetes-preserve-unknown-fields", true, a);
            status_field.AddMember("type", "string", a);
            top_field.AddMember("type", "object", a).AddMember("x-kubernetes-preserve-unknown-fields", true, a);
            schema["spec"]["properties"].AddMember("futureSpecField", spec_field, a);
            schema["status"]["properties"].AddMember("futureStatusField", status_field, a);
            schema.AddMember("futureTopLevel", top_field, a);
        }
        api.request("PUT", kCrds + crd, kd_test::text_of(d));
    }
    // The server takes a changed schema up a moment later: until it keeps a new field.
    for (int i = 0;; ++i) {
        api.request("POST", kGroup + "/podmigrationjobs",
                    R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"PodMigrationJob",)"
                    R"("metadata":{"name":"schema-probe"},"spec":{"podRef":{"namespace":"x","name":"y"},)"
                    R"("paused":true,"futureSpecField":{"a":1}},"futureTopLevel":{"a":1}})");
        rapidjson::Document probe;
        probe.Parse(api.request("GET", kGroup + "/podmigrationjobs/schema-probe", "").c_str());
        api.request("DELETE", kGroup + "/podmigrationjobs/schema-probe", "");
        if (probe.HasMember("futureTopLevel") && probe["spec"].HasMember("futureSpecField")) break;
        REQUIRE(i < 100);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
}

// The profile: MigrationController alone (no balance plugin: only the jobs written by hand run).
void write_profile(const kd_test::DaemonFiles& files, int port) {
    std::ofstream(files.dir / "profile.yaml")
        << "apiVersion: descheduler/v1alpha2\nkind: DeschedulerConfiguration\ndeschedulingInterval: 1s\n"
        << "healthzBindAddress: 127.0.0.1:" << port << "\nmetricsBindAddress: 127.0.0.1:" << port << "\n"
        << "leaderElection:\n  leaseDuration: 3s\n  renewDeadline: 2s\n  retryPeriod: 500ms\n"
        << "profiles:\n- name: manual\n  plugins:\n"
        << "    evict: {disabled: [{name: \"*\"}], enabled: [{name: MigrationController}]}\n"
        << "    filter: {disabled: [{name: \"*\"}], enabled: [{name: MigrationController}]}\n"
        << "  pluginConfig:\n  - name: MigrationController\n    args:\n      maxMigratingPerNode: 10\n"
        << "      objectLimiters: {workload: {duration: 1s, maxMigrating: 100}}\n";  // both pods are web's
}

std::string user_metadata(const std::string& name, const std::string& owner_uid) {
    return R"({"name":")" + name +
           R"(","finalizers":["example.com/keep"],"labels":{"team":"shop"},"annotations":{"note":"by hand"},)"
           R"("ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"migration-plan","uid":")" +
           owner_uid + R"("}]})";
}

void check_user_fields(const rapidjson::Value& o, const std::string& owner_uid) {
    INFO(kd_test::text_of(o));
    CHECK(at(o, "/metadata/finalizers/0") == "example.com/keep");
    CHECK(at(o, "/metadata/ownerReferences/0/uid") == owner_uid);
    CHECK(at(o, "/metadata/labels/team") == "shop");
    CHECK(at(o, "/metadata/annotations/note") == "by hand");
    CHECK(at(o, "/spec/futureSpecField/level") == "3");
    CHECK(at(o, "/futureTopLevel/kept") == "true");
}

}  // namespace

TEST_CASE("kdesched run keeps every field of a user's job and Reservation it does not own (real API server)",
          "[envtest][nothing-lost]") {
    kd_test::Envtest* env = kd_test::Envtest::get("what `kdesched run` keeps of a user's objects");
    if (!env) return;
    auto client = env->client();
    kd_test::ApiLoader api(*client);
    kd_test::install_hotspot(api, kd_test::Envtest::crds(), std::string(KDESCHED_EXAMPLES_DIR) + "/hotspot.json");
    install_newer_crds(api);
    rapidjson::Document cm;
    cm.Parse(api.request("POST", "/api/v1/namespaces/shop/configmaps",
                         R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"migration-plan"}})", {201})
                 .c_str());
    const std::string owner = str(cm, {"metadata", "uid"});

    // EvictDirectly, with everything a user may write; and ReservationFirst on the user's Reservation.
    api.request(
        "POST", kGroup + "/podmigrationjobs",
        R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"PodMigrationJob","metadata":)" +
            user_metadata("evict-by-hand", owner) +
            R"(,"spec":{"podRef":{"namespace":"shop","name":"web-7c9f8d6b5-b0f98"},"mode":"EvictDirectly",)"
            R"("ttl":"5m","deleteOptions":{"gracePeriodSeconds":7},)"
            R"("reservationOptions":{"template":{"metadata":{"labels":{"r":"1"}},"spec":{"allocateOnce":true}}},)"
            R"("futureSpecField":{"level":3}},"futureTopLevel":{"kept":true}})",
        {201});
    api.request("POST", kGroup + "/reservations",
                R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation","metadata":)" +
                    user_metadata("user-reservation", owner) +
                    R"(,"spec":{"template":{"metadata":{"namespace":"shop"},"spec":{"containers":[{"name":"c",)"
                    R"("image":"x","resources":{"requests":{"cpu":"100m"}}}]}},)"
                    R"("owners":[{"labelSelector":{"matchLabels":{"app":"web"}}}],"allocateOnce":true,)"
                    R"("futureSpecField":{"level":3}},"futureTopLevel":{"kept":true}})",
                {201});
    api.request(
        "POST", kGroup + "/podmigrationjobs",
        R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"PodMigrationJob","metadata":)" +
            user_metadata("move-by-hand", owner) +
            R"(,"spec":{"podRef":{"namespace":"shop","name":"web-7c9f8d6b5-62c57"},"mode":"ReservationFirst",)"
            R"("ttl":"5m","reservationOptions":{"reservationRef":{"apiVersion":"scheduling.koordinator.sh/v1alpha1",)"
            R"("kind":"Reservation","name":"user-reservation"}},)"
            R"("futureSpecField":{"level":3}},"futureTopLevel":{"kept":true}})",
        {201});

    kd_test::ApiActor actor(api);
    actor.step();
    int port = kd_test::free_port();
    kd_test::DaemonFiles files(std::filesystem::path(env->kubeconfig()), port);
    write_profile(files, port);
    kd_test::DaemonProcess daemon(files, "user-objects");

    // Another controller adds a finalizer to the job while kdesched runs it.
    bool other_added = false, done = false;
    for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
         !done && std::chrono::steady_clock::now() < deadline;) {
        actor.step();
        auto jobs = actor.list(kGroup + "/podmigrationjobs");
        size_t succeeded = 0;
        for (const auto& j : jobs["items"].GetArray()) {
            succeeded += str(j, {"status", "phase"}) == "Succeeded";
            if (!other_added && str(j, {"metadata", "name"}) == "move-by-hand" &&
                str(j, {"status", "phase"}) == "Running") {
                api.request("PATCH", kGroup + "/podmigrationjobs/move-by-hand",
                            R"({"metadata":{"finalizers":["example.com/keep","example.com/other"]}})");
                other_added = true;
            }
        }
        done = succeeded == 2;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    INFO(kd_test::warnings_in(daemon.log()));
    INFO(api.request("GET", kGroup + "/podmigrationjobs", "").substr(0, 6000));
    REQUIRE(done);
    CHECK(other_added);

    rapidjson::Document evicted, moved, reservation;
    evicted.Parse(api.request("GET", kGroup + "/podmigrationjobs/evict-by-hand", "").c_str());
    moved.Parse(api.request("GET", kGroup + "/podmigrationjobs/move-by-hand", "").c_str());
    reservation.Parse(api.request("GET", kGroup + "/reservations/user-reservation", "").c_str());
    for (const rapidjson::Value* o : {&evicted, &moved, &reservation}) check_user_fields(*o, owner);
    CHECK(at(evicted, "/spec/ttl") == "5m");
    CHECK(at(moved, "/spec/ttl") == "5m");
    CHECK(at(evicted, "/spec/deleteOptions/gracePeriodSeconds") == "7");
    CHECK(at(evicted, "/spec/reservationOptions/template/metadata/labels/r") == "1");
    CHECK(at(evicted, "/metadata/annotations/descheduler.koordinator.sh~1passed-arbitration") == "true");
    CHECK(at(moved, "/metadata/finalizers/1") == "example.com/other");  // added meanwhile, kept
    CHECK(at(moved, "/status/conditions/0/type") != "<absent>");
    CHECK(at(reservation, "/metadata/labels/scheduling.koordinator.sh~1reservation-order") != "<absent>");
    daemon.signal(SIGTERM);
    CHECK(daemon.wait(20) == 0);
    // The finalizers are the user's: the objects stay until they remove them.
    for (const char* j : {"evict-by-hand", "move-by-hand"})
        api.request("PATCH", kGroup + "/podmigrationjobs/" + std::string(j), R"({"metadata":{"finalizers":null}})");
    api.request("PATCH", kGroup + "/reservations/user-reservation", R"({"metadata":{"finalizers":null}})");
}
