// The model's one delete path, remove(kind, key): every kind goes once, and a removed pod leaves
// every index (by UID, by name, by node, by owner) and the snapshot.
#include "cluster/cluster_model.hpp"
#include "cluster/cluster_snapshot.hpp"

#include <kdesched/view.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace kd::core;

namespace {

PodDraft pod_draft(std::string_view uid, std::string_view name, std::string_view node) {
    PodDraft d;
    d.meta.uid = uid;
    d.meta.ns = "shop";
    d.meta.name = name;
    d.meta.owners.push_back({"apps/v1", "ReplicaSet", "web-abc", "rs-1", true});
    d.bound.node_name = kd::to_kd(node);
    d.phase = "Running";
    return d;
}

// One object of every kind the model keeps, each under the key named in the test.
void fill(ClusterModel& m) {
    m.on_pod(pod_draft("pod-1", "web-1", "n1"));
    NodeDraft node;
    node.meta.uid = "node-1";
    node.meta.name = "n1";
    m.on_node(node);
    NodeMetricDraft metric;
    metric.meta.name = "n1";
    metric.pods.push_back({"shop", "web-1", {{"cpu", 100}}});
    metric.pods.push_back({"shop", "gone", {{"cpu", 100}}});
    m.on_node_metric(metric);
    for (auto [kind, uid] : {std::pair<std::string_view, std::string_view>{"ReplicaSet", "rs-1"},
                             {"Deployment", "dep-1"},
                             {"StatefulSet", "sts-1"}}) {
        WorkloadDraft w;
        w.kind = kind;
        w.meta.uid = uid;
        w.meta.ns = "shop";
        w.meta.name = "web";
        m.on_workload(w);
    }
    PodDisruptionBudgetDraft pdb;
    pdb.meta.uid = "pdb-1";
    pdb.meta.ns = "shop";
    pdb.meta.name = "web";
    m.on_pdb(pdb);
    NamespaceDraft ns;
    ns.meta.uid = "ns-1";
    ns.meta.name = "shop";
    m.on_namespace(ns);
    PriorityClassDraft pc;
    pc.meta.uid = "pc-1";
    pc.meta.name = "high";
    pc.value = 1000;
    m.on_priority_class(pc);
    PersistentVolumeClaimDraft pvc;
    pvc.meta.uid = "pvc-1";
    pvc.meta.ns = "shop";
    pvc.meta.name = "data";
    pvc.storage_class = "fast";
    m.on_pvc(pvc);
    SecretDraft secret;
    secret.meta.uid = "secret-1";
    secret.meta.ns = "shop";
    secret.meta.name = "token";
    m.on_secret(secret);
    PodMigrationJob job;
    job.uid = "job-1";
    job.name = "job";
    m.on_migration_job(job);
    Reservation r;
    r.uid = "resv-1";
    r.name = "resv";
    m.on_reservation(r);
}

}  // namespace

TEST_CASE("remove takes every kind by key once: true, then false, the revision moves on", "[model][remove]") {
    ClusterModel m;
    fill(m);
    const std::vector<std::pair<ObjectKind, std::string>> keys = {
        {ObjectKind::pod, "pod-1"},           {ObjectKind::node, "node-1"},      {ObjectKind::node_metric, "n1"},
        {ObjectKind::replica_set, "rs-1"},    {ObjectKind::deployment, "dep-1"}, {ObjectKind::stateful_set, "sts-1"},
        {ObjectKind::pdb, "pdb-1"},           {ObjectKind::namespace_, "ns-1"},  {ObjectKind::secret, "secret-1"},
        {ObjectKind::priority_class, "pc-1"}, {ObjectKind::pvc, "pvc-1"},        {ObjectKind::migration_job, "job-1"},
        {ObjectKind::reservation, "resv-1"},
    };
    for (const auto& [kind, key] : keys) {
        INFO(kind_name(kind) << " " << key);
        CHECK(m.keys_of(kind) == std::vector<std::string>{key});
        uint64_t before = m.revision();
        CHECK(m.remove(kind, key));
        CHECK(m.revision() > before);
        CHECK(m.keys_of(kind).empty());
        CHECK_FALSE(m.remove(kind, key));
    }
    CHECK(m.pod_by_uid("pod-1") == nullptr);
    CHECK(m.node_by_name("n1") == nullptr);
    CHECK(m.node_metric("n1") == nullptr);
    CHECK(m.workload_by_uid("dep-1") == nullptr);
    CHECK(m.pdbs().empty());
    CHECK(m.namespaces().empty());
    CHECK(m.priority_classes().empty());
    CHECK(m.pvcs().empty());
    CHECK(m.secret("shop", "token") == nullptr);
    CHECK(m.migration_job_by_name("job") == nullptr);
    CHECK(m.reservation_by_name("resv") == nullptr);
}

