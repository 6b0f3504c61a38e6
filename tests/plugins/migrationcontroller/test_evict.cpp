// The evict hook (koord's `Evict`): one PodMigrationJob per accepted request, exactly as the anchor
// creates it; dry run; filtered pods; a job counts before the cluster shows it.
#include "filters.hpp"
#include "test_util.hpp"

#include <regex>
#include <string>
#include <vector>

using namespace mc_test;
namespace reason = kd::plugins::migrationcontroller::reason;

namespace {

struct EvictCase {
    SnapshotBuilder b;
    FakeHost host;
    EvictCase() {
        host.on_write = check_against_crds;
        base_cluster(b);
        web_pod(b, "p");
        web_pod(b, "p2", "n2");
    }
};

}  // namespace

TEST_CASE("evict: creates one PodMigrationJob as koord's Evict does", "[evict]") {
    struct Case {
        const char* name;
        std::string args;
        std::string mode, ttl;       // expected spec.mode / spec.ttl ("" = absent)
        std::string delete_options;  // expected spec.deleteOptions JSON ("" = absent)
    };
    std::vector<Case> cases = {
        {"defaults", "{}", "ReservationFirst", "5m0s", ""},
        {"EvictDirectly, 90s ttl, delete options", R"({"defaultJobMode": "EvictDirectly", "defaultJobTTL": "90s",
            "defaultDeleteOptions": {"gracePeriodSeconds": 30}})",
         "EvictDirectly", "1m30s", R"({"gracePeriodSeconds":30})"},
        {"ttl 0 leaves no ttl", R"({"defaultJobTTL": "0s"})", "ReservationFirst", "", ""},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            EvictCase t;
            auto plugin = t.host.instantiate<MigrationController>(c.args);
            const kd_snapshot* s = t.b.build();
            auto pod = kd::Snapshot(s).find_pod("default", "p");
            kd::EvictOutcome out = plugin.evict(s, *pod, "node n1 is overloaded", "LowNodeLoad");
            CHECK(out.code == KD_EVICT_ACCEPTED);
            CHECK(out.plugin == "MigrationController");
            CHECK(t.host.cluster_evictions().empty());  // the controller evicts later
            REQUIRE(t.host.writes().size() == 1);
            auto created = lines(t.host, "create ");
            REQUIRE(created.size() == 1);
            auto job = parse(created[0]);
            CHECK(str(job, "/apiVersion") == "scheduling.koordinator.sh/v1alpha1");
            CHECK(str(job, "/kind") == "PodMigrationJob");
            std::string name = str(job, "/metadata/name");
            CHECK(std::regex_match(name,
                                   std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")));
            CHECK(str(job, "/metadata/annotations/koordinator.sh~1evict-reason") == "node n1 is overloaded");
            CHECK(str(job, "/metadata/annotations/koordinator.sh~1evict-trigger") == "LowNodeLoad");
            CHECK(str(job, "/metadata/annotations/koordinator.sh~1job-created-by") == kInstance);
            CHECK_FALSE(has(job, "/metadata/annotations/descheduler.koordinator.sh~1passed-arbitration"));
            CHECK(str(job, "/spec/podRef/namespace") == "default");
            CHECK(str(job, "/spec/podRef/name") == "p");
            CHECK(str(job, "/spec/podRef/uid") == "uid-pod-default-p");
            CHECK(str(job, "/spec/mode") == c.mode);
            if (c.ttl.empty())
                CHECK_FALSE(has(job, "/spec/ttl"));
            else
                CHECK(str(job, "/spec/ttl") == c.ttl);
            if (c.delete_options.empty())
                CHECK_FALSE(has(job, "/spec/deleteOptions"));
            else
                CHECK(to_json(*at(job, "/spec/deleteOptions")) == c.delete_options);
            CHECK_FALSE(has(job, "/status"));  // a subresource, not written on create: no phase is Pending
        }
    }
}

TEST_CASE("evict: job names are fresh per request and instance", "[evict]") {
    EvictCase t;
    auto plugin = t.host.instantiate<MigrationController>("{}");
    const kd_snapshot* s = t.b.build();
    kd::Snapshot snap(s);
    REQUIRE(plugin.evict(s, *snap.find_pod("default", "p"), "r").evicted());
    REQUIRE(plugin.evict(s, *snap.find_pod("default", "p2"), "r").evicted());
    auto created = lines(t.host, "create ");
    REQUIRE(created.size() == 2);
    CHECK(str(parse(created[0]), "/metadata/name") != str(parse(created[1]), "/metadata/name"));

    // Another instance (another instance_id) names its job differently for the same pod and time.
    FakeHost other;
    other.instance_id = "another-instance";
    auto plugin2 = other.instantiate<MigrationController>("{}");
    REQUIRE(plugin2.evict(s, *snap.find_pod("default", "p"), "r").evicted());
    auto job = parse(lines(other, "create ")[0]);
    CHECK(str(job, "/metadata/annotations/koordinator.sh~1job-created-by") == "another-instance");
    CHECK(str(job, "/metadata/name") != str(parse(created[0]), "/metadata/name"));
}

