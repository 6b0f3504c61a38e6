// The model's digest (GET /debug/model, `kdesched snapshot --digest`): equal for models that read
// the same objects in any order or through any history of updates, different in exactly the kind
// of an object whose kept field differs.
#include "cluster/cluster_model.hpp"
#include "cluster/decode/api_objects.hpp"
#include "cluster/model_digest.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace kd::core;

namespace {

// One object of every kind the digest covers, each on a line.
const std::vector<std::string> kObjects = {
    R"({"apiVersion":"v1","kind":"Node","metadata":{"uid":"n1","name":"n1","labels":{"zone":"a"}},"spec":{"taints":[{"key":"k","value":"v","effect":"NoSchedule"}]},"status":{"allocatable":{"cpu":"8","memory":"32Gi"},"conditions":[{"type":"Ready","status":"True"}]}})",
    R"({"apiVersion":"v1","kind":"Pod","metadata":{"uid":"p1","namespace":"shop","name":"web-1","labels":{"app":"web"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-rs","uid":"rs1","controller":true}]},"spec":{"nodeName":"n1","containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]},"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}})",
    R"({"apiVersion":"v1","kind":"Pod","metadata":{"uid":"p2","namespace":"shop","name":"web-2","labels":{"app":"web"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-rs","uid":"rs1","controller":true}]},"spec":{"nodeName":"n1","containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]},"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}],"containerStatuses":[{"name":"c","restartCount":1,"state":{"running":{}}}]}})",
    R"({"apiVersion":"slo.koordinator.sh/v1alpha1","kind":"NodeMetric","metadata":{"name":"n1"},"status":{"updateTime":"2026-11-26T10:00:00Z","nodeMetric":{"nodeUsage":{"resources":{"cpu":"2","memory":"4Gi"}}},"podsMetric":[{"namespace":"shop","name":"web-1","podUsage":{"resources":{"cpu":"1"}}}]}})",
    R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"uid":"rs1","namespace":"shop","name":"web-rs","ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"web","uid":"d1","controller":true}]},"spec":{"replicas":2},"status":{"readyReplicas":2}})",
    R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"uid":"d1","namespace":"shop","name":"web"},"spec":{"replicas":2},"status":{"readyReplicas":2}})",
    R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"uid":"b1","namespace":"shop","name":"web"},"spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"web"}}},"status":{"disruptionsAllowed":1}})",
    R"({"apiVersion":"v1","kind":"Namespace","metadata":{"uid":"ns1","name":"shop","labels":{"team":"a"}}})",
    R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"PodMigrationJob","metadata":{"uid":"j1","name":"j1","resourceVersion":"7"},"spec":{"podRef":{"namespace":"shop","name":"web-1","uid":"p1"},"mode":"ReservationFirst"},"status":{"phase":"Running"}})",
    R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"Reservation","metadata":{"uid":"r1","name":"r1","resourceVersion":"8"},"spec":{"template":{"spec":{"containers":[{"name":"c"}]}},"owners":[{"object":{"namespace":"shop","name":"web-1","uid":"p1"}}]},"status":{"phase":"Available","nodeName":"n1"}})",
    R"({"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"uid":"pc1","name":"high"},"value":1000})",
    R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"uid":"c1","namespace":"shop","name":"data"},"spec":{"storageClassName":"fast"}})",
};

void feed(ClusterModel& model, const std::vector<std::string>& objects) {
    for (const auto& o : objects) {
        std::string text = o;
        auto problem = decode_api_objects(text.data(), text.size(), "test", "", "", model);
        REQUIRE_FALSE(problem);
    }
}

std::map<std::string, KindDigest> digest_of(const std::vector<std::string>& objects) {
    ClusterModel model;
    feed(model, objects);
    return digest_model(model);
}

// The kinds whose digest differs.
std::vector<std::string> differing(const std::map<std::string, KindDigest>& a,
                                   const std::map<std::string, KindDigest>& b) {
    std::vector<std::string> out;
    for (const auto& [kind, d] : a)
        if (b.at(kind) != d) out.push_back(kind);
    return out;
}

std::vector<std::string> with(std::vector<std::string> objects, size_t i, const std::string& from,
                              const std::string& to) {
    auto at = objects[i].find(from);
    REQUIRE(at != std::string::npos);
    objects[i].replace(at, from.size(), to);
    return objects;
}

}  // namespace

TEST_CASE("the digest counts every kind and does not depend on the order objects arrived in", "[model][digest]") {
    auto forward = digest_of(kObjects);
    std::vector<std::string> backward(kObjects.rbegin(), kObjects.rend());
    CHECK(digest_of(backward) == forward);
    CHECK(forward.at("Pod").count == 2);
    CHECK(forward.at("Node").count == 1);
    CHECK(forward.at("NodeMetric").count == 1);
    CHECK(forward.at("ReplicaSet").count == 1);
    CHECK(forward.at("Deployment").count == 1);
    CHECK(forward.at("StatefulSet").count == 0);
    CHECK(forward.at("PodDisruptionBudget").count == 1);
    CHECK(forward.at("Namespace").count == 1);
    CHECK(forward.at("PodMigrationJob").count == 1);
    CHECK(forward.at("Reservation").count == 1);
    CHECK(forward.at("PriorityClass").count == 1);
    CHECK(forward.at("PersistentVolumeClaim").count == 1);
    CHECK(forward.count("Secret") == 0);  // read on demand, never listed
    CHECK(forward.at("Pod").digest.size() == 32);
}

