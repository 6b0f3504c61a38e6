// Eviction execution (koord's evictor interpreter and `evictPod`): each policy and the per-pod
// label, the metric and events, failures, the evictQPS/evictBurst bucket, and the object limiters.
#include "pod_evictor.hpp"
#include "test_util.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

using namespace mc_test;
namespace reason = kd::plugins::migrationcontroller::reason;
using kd::plugins::migrationcontroller::Job;
using kd::plugins::migrationcontroller::PodEvictor;

namespace {

const std::string kReason = "node n1 is hot";

// A ReservationFirst job ready to evict: Running, its Reservation r1 seen and scheduled on n2.
std::string ready_to_evict(const std::string& pod = "p") {
    JobJson j("default", pod);
    j.phase("Running")
        .pod_uid("uid-pod-default-" + pod)
        .reservation("r1")
        .cond("ReservationCreated", "True")
        .annotation("koordinator.sh/evict-reason", kReason)
        .annotation("koordinator.sh/evict-trigger", "LowNodeLoad");
    return j.json();
}
std::string scheduled_reservation() {
    return ReservationJson("r1").scheduled_on("n2").json();
}

// An EvictDirectly job Running for default/<pod>.
JobJson direct(const std::string& pod) {
    JobJson j("default", pod);
    j.mode("EvictDirectly").phase("Running").pod_uid("uid-pod-default-" + pod);
    return j;
}

std::string join(const std::vector<std::string>& objects) {
    std::string out = "[";
    for (const auto& o : objects) out += (out.size() > 1 ? "," : "") + o;
    return out + "]";
}

std::vector<std::string> evicted(const FakeHost& host) {
    std::vector<std::string> out;
    for (const auto& e : host.cluster_evictions()) out.push_back(e.pod);
    return out;
}

}  // namespace