TEST_CASE("evict: dryRun creates nothing and accepts", "[evict]") {
    EvictCase t;
    auto plugin = t.host.instantiate<MigrationController>(R"({"dryRun": true})");
    const kd_snapshot* s = t.b.build();
    kd::EvictOutcome out = plugin.evict(s, *kd::Snapshot(s).find_pod("default", "p"), "hot", "LowNodeLoad");
    CHECK(out.code == KD_EVICT_ACCEPTED);
    CHECK(t.host.writes().empty());
    CHECK(contains(t.host.logs(), "tries to evict Pod \"default/p\" via dryRun mode since hot"));
}

TEST_CASE("evict: a filtered pod is refused with the filter's reason", "[evict]") {
    struct Case {
        const char* name;
        std::function<void(PodSpec&)> setup;
        std::string reason;
    };
    std::vector<Case> cases = {
        {"scheduler not served", [](PodSpec& p) { p.scheduled_by("default-scheduler"); }, reason::kSchedulerName},
        {"system critical", [](PodSpec& p) { p.with_priority(2'000'000'000); }, reason::kSystemCritical},
        {"bare pod", [](PodSpec& p) { p.owners.clear(); }, reason::kBarePod},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            SnapshotBuilder b;
            base_cluster(b);
            c.setup(web_pod(b, "p"));
            FakeHost host;
            auto plugin = host.instantiate<MigrationController>("{}");
            const kd_snapshot* s = b.build();
            kd::EvictOutcome out = plugin.evict(s, *kd::Snapshot(s).find_pod("default", "p"), "r");
            CHECK(out.code == KD_EVICT_FILTERED);
            CHECK(out.reason == c.reason);
            CHECK(out.plugin == "MigrationController");
            CHECK(host.writes().empty());
        }
    }
}

TEST_CASE("evict: a created job counts before the cluster shows it", "[evict]") {
    SnapshotBuilder b;
    base_cluster(b);
    web_pod(b, "p");
    web_pod(b, "p2", "n2");
    web_pod(b, "p3", "n2");
    FakeHost host;
    auto plugin = host.instantiate<MigrationController>(R"({"maxMigratingGlobally": 2})");
    const kd_snapshot* s = b.build();
    kd::Snapshot snap(s);
    auto p = *snap.find_pod("default", "p");
    REQUIRE(plugin.evict(s, p, "r").code == KD_EVICT_ACCEPTED);
    // Same pod again in the same cycle: the job just created is the existing one.
    kd::EvictOutcome again = plugin.evict(s, p, "r");
    CHECK(again.code == KD_EVICT_FILTERED);
    CHECK(again.reason == reason::kExistingJob);
    CHECK(plugin.filter(s, p).reason == reason::kExistingJob);
    // It also counts in the limits: p2 makes two, p3 is over maxMigratingGlobally.
    REQUIRE(plugin.evict(s, *snap.find_pod("default", "p2"), "r").code == KD_EVICT_ACCEPTED);
    kd::EvictOutcome third = plugin.evict(s, *snap.find_pod("default", "p3"), "r");
    CHECK(third.code == KD_EVICT_FILTERED);
    CHECK(third.reason == reason::kMaxGlobally);
    CHECK(lines(host, "create ").size() == 2);

    // Once the cluster lists the job, it is not counted twice.
    auto created = lines(host, "create ");
    b.objects("PodMigrationJob", array({created[0], created[1]}));
    const kd_snapshot* s2 = b.build();
    kd::EvictOutcome later = plugin.evict(s2, *kd::Snapshot(s2).find_pod("default", "p3"), "r");
    CHECK(later.reason == reason::kMaxGlobally);
    b.objects("PodMigrationJob", array({created[0]}));  // one of them finished and was deleted
    const kd_snapshot* s3 = b.build();
    CHECK(plugin.evict(s3, *kd::Snapshot(s3).find_pod("default", "p3"), "r").code == KD_EVICT_ACCEPTED);
}

TEST_CASE("evict: a failed create is reported as failed", "[evict]") {
    EvictCase t;
    t.host.on_write = [](const std::string& what) {
        return what.rfind("create ", 0) == 0 ? std::string("etcd is down") : std::string();
    };
    auto plugin = t.host.instantiate<MigrationController>("{}");
    const kd_snapshot* s = t.b.build();
    auto p = *kd::Snapshot(s).find_pod("default", "p");
    kd::EvictOutcome out = plugin.evict(s, p, "r");
    CHECK(out.code == KD_EVICT_FAILED);
    CHECK(out.reason == "creating PodMigrationJob: etcd is down");
    // Nothing was created, so the pod is not blocked by a phantom job.
    t.host.on_write = [](const std::string&) { return std::string(); };
    CHECK(plugin.evict(s, p, "r").code == KD_EVICT_ACCEPTED);
}