TEST_CASE("a changed field changes the digest of its kind only", "[model][digest]") {
    auto base = digest_of(kObjects);
    struct Case {
        size_t object;
        std::string from, to, kind;
    };
    for (const auto& c : std::vector<Case>{
             {0, R"("zone":"a")", R"("zone":"b")", "Node"},
             {0, R"("effect":"NoSchedule")", R"("effect":"NoExecute")", "Node"},
             {1, R"("type":"Ready","status":"True")", R"("type":"Ready","status":"False")", "Pod"},
             {1, R"("nodeName":"n1")", R"("nodeName":"n2")", "Pod"},
             {2, R"("cpu":"1")", R"("cpu":"2")", "Pod"},
             {2, R"("restartCount":1)", R"("restartCount":2)", "Pod"},
             {2, R"("running":{})", R"("waiting":{"reason":"CrashLoopBackOff"})", "Pod"},
             {2, R"("phase":"Running")", R"("phase":"Running","reason":"NodeLost")", "Pod"},
             // Bound rows (cluster/schema/object_schema.hpp): a kd_pod member and a kd_pod_spec one.
             {2, R"("phase":"Running")", R"("phase":"Running","startTime":"2026-11-26T10:00:00Z")", "Pod"},
             {2, R"("nodeName":"n1")", R"("nodeName":"n1","priorityClassName":"koord-batch")", "Pod"},
             {3, R"("updateTime":"2026-11-26T10:00:00Z")", R"("updateTime":"2026-11-26T10:00:01Z")", "NodeMetric"},
             {3, R"("podUsage":{"resources":{"cpu":"1"}})", R"("podUsage":{"resources":{"cpu":"3"}})", "NodeMetric"},
             {4, R"("readyReplicas":2)", R"("readyReplicas":1)", "ReplicaSet"},
             {5, R"("replicas":2)", R"("replicas":3)", "Deployment"},
             {6, R"("minAvailable":1)", R"("minAvailable":"50%")", "PodDisruptionBudget"},
             {7, R"("team":"a")", R"("team":"b")", "Namespace"},
             {8, R"("phase":"Running")", R"("phase":"Succeeded")", "PodMigrationJob"},
             {8, R"("resourceVersion":"7")", R"("resourceVersion":"9")", "PodMigrationJob"},
             {9, R"("phase":"Available")", R"("phase":"Succeeded")", "Reservation"},
             {10, R"("value":1000)", R"("value":1001)", "PriorityClass"},
             {10, R"("name":"high")", R"("name":"higher")", "PriorityClass"},
             {11, R"("storageClassName":"fast")", R"("storageClassName":"slow")", "PersistentVolumeClaim"},
             {11, R"("namespace":"shop")", R"("namespace":"shop2")", "PersistentVolumeClaim"},
         }) {
        INFO(c.from << " -> " << c.to);
        CHECK(differing(base, digest_of(with(kObjects, c.object, c.from, c.to))) == std::vector<std::string>{c.kind});
    }
}

TEST_CASE("a pod's startTime changes the pod digest", "[model][digest]") {
    auto started = with(kObjects, 1, R"("phase":"Running")", R"("phase":"Running","startTime":"2026-11-26T10:00:00Z")");
    auto later = with(kObjects, 1, R"("phase":"Running")", R"("phase":"Running","startTime":"2026-11-26T10:00:01Z")");
    CHECK(differing(digest_of(started), digest_of(later)) == std::vector<std::string>{"Pod"});
    CHECK(digest_of(started) == digest_of(started));
}

TEST_CASE("a model updated and trimmed by watch events has the digest of a fresh read of the same objects",
          "[model][digest]") {
    ClusterModel watched;
    feed(watched, kObjects);
    // The pod goes unready and back, the job moves on, a pod comes and goes.
    feed(watched, {with(kObjects, 1, R"("status":"True")", R"("status":"False")")[1]});
    feed(watched, {kObjects[1]});
    auto job_done = with(kObjects, 8, R"("phase":"Running")", R"("phase":"Succeeded")");
    feed(watched, {job_done[8]});
    feed(watched, {with(kObjects, 2, R"("uid":"p2","namespace":"shop","name":"web-2")",
                        R"("uid":"p3","namespace":"shop","name":"web-3")")[2]});
    REQUIRE(watched.remove(ObjectKind::pod, "p3"));

    CHECK(digest_model(watched) == digest_of(job_done));
    CHECK(digest_model(watched) != digest_of(kObjects));
}

TEST_CASE("the digest's JSON names each kind with its count and digest", "[model][digest]") {
    std::map<std::string, KindDigest> d{{"Node", {1, "00000000000000010000000000000002"}}, {"Pod", {0, "0"}}};
    CHECK(
        digest_json(d) ==
        R"({"kinds":{"Node":{"count":1,"digest":"00000000000000010000000000000002"},"Pod":{"count":0,"digest":"0"}}})");
}
