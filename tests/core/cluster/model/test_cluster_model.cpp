// The cluster model fed incrementally (add, update, delete by UID) and the snapshot built from it.
#include "cluster/cluster_model.hpp"
#include "cluster/cluster_snapshot.hpp"
#include "cluster/pod_derivations.hpp"

#include <kdesched/view.hpp>

#include <catch2/catch.hpp>

using namespace kd::core;

namespace {

// A pod draft whose strings live in the test (drafts hold views).
struct PodSpecForTest {
    std::string uid, ns, name, node, owner_uid = "rs-1", owner_name = "web-abc";
    std::string cpu_name = "cpu";
    int64_t cpu_milli = 500;
    PodDraft draft() const {
        PodDraft d;
        d.meta.uid = uid;
        d.meta.ns = ns;
        d.meta.name = name;
        d.meta.creation_ms = 1000;
        d.meta.labels = {{"app", "web"}};
        d.meta.owners.push_back({"apps/v1", "ReplicaSet", owner_name, owner_uid, true});
        d.bound.node_name = kd::to_kd(node);
        d.phase = "Running";
        d.containers.push_back({{{cpu_name, cpu_milli}}, {}});
        d.conditions.push_back({"Ready", "True", "", "", std::nullopt});
        return d;
    }
};

std::vector<std::string> names(const std::vector<const kd_pod*>& pods) {
    std::vector<std::string> out;
    for (auto* p : pods) out.push_back(kd::Pod(p).key());
    std::sort(out.begin(), out.end());
    return out;
}

// Views of string literals: drafts hold views, and literals outlive every call.
NodeDraft node_draft(std::string_view name, std::string_view uid) {
    NodeDraft n;
    n.meta.uid = uid;
    n.meta.name = name;
    n.allocatable = {{"cpu", 4000}, {"memory", 8LL << 30 << 10}};
    return n;
}

}  // namespace

TEST_CASE("pods are added, found by UID, name, node and owner", "[model]") {
    ClusterModel m;
    PodSpecForTest a{"u1", "default", "web-1", "n1"}, b{"u2", "default", "web-2", "n2"};
    m.on_pod(a.draft());
    m.on_pod(b.draft());
    CHECK(m.pod_count() == 2);
    REQUIRE(m.pod_by_uid("u1"));
    CHECK(kd::Pod(m.pod_by_uid("u1")).name() == "web-1");
    CHECK(kd::Pod(m.pod_by_name("default", "web-2")).uid() == "u2");
    CHECK(m.pod_by_name("other", "web-2") == nullptr);
    CHECK(names(m.pods_on_node("n1")) == std::vector<std::string>{"default/web-1"});
    CHECK(names(m.pods_by_owner("rs-1")) == std::vector<std::string>{"default/web-1", "default/web-2"});
    kd::Pod p(m.pod_by_uid("u1"));
    CHECK(p.requests().milli("cpu") == 500);
    CHECK(p.ready());
    CHECK(p.phase() == KD_POD_RUNNING);
    CHECK(p.qos_class() == KD_QOS_BURSTABLE);
    CHECK(p.labels().get("app") == "web");
    // Pods of one template share their interned spec.
    CHECK(m.pod_by_uid("u1")->spec == m.pod_by_uid("u2")->spec);
}

TEST_CASE("a pod's status reason and container statuses reach the plugin view (API 1.3)", "[model]") {
    ClusterModel m;
    PodSpecForTest a{"u1", "default", "web-1", "n1"};
    PodDraft d = a.draft();
    d.bound.status_reason = kd::to_kd("Evicted");
    d.container_statuses.push_back({KD_CONTAINER_APP, KD_CONTAINER_STATE_WAITING, 4, 0, "app", "CrashLoopBackOff"});
    d.container_statuses.push_back({KD_CONTAINER_INIT, KD_CONTAINER_STATE_TERMINATED, 0, 3, "setup", "Error"});
    m.on_pod(d);
    kd::Pod p(m.pod_by_uid("u1"));
    CHECK(p.status_reason() == "Evicted");
    std::vector<std::string> seen;
    for (auto c : p.container_statuses())
        seen.push_back(std::to_string(c.kind()) + " " + std::string(c.name()) + " " +
                       std::to_string(c.restart_count()) + " " + std::to_string(c.state()) + " " +
                       std::string(c.reason()) + " " + std::to_string(c.exit_code()));
    CHECK(seen == std::vector<std::string>{"0 app 4 1 CrashLoopBackOff 0", "1 setup 0 3 Error 3"});
    CHECK(p.container_statuses().begin() != p.container_statuses().end());
    // A plugin on an older host (a kd_pod without the 1.3 fields) sees none.
    kd_pod old = *m.pod_by_uid("u1");
    old.struct_size = offsetof(kd_pod, status_reason);
    CHECK(kd::Pod(&old).status_reason().empty());
    CHECK(kd::Pod(&old).container_statuses().size() == 0);
}