TEST_CASE("eviction: each policy, and the per-pod label overriding it", "[eviction]") {
    enum class Via { eviction, del, soft };
    struct Case {
        const char* name;
        std::string args;
        std::string label;      // koordinator.sh/evict-policy on the pod ("" = none)
        std::string job_label;  // ... and on the PodMigrationJob
        Via via;
        std::string delete_options;      // expected in the soft-eviction JSON ("" = absent)
        std::string job_delete_options;  // the job's own spec.deleteOptions ("" = none)
    };
    std::vector<Case> cases = {
        {"Eviction (default)", "{}", "", "", Via::eviction, "", ""},
        {"Delete", R"({"evictionPolicy": "Delete"})", "", "", Via::del, "", ""},
        {"SoftEviction", R"({"evictionPolicy": "SoftEviction"})", "", "", Via::soft, "", ""},
        {"SoftEviction with defaultDeleteOptions",
         R"({"evictionPolicy": "SoftEviction", "defaultDeleteOptions": {"gracePeriodSeconds": 5}})", "", "", Via::soft,
         R"({"gracePeriodSeconds":5})", ""},
        {"SoftEviction: the job's deleteOptions win",
         R"({"evictionPolicy": "SoftEviction", "defaultDeleteOptions": {"gracePeriodSeconds": 5}})", "", "", Via::soft,
         R"({"gracePeriodSeconds":0})", R"({"gracePeriodSeconds":0})"},
        {"label Delete over Eviction", "{}", "Delete", "", Via::del, "", ""},
        {"label SoftEviction over Delete", R"({"evictionPolicy": "Delete"})", "SoftEviction", "", Via::soft, "", ""},
        {"job label Delete over Eviction", "{}", "", "Delete", Via::del, "", ""},
        {"pod label over job label", "{}", "SoftEviction", "Delete", Via::soft, "", ""},
        {"label Eviction over SoftEviction", R"({"evictionPolicy": "SoftEviction"})", "Eviction", "", Via::eviction, "",
         ""},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            SnapshotBuilder b;
            base_cluster(b);
            auto& p = web_pod(b, "p");
            if (!c.label.empty()) p.label("koordinator.sh/evict-policy", c.label);
            auto d = parse(ready_to_evict());
            if (!c.job_delete_options.empty()) {
                rapidjson::Document opts = parse(c.job_delete_options);
                rapidjson::Pointer("/spec/deleteOptions").Set(d, rapidjson::Value(opts, d.GetAllocator()));
            }
            if (!c.job_label.empty())
                rapidjson::Pointer("/metadata/labels/koordinator.sh~1evict-policy")
                    .Set(d, rapidjson::Value(c.job_label.c_str(), d.GetAllocator()));
            std::string job = to_json(d);
            b.objects("PodMigrationJob", join({job}));
            b.objects("Reservation", join({scheduled_reservation()}));
            FakeHost host;
            auto plugin = host.instantiate<MigrationController>(c.args);
            plugin.tick(b.build());

            auto deletes = lines(host, "delete-pod ");
            auto annotations = lines(host, "annotate ");
            CHECK(evicted(host).size() == (c.via == Via::eviction ? 1u : 0u));
            CHECK(deletes.size() == (c.via == Via::del ? 1u : 0u));
            CHECK(annotations.size() == (c.via == Via::soft ? 1u : 0u));
            if (c.via == Via::eviction) {
                CHECK(host.cluster_evictions()[0].pod == "default/p");
                CHECK(host.cluster_evictions()[0].reason == kReason);
            }
            if (c.via == Via::del) CHECK(deletes[0] == "default/p " + kReason);
            if (c.via == Via::soft) {
                const std::string prefix = "default/p scheduling.koordinator.sh/soft-eviction=";
                REQUIRE(annotations[0].rfind(prefix, 0) == 0);
                auto soft = parse(annotations[0].substr(prefix.size()));
                CHECK(str(soft, "/timestamp") == kd::format_rfc3339(kT0));
                CHECK(str(soft, "/initiator") == "LowNodeLoad");
                CHECK(str(soft, "/reason") == kReason);
                if (c.delete_options.empty())
                    CHECK_FALSE(has(soft, "/deleteOptions"));
                else
                    CHECK(to_json(*at(soft, "/deleteOptions")) == c.delete_options);
            }
            CHECK(host.counted_evictions() ==
                  std::vector<std::string>{"result=success strategy=LowNodeLoad namespace=default node=n1"});
            CHECK(contains(lines(host, "event "),
                           "Pod default/p Normal Descheduled Migrating: Pod evicted from node "
                           "\"n1\" by the reason \"" +
                               kReason + "\""));
            auto j = last_job_update(host, "job-p");
            auto e = condition(j, "Eviction");
            REQUIRE(e);
            CHECK(e->status == "False");
            CHECK(e->reason == "Evicting");
            CHECK(e->message == "Pod \"default/p\" evicted from node \"n1\" by the reason \"" + kReason + "\"");
            CHECK(str(j, "/status/phase") == "Running");
            CHECK(contains(lines(host, "event "), "PodMigrationJob /job-p Normal Evicting Migrating: " + e->message));
        }
    }
}

TEST_CASE("eviction: a failed eviction is counted, reported and retried", "[eviction]") {
    SnapshotBuilder b;
    base_cluster(b);
    web_pod(b, "p");
    b.objects("PodMigrationJob", join({direct("p").annotation("koordinator.sh/evict-trigger", "LowNodeLoad").json()}));
    FakeHost host;
    host.on_evict_pod = [](const kd::Pod&) { return std::string("the PodDisruptionBudget forbids it"); };
    auto plugin = host.instantiate<MigrationController>("{}");
    CHECK(plugin.tick(b.build()) == kT0 + 1000);
    CHECK(host.counted_evictions() ==
          std::vector<std::string>{"result=error strategy=LowNodeLoad namespace=default node=n1"});
    CHECK(contains(lines(host, "event "),
                   "PodMigrationJob /job-p Warning Evicting Migrating: Failed to evict Pod "
                   "\"default/p\": the PodDisruptionBudget forbids it"));
    CHECK_FALSE(contains(lines(host, "event "), "Descheduled"));
    CHECK(job_updates(host).empty());  // no Eviction condition
    CHECK(contains(host.logs(), "evicting Pod \"default/p\": the PodDisruptionBudget forbids it"));

    host.on_evict_pod = [](const kd::Pod&) { return std::string(); };
    host.clear();
    b.set_now(kT0 + 1000);
    plugin.tick(b.build());
    CHECK(evicted(host) == std::vector<std::string>{"default/p"});
}

