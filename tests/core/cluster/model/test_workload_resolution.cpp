// kd_snapshot.pod_workload: Kubernetes' controller finder over the model (as koord's
// controllerfinder).
#include "cluster/cluster_model.hpp"
#include "cluster/cluster_snapshot.hpp"
#include "cluster/decode/snapshot_files.hpp"

#include <kdesched/view.hpp>

#include <catch2/catch.hpp>

#include <algorithm>

using namespace kd::core;

namespace {

std::string owner(const std::string& kind, const std::string& name, const std::string& uid) {
    std::string api = kind == "Job" ? "batch/v1" : "apps/v1";
    return R"([{"apiVersion":")" + api + R"(","kind":")" + kind + R"(","name":")" + name + R"(","uid":")" + uid +
           R"(","controller":true}])";
}

std::string owned_pod(const std::string& name, const std::string& owners) {
    return R"({"apiVersion":"v1","kind":"Pod","metadata":{"namespace":"shop","name":")" + name + R"(","uid":"pod-)" +
           name + R"(","ownerReferences":)" + owners +
           R"(},"spec":{"nodeName":"node-1","containers":[{"name":"c"}]},"status":{"phase":"Running"}})";
}

std::string workload(const std::string& kind, const std::string& name, const std::string& uid, int replicas,
                     const std::string& owners = "[]") {
    std::string api = kind == "Job" ? "batch/v1" : "apps/v1";
    std::string spec = kind == "Job" ? R"("parallelism":)" : R"("replicas":)";
    return R"({"apiVersion":")" + api + R"(","kind":")" + kind + R"(","metadata":{"namespace":"shop","name":")" + name +
           R"(","uid":")" + uid + R"(","ownerReferences":)" + owners + R"(},"spec":{)" + spec +
           std::to_string(replicas) + "}}";
}

struct Fixture {
    ClusterModel model;
    Fixture() {
        std::string items =
            workload("Deployment", "web", "dep-web", 5) + "," +
            workload("ReplicaSet", "web-old", "rs-old", 1, owner("Deployment", "web", "dep-web")) + "," +
            workload("ReplicaSet", "web-new", "rs-new", 4, owner("Deployment", "web", "dep-web")) + "," +
            workload("ReplicaSet", "lone", "rs-lone", 2) + "," + workload("StatefulSet", "db", "sts-db", 3) + "," +
            workload("Job", "batch", "job-b", 4) + "," +
            owned_pod("web-old-1", owner("ReplicaSet", "web-old", "rs-old")) + "," +
            owned_pod("web-new-1", owner("ReplicaSet", "web-new", "rs-new")) + "," +
            owned_pod("web-new-2", owner("ReplicaSet", "web-new", "rs-new")) + "," +
            owned_pod("lone-1", owner("ReplicaSet", "lone", "rs-lone")) + "," +
            owned_pod("db-0", owner("StatefulSet", "db", "sts-db")) + "," +
            owned_pod("db-1", owner("StatefulSet", "db", "sts-db")) + "," +
            owned_pod("batch-1", owner("Job", "batch", "job-b")) + "," +
            owned_pod("ghost-1", owner("ReplicaSet", "ghost", "rs-ghost")) + "," + owned_pod("bare", "[]");
        load_cluster_text(R"({"apiVersion":"v1","kind":"List","items":[)" + items + "]}", "workloads.json", model);
    }
};

struct Resolved {
    bool found = false;
    std::string kind, name, uid;
    int32_t replicas = 0;
    std::vector<std::string> pods;
};

Resolved resolve(const ClusterModel& model, const std::string& pod_name) {
    auto snap = std::make_unique<ClusterSnapshot>(model, 0);
    kd::Snapshot s(&snap->raw());
    auto p = s.find_pod("shop", pod_name);
    REQUIRE(p);
    Resolved r;
    auto w = s.workload_of(*p);
    if (!w) return r;
    r = {true, std::string(w->kind()), std::string(w->name()), std::string(w->uid()), w->replicas(), {}};
    for (auto q : w->pods()) r.pods.push_back(std::string(q.name()));
    std::sort(r.pods.begin(), r.pods.end());
    return r;
}

}  // namespace

TEST_CASE("a ReplicaSet's pod resolves to its Deployment, with the pods of every ReplicaSet of it", "[workload]") {
    Fixture f;
    for (const char* name : {"web-old-1", "web-new-2"}) {
        Resolved r = resolve(f.model, name);
        REQUIRE(r.found);
        CHECK(r.kind == "Deployment");
        CHECK(r.name == "web");
        CHECK(r.uid == "dep-web");
        CHECK(r.replicas == 5);  // the Deployment's, not the ReplicaSet's
        CHECK(r.pods == std::vector<std::string>{"web-new-1", "web-new-2", "web-old-1"});
    }
}

TEST_CASE("StatefulSet, Job and an unowned ReplicaSet resolve to themselves", "[workload]") {
    Fixture f;
    Resolved db = resolve(f.model, "db-1");
    CHECK((db.kind == "StatefulSet" && db.replicas == 3));
    CHECK(db.pods == std::vector<std::string>{"db-0", "db-1"});
    Resolved job = resolve(f.model, "batch-1");
    CHECK((job.kind == "Job" && job.replicas == 4));  // spec.parallelism
    Resolved lone = resolve(f.model, "lone-1");
    CHECK((lone.kind == "ReplicaSet" && lone.name == "lone" && lone.replicas == 2));
    CHECK(lone.pods == std::vector<std::string>{"lone-1"});
}

TEST_CASE("a bare pod or one whose controller is unknown has no workload", "[workload]") {
    Fixture f;
    CHECK_FALSE(resolve(f.model, "bare").found);
    CHECK_FALSE(resolve(f.model, "ghost-1").found);
}