TEST_CASE("a removed pod leaves the indexes by UID, name, node and owner, and the snapshot", "[model][remove]") {
    ClusterModel m;
    m.on_pod(pod_draft("pod-1", "web-1", "n1"));
    m.on_pod(pod_draft("pod-2", "web-2", "n1"));
    REQUIRE(m.remove(ObjectKind::pod, "pod-1"));
    CHECK(m.pod_by_uid("pod-1") == nullptr);
    CHECK(m.pod_by_name("shop", "web-1") == nullptr);
    REQUIRE(m.pods_on_node("n1").size() == 1);
    CHECK(kd::Pod(m.pods_on_node("n1")[0]).name() == "web-2");
    REQUIRE(m.pods_by_owner("rs-1").size() == 1);
    CHECK(kd::Pod(m.pods_by_owner("rs-1")[0]).name() == "web-2");
    CHECK(m.pods().size() == 1);
    CHECK(m.pod_count() == 1);
    ClusterSnapshot snap(m, 0);
    kd::Snapshot s(&snap.raw());
    CHECK(s.pods().size() == 1);
    CHECK(s.pods_on_node("n1").size() == 1);
    CHECK_FALSE(s.find_pod("shop", "web-1"));
}

TEST_CASE("a workload is removed by UID whatever kind the remove names", "[model][remove]") {
    ClusterModel m;
    WorkloadDraft w;
    w.kind = "Job";
    w.meta.uid = "job-uid";
    w.meta.ns = "shop";
    w.meta.name = "batch";
    m.on_workload(w);
    CHECK(m.remove(ObjectKind::replica_set, "job-uid"));
    CHECK(m.workload_by_name("Job", "shop", "batch") == nullptr);
}

TEST_CASE("a NodeMetric's pod names survive their pods' removal and a compaction of the unique text",
          "[model][remove]") {
    ClusterModel m;
    NodeMetricDraft metric;
    metric.meta.name = "n1";
    std::vector<std::string> names;
    for (int i = 0; i < 20000; ++i) names.push_back("pod-" + std::to_string(i) + std::string(60, 'x'));
    for (int i = 0; i < 20000; ++i) {
        std::string uid = "uid-" + std::to_string(i) + std::string(60, 'y');
        m.on_pod(pod_draft(uid, names[i], "n1"));
        if (i % 2 == 0) metric.pods.push_back({"shop", names[i], {{"cpu", i}}});
    }
    m.on_node_metric(metric);  // shares the text of the pods it names
    for (int i = 0; i < 20000; ++i) m.remove(ObjectKind::pod, "uid-" + std::to_string(i) + std::string(60, 'y'));
    CHECK(m.pod_count() == 0);
    kd::NodeMetric nm(m.node_metric("n1"));
    REQUIRE(nm.pods().size() == 10000);
    for (size_t i = 0; i < nm.pods().size(); ++i) CHECK(nm.pods()[i].name() == names[2 * i]);
}