TEST_CASE("eviction: the reason shown is evict-reason, else evict-trigger, else NotSet", "[eviction]") {
    struct Case {
        std::string reason, trigger, want;
    };
    for (const Case& c :
         std::vector<Case>{{"hot", "LowNodeLoad", "hot"}, {"", "LowNodeLoad", "LowNodeLoad"}, {"", "", "NotSet"}}) {
        JobJson j("default", "p");
        if (!c.reason.empty()) j.annotation("koordinator.sh/evict-reason", c.reason);
        if (!c.trigger.empty()) j.annotation("koordinator.sh/evict-trigger", c.trigger);
        auto d = parse(j.json());
        CHECK(PodEvictor::reason_of(Job(d)) == c.want);
    }
}

TEST_CASE("eviction: evictQPS / evictBurst", "[eviction]") {
    struct Case {
        const char* name;
        std::string args;
        // Ticks: time offset → pods evicted in that tick.
        std::vector<std::pair<int64_t, std::vector<std::string>>> ticks;
    };
    std::vector<Case> cases = {
        {"qps 1, burst 1",
         R"({"evictQPS": 1, "evictBurst": 1})",
         {{0, {"default/a"}}, {500, {}}, {1000, {"default/b"}}}},
        {"qps \"0.5\", burst 1",
         R"({"evictQPS": "0.5", "evictBurst": 1})",
         {{0, {"default/a"}}, {1000, {}}, {2000, {"default/b"}}}},
        {"qps 1, burst 2", R"({"evictQPS": 1, "evictBurst": 2})", {{0, {"default/a", "default/b"}}}},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            SnapshotBuilder b;
            base_cluster(b);
            // Two workloads, so the object limiters stay out of the way.
            b.pod("default", "a").on("n1").owner("ReplicaSet", "rs-a").scheduled_by("koord-scheduler");
            b.pod("default", "b").on("n1").owner("ReplicaSet", "rs-b").scheduled_by("koord-scheduler");
            b.objects("PodMigrationJob", join({direct("a").json(), direct("b").json()}));
            FakeHost host;
            auto plugin = host.instantiate<MigrationController>(c.args);
            for (const auto& [offset, want] : c.ticks) {
                host.clear();
                b.set_now(kT0 + offset);
                plugin.tick(b.build());
                INFO("at +" << offset << " ms");
                CHECK(evicted(host) == want);
                if (want.empty()) CHECK(job_updates(host).empty());
            }
        }
    }
    SECTION("a refused eviction is a TooManyEvictions error") {
        SnapshotBuilder b;
        base_cluster(b);
        b.pod("default", "a").on("n1").owner("ReplicaSet", "rs-a");
        b.pod("default", "b").on("n1").owner("ReplicaSet", "rs-b");
        b.objects("PodMigrationJob", join({direct("a").json(), direct("b").json()}));
        FakeHost host;
        auto plugin = host.instantiate<MigrationController>(R"({"evictQPS": 1})");
        plugin.tick(b.build());
        CHECK(contains(lines(host, "event "),
                       "PodMigrationJob /job-b Warning Evicting Migrating: Failed to evict Pod \"default/b\": "
                       "TooManyEvictions"));
        CHECK(job_updates(host, "job-b").empty());
        CHECK(host.counted_evictions().size() == 1);  // the refusal is not an eviction attempt
    }
}