TEST_CASE("a pod's start time reaches the plugin view (API 1.4), an older host's has none", "[model]") {
    ClusterModel m;
    PodSpecForTest a{"u1", "default", "web-1", "n1"}, b{"u2", "default", "web-2", "n1"};
    PodDraft d = a.draft();
    d.bound.start_time_ms = 1795168805000;
    d.bound_spec.priority_class_name = kd::to_kd("koord-batch");
    m.on_pod(d);
    m.on_pod(b.draft());
    kd::Pod p(m.pod_by_uid("u1"));
    CHECK(p.start_ms() == 1795168805000);
    CHECK(p.priority_class_name() == "koord-batch");
    CHECK(kd::Pod(m.pod_by_uid("u2")).start_ms() == 0);
    CHECK(kd::Pod(m.pod_by_uid("u2")).priority_class_name().empty());
    // A bound kd_pod_spec member is part of the spec's content: the two pods do not share one.
    CHECK(m.pod_by_uid("u1")->spec != m.pod_by_uid("u2")->spec);
    kd_pod old = *m.pod_by_uid("u1");
    old.struct_size = offsetof(kd_pod, start_time_ms);
    CHECK(kd::Pod(&old).start_ms() == 0);
}

TEST_CASE("conditions' lastTransitionTime reach the plugin view (API 1.7), shared when the offsets repeat", "[model]") {
    ClusterModel m;
    PodSpecForTest a{"u1", "default", "web-1", "n1"}, b{"u2", "default", "web-2", "n1"},
        c{"u3", "default", "web-3", "n2"};
    for (auto* spec : {&a, &b}) {
        PodDraft d = spec->draft();  // created at 1000 ms
        d.conditions.push_back({"PodScheduled", "True", "", "", 1000 + 2'000});
        d.conditions.push_back({"Initialized", "True", "", "", 1000 - 3'500});  // before creation: kept too
        m.on_pod(d);
    }
    m.on_pod(c.draft());
    kd::Pod p(m.pod_by_uid("u1"));
    REQUIRE(p.conditions().size() == 3);
    CHECK(p.condition_transition_ms(0) == std::nullopt);  // Ready has none
    CHECK(p.condition_transition_ms(1) == 3000);
    CHECK(p.condition_transition_ms(2) == 1000 - 4'000);  // whole seconds, rounded down
    CHECK(p.condition_transition_ms(3) == std::nullopt);  // past the end
    CHECK(m.pod_by_uid("u1")->condition_transitions == m.pod_by_uid("u2")->condition_transitions);
    CHECK(m.pod_by_uid("u3")->condition_transitions == nullptr);
    kd_pod old = *m.pod_by_uid("u1");
    old.struct_size = offsetof(kd_pod, condition_transitions);
    CHECK(kd::Pod(&old).condition_transition_ms(1) == std::nullopt);
}

TEST_CASE("unbound pods are on no node, not even on a node name never seen", "[model]") {
    ClusterModel m;
    PodSpecForTest pending{"u1", "default", "web-1", ""};
    m.on_pod(pending.draft());
    CHECK(m.pods_on_node("").empty());
    CHECK(m.pods_on_node("n9").empty());
    CHECK(names(m.pods()) == std::vector<std::string>{"default/web-1"});
}

TEST_CASE("an update by UID moves the pod between node indexes and keeps one entry", "[model]") {
    ClusterModel m;
    PodSpecForTest a{"u1", "default", "web-1", "n1"};
    m.on_pod(a.draft());
    a.node = "n2";
    a.cpu_milli = 700;
    m.on_pod(a.draft());
    CHECK(m.pod_count() == 1);
    CHECK(m.pods_on_node("n1").empty());
    CHECK(names(m.pods_on_node("n2")) == std::vector<std::string>{"default/web-1"});
    CHECK(kd::Pod(m.pod_by_uid("u1")).requests().milli("cpu") == 700);
}

TEST_CASE("a delete by UID removes the pod from every index — its slot is reused", "[model]") {
    ClusterModel m;
    PodSpecForTest a{"u1", "default", "web-1", "n1"}, b{"u2", "default", "web-2", "n1"};
    m.on_pod(a.draft());
    m.on_pod(b.draft());
    CHECK(m.remove(ObjectKind::pod, "u1"));
    CHECK_FALSE(m.remove(ObjectKind::pod, "u1"));
    CHECK(m.pod_by_uid("u1") == nullptr);
    CHECK(m.pod_by_name("default", "web-1") == nullptr);
    CHECK(names(m.pods_on_node("n1")) == std::vector<std::string>{"default/web-2"});
    CHECK(names(m.pods_by_owner("rs-1")) == std::vector<std::string>{"default/web-2"});
    PodSpecForTest c{"u3", "default", "web-3", "n1"};
    m.on_pod(c.draft());
    CHECK(m.pod_count() == 2);
    CHECK(kd::Pod(m.pod_by_uid("u3")).name() == "web-3");
}

TEST_CASE("heavy churn keeps every live pod's strings intact (unique text compaction)", "[model]") {
    ClusterModel m;
    std::vector<PodSpecForTest> live;
    for (int i = 0; i < 40000; ++i) {
        PodSpecForTest p{"uid-" + std::to_string(i) + std::string(40, 'x'), "ns", "pod-" + std::to_string(i), "n1"};
        m.on_pod(p.draft());
        if (i % 4 == 0)
            live.push_back(p);
        else
            m.remove(ObjectKind::pod, p.uid);
    }
    CHECK(m.pod_count() == live.size());
    for (const auto& p : live) {
        const kd_pod* got = m.pod_by_uid(p.uid);
        REQUIRE(got);
        CHECK(kd::Pod(got).name() == p.name);
    }
}

TEST_CASE("nodes are replaced by UID and readiness and raw allocatable are derived", "[model]") {
    ClusterModel m;
    NodeDraft n = node_draft("n1", "node-uid-1");
    n.meta.annotations = {{"node.koordinator.sh/raw-allocatable", R"({"cpu":"6","memory":"16Gi"})"}};
    n.ready_status = "False";
    m.on_node(n);
    const kd_node* got = m.node_by_name("n1");
    REQUIRE(got);
    kd::Node v(got);
    CHECK_FALSE(v.ready());
    CHECK(v.allocatable().milli("cpu") == 4000);
    CHECK(v.raw_allocatable().milli("cpu") == 6000);
    CHECK(v.raw_allocatable().milli("memory") == (16LL << 30) * 1000);
    // Same UID, renamed: one node, under its new name.
    NodeDraft renamed = node_draft("n1-renamed", "node-uid-1");
    renamed.meta.annotations = {{"node.koordinator.sh/raw-allocatable", "not json"}};
    m.on_node(renamed);
    CHECK(m.node_count() == 1);
    CHECK(m.node_by_name("n1") == nullptr);
    kd::Node r(m.node_by_name("n1-renamed"));
    CHECK(r.ready());
    CHECK(r.raw_allocatable().milli("cpu") == 4000);  // bad annotation: allocatable
    CHECK(m.remove(ObjectKind::node, "node-uid-1"));
    CHECK(m.node_count() == 0);
}

TEST_CASE("the snapshot lists ready nodes by name and pods grouped per node", "[model][snapshot]") {
    ClusterModel m;
    m.on_node(node_draft("n2", "u-n2"));
    m.on_node(node_draft("n1", "u-n1"));
    NodeDraft down = node_draft("n3", "u-n3");
    down.ready_status = "Unknown";
    m.on_node(down);
    m.on_pod(PodSpecForTest{"p1", "a", "x", "n2"}.draft());
    m.on_pod(PodSpecForTest{"p2", "a", "y", "n1"}.draft());
    m.on_pod(PodSpecForTest{"p3", "a", "z", "n2"}.draft());
    m.on_pod(PodSpecForTest{"p4", "a", "pending", ""}.draft());
    NodeMetricDraft metric;
    metric.meta.name = "n2";
    metric.update_ms = 5000;
    metric.has_node_metric = true;
    metric.system_usage = {{"cpu", 100}};
    metric.pods.push_back({"a", "x", {{"cpu", 250}}});
    m.on_node_metric(metric);

    auto snap = std::make_unique<ClusterSnapshot>(m, 9000);
    kd::Snapshot s(&snap->raw());
    CHECK(s.now_ms() == 9000);
    std::vector<std::string> nodes;
    for (auto n : s.all_nodes()) nodes.emplace_back(n.name());
    CHECK(nodes == std::vector<std::string>{"n1", "n2"});
    CHECK(s.pods().size() == 4);
    std::vector<std::string> on_n2;
    for (auto p : s.pods_on_node("n2")) on_n2.emplace_back(p.name());
    CHECK(on_n2 == std::vector<std::string>{"x", "z"});
    CHECK(s.pods_on_node("n3").empty());
    CHECK(s.pods_on_node("").empty());
    REQUIRE(s.find_pod("a", "y"));
    CHECK(s.find_pod("a", "y")->node_name() == "n1");
    auto nm = s.node_metric("n2");
    REQUIRE(nm);
    CHECK(nm->update_time_ms() == 5000);
    CHECK(nm->system_usage().milli("cpu") == 100);
    REQUIRE(nm->pods().size() == 1);
    CHECK(nm->pods()[0].name() == "x");
    CHECK(nm->pods()[0].usage().milli("cpu") == 250);
    CHECK_FALSE(s.node_metric("n1"));
}

TEST_CASE("workloads, migration jobs and reservations are kept and looked up", "[model]") {
    ClusterModel m;
    WorkloadDraft rs;
    rs.kind = "ReplicaSet";
    rs.meta.uid = "rs-uid";
    rs.meta.ns = "default";
    rs.meta.name = "web-abc";
    rs.meta.owners.push_back({"apps/v1", "Deployment", "web", "dep-uid", true});
    rs.replicas = 3;
    m.on_workload(rs);
    const Workload* w = m.workload_by_uid("rs-uid");
    REQUIRE(w);
    CHECK(w->kind == "ReplicaSet");
    CHECK(w->controller_kind == "Deployment");
    CHECK(w->controller_uid == "dep-uid");
    CHECK(w->replicas == 3);
    CHECK(m.workload_by_name("ReplicaSet", "default", "web-abc") == w);
    CHECK(m.workload_by_name("Deployment", "default", "web-abc") == nullptr);
    // An update by UID may rename; the name index follows.
    rs.meta.name = "web-def";
    rs.replicas = 5;
    m.on_workload(rs);
    CHECK(m.workload_by_name("ReplicaSet", "default", "web-abc") == nullptr);
    REQUIRE(m.workload_by_name("ReplicaSet", "default", "web-def"));
    CHECK(m.workload_by_uid("rs-uid")->replicas == 5);
    CHECK(m.remove(ObjectKind::replica_set, "rs-uid"));
    CHECK(m.workload_by_uid("rs-uid") == nullptr);
    CHECK(m.workload_by_name("ReplicaSet", "default", "web-def") == nullptr);

    PodMigrationJob job;
    job.uid = "job-1";
    job.name = "job-1";
    job.pod_ref = {"v1", "Pod", "default", "web-1", "pod-uid", "", ""};
    m.on_migration_job(job);
    CHECK(m.migration_jobs_for_pod("pod-uid").size() == 1);
    CHECK(m.migration_jobs_for_pod_name("default", "web-1").size() == 1);
    CHECK(m.remove(ObjectKind::migration_job, "job-1"));
    CHECK(m.migration_jobs().empty());

    Reservation r;
    r.uid = "r-1";
    r.name = "resv";
    m.on_reservation(r);
    CHECK(m.reservation_by_name("resv") == m.reservation("r-1"));
}

TEST_CASE("effective requests: containers summed, init containers as peak, sidecars added, overhead on top",
          "[model]") {
    PodDraft d;
    d.containers.push_back({{{"cpu", 500}, {"memory", 100}}, {}});
    d.containers.push_back({{{"cpu", 250}}, {}});
    // A plain init container bigger than the containers sets the CPU peak.
    d.init_containers.push_back({{{"cpu", 2000}}, {}});
    auto plain = effective_requests(d);
    CHECK(plain == std::vector<std::pair<std::string_view, int64_t>>{{"cpu", 2000}, {"memory", 100}});
    // A sidecar runs beside everything after it: it adds to the containers and to later init containers.
    PodDraft::Container sidecar{{{"cpu", 100}, {"memory", 50}}, {}};
    sidecar.restart_always = true;
    d.init_containers.insert(d.init_containers.begin(), sidecar);
    d.overhead = {{"cpu", 10}};
    auto with_sidecar = effective_requests(d);
    // cpu: max(500+250+100, 2000+100) + 10; memory: 100 + 50.
    CHECK(with_sidecar == std::vector<std::pair<std::string_view, int64_t>>{{"cpu", 2110}, {"memory", 150}});
}