TEST_CASE("eviction: object limiters", "[eviction]") {
    struct Case {
        const char* name;
        std::string args;
        std::vector<std::string> jobs;  // Running EvictDirectly jobs, in list order
        std::vector<std::string> want;  // evicted in the first tick
    };
    auto with_evict = [](const std::string& pod) {
        return direct(pod).annotation("descheduler.alpha.kubernetes.io/evict", "true").json();
    };
    // evictBurst 5 keeps the evictQPS bucket out of the way.
    std::vector<Case> cases = {
        {"default workload limiter: one per workload at once",
         R"({"evictBurst": 5})",
         {direct("w1").json(), direct("w2").json()},
         {"default/w1"}},
        {"the PMJ's evict annotation bypasses the limiter",
         R"({"evictBurst": 5})",
         {direct("w1").json(), with_evict("w2")},
         {"default/w1", "default/w2"}},
        {"other workloads are not limited",
         R"({"evictBurst": 5})",
         {direct("w1").json(), direct("o1").json()},
         {"default/w1", "default/o1"}},
        {"workload limiter burst 2",
         R"({"evictBurst": 5, "objectLimiters": {"workload": {"duration": "5m", "burst": 2}}})",
         {direct("w1").json(), direct("w2").json(), direct("w3").json()},
         {"default/w1", "default/w2"}},
        {"a zero duration disables the limiter",
         R"({"evictBurst": 5, "objectLimiters": {"workload": {"duration": "0s"}}})",
         {direct("w1").json(), direct("w2").json()},
         {"default/w1", "default/w2"}},
        {"namespace limiter",
         R"({"evictBurst": 5, "objectLimiters": {"namespace": {"duration": "1m", "maxMigrating": 1}}})",
         {direct("w1").json(), direct("o1").json()},
         {"default/w1"}},
        // Object-limiter quirk: a limiter whose budget is 0 stops the feeding, and "namespace"
        // sorts before "workload", so the workload limiter is never fed here.
        {"a namespace limiter without maxMigrating starves the workload limiter",
         R"({"evictBurst": 5, "objectLimiters": {"namespace": {"duration": "1m"}, "workload": {"duration": "5m"}}})",
         {direct("w1").json(), direct("w2").json()},
         {"default/w1", "default/w2"}},
    };
    for (const auto& c : cases) {
        SECTION(c.name) {
            SnapshotBuilder b;
            base_cluster(b);
            for (auto name : {"w1", "w2", "w3"}) web_pod(b, name, "n2");
            b.pod("default", "o1").on("n2").owner("ReplicaSet", "other-rs").scheduled_by("koord-scheduler");
            b.workload("ReplicaSet", "default", "other-rs", 6);
            b.objects("PodMigrationJob", join(c.jobs));
            FakeHost host;
            auto plugin = host.instantiate<MigrationController>(c.args);
            plugin.tick(b.build());
            CHECK(evicted(host) == c.want);
        }
    }
}

TEST_CASE("eviction: an exhausted workload limiter requeues, refuses new jobs, and refills", "[eviction]") {
    SnapshotBuilder b;
    base_cluster(b);  // web: 6 replicas → 2 migrations per 5m, burst 1
    for (auto name : {"w1", "w2", "w3"}) web_pod(b, name, "n2");
    std::vector<std::string> jobs = {direct("w1").json(), direct("w2").json()};
    b.objects("PodMigrationJob", join(jobs));
    FakeHost host;
    auto plugin = host.instantiate<MigrationController>(R"({"evictBurst": 5})");
    plugin.tick(b.build());
    CHECK(evicted(host) == std::vector<std::string>{"default/w1"});
    CHECK(job_updates(host, "job-w2").empty());  // requeued, unchanged

    // The evict hook refuses a new job for the workload while its limiter is empty.
    b.objects("PodMigrationJob", "[]");
    const kd_snapshot* s = b.build();
    kd::EvictOutcome out = plugin.evict(s, *kd::Snapshot(s).find_pod("default", "w3"), "r");
    CHECK(out.code == KD_EVICT_FILTERED);
    CHECK(out.reason == reason::kObjectLimiter);

    // 3 s later still empty: requeued again.
    host.clear();
    b.objects("PodMigrationJob", join({direct("w2").json()}));
    b.set_now(kT0 + 3000);
    CHECK(plugin.tick(b.build()) == kT0 + 6000);
    CHECK(evicted(host).empty());

    // After 150 s (2 tokens per 5 minutes) a token is back.
    host.clear();
    b.set_now(kT0 + 151'000);
    plugin.tick(b.build());
    CHECK(evicted(host) == std::vector<std::string>{"default/w2"});
}
