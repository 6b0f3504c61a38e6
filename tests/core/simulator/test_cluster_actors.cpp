// The simulated rest of the cluster: scheduling Reservations, recreating evicted pods, binding
// them to their Reservation, and NodeMetrics following the pods.
#include "cluster/cluster_model.hpp"
#include "simulator/cluster_actors.hpp"

#include <kdesched/view.hpp>

#include <catch2/catch.hpp>

using namespace kd::core;

namespace {

// Drafts hold views: the strings they point at must outlive the on_* call.
void add_node(ClusterModel& m, const std::string& name, int64_t cpu_milli) {
    std::string uid = "uid-" + name;
    NodeDraft n;
    n.meta.uid = uid;
    n.meta.name = name;
    n.allocatable = {{"cpu", cpu_milli}, {"memory", 8LL * 1024 * 1024 * 1024 * 1000}};
    m.on_node(n);
}

void add_pod(ClusterModel& m, const std::string& name, const std::string& node, int64_t cpu_milli,
             const std::string& owner_kind = "ReplicaSet") {
    std::string uid = "uid-" + name;
    PodDraft d;
    d.meta.uid = uid;
    d.meta.ns = "shop";
    d.meta.name = name;
    d.meta.owners.push_back({"apps/v1", owner_kind, "web-rs", "rs-uid", true});
    d.bound.node_name = kd::to_kd(node);
    d.phase = "Running";
    d.containers.push_back({{{"cpu", cpu_milli}}, {}});
    m.on_pod(d);
}

void add_metric(ClusterModel& m, const std::string& node, const std::vector<std::pair<std::string, int64_t>>& pods) {
    NodeMetricDraft d;
    d.meta.name = node;
    d.has_node_metric = true;
    d.update_ms = 1;
    for (const auto& [name, cpu] : pods) d.pods.push_back({"shop", name, {{"cpu", cpu}}});
    m.on_node_metric(d);
}

Reservation reservation(const std::string& name, int64_t cpu_milli, const std::string& not_on) {
    Reservation r;
    r.uid = "uid-" + name;
    r.name = name;
    r.template_.requests = {{"cpu", cpu_milli}};
    r.template_.has_required_affinity = true;
    r.template_.affinity_terms.push_back({{}, {{"metadata.name", "NotIn", {not_on}}}});
    ReservationOwner owner;
    owner.controller = ReservationOwner::Controller{"apps/v1", "ReplicaSet", "web-rs", "rs-uid", "shop", true};
    r.owners.push_back(owner);
    return r;
}

}  // namespace

TEST_CASE("a pending Reservation lands on the least-allocated node that fits, never its source", "[actors]") {
    ClusterModel m;
    add_node(m, "n1", 4000);
    add_node(m, "n2", 4000);
    add_node(m, "n3", 4000);
    add_pod(m, "busy", "n2", 3000);
    m.on_reservation(reservation("r1", 1000, "n1"));  // n1 is the source: excluded by anti-affinity
    ClusterActors actors(m);
    actors.schedule_reservations(5000);
    const Reservation* r = m.reservation("uid-r1");
    REQUIRE(r);
    CHECK(r->phase == "Available");
    CHECK(r->node_name == "n3");
    REQUIRE_FALSE(r->conditions.empty());
    CHECK(r->conditions[0].type == "Scheduled");
    CHECK(r->conditions[0].status == "True");
    CHECK(r->conditions[0].reason == "Scheduled");
}

TEST_CASE("a Reservation that fits nowhere is marked Unschedulable with the reasons", "[actors]") {
    ClusterModel m;
    add_node(m, "n1", 4000);
    add_node(m, "n2", 1000);
    m.on_reservation(reservation("r1", 2000, "n1"));
    ClusterActors actors(m);
    actors.schedule_reservations(5000);
    const Reservation* r = m.reservation("uid-r1");
    CHECK(r->phase.empty());
    CHECK(r->node_name.empty());
    REQUIRE(r->conditions.size() == 1);
    CHECK(r->conditions[0].status == "False");
    CHECK(r->conditions[0].reason == "Unschedulable");
    CHECK(r->conditions[0].message ==
          "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match Pod's node affinity/selector.");
}

TEST_CASE("an evicted pod's replacement binds to its Reservation and its usage follows it", "[actors]") {
    ClusterModel m;
    add_node(m, "n1", 4000);
    add_node(m, "n2", 4000);
    add_node(m, "n3", 4000);
    add_pod(m, "web-1", "n1", 1000);
    add_metric(m, "n1", {{"web-1", 800}});
    add_metric(m, "n3", {});
    ClusterActors actors(m);
    Reservation r = reservation("r1", 1000, "n1");
    r.phase = "Available";
    r.node_name = "n3";  // already placed; the least-allocated choice would have been n2
    m.on_reservation(r);
    auto moves = actors.apply({{"uid-web-1", "shop/web-1", "n1", "test", "LowNodeLoad"}}, 7000);
    REQUIRE(moves.size() == 1);
    CHECK(moves[0].from == "n1");
    CHECK(moves[0].to == "n3");
    CHECK(m.pod_by_uid("uid-web-1") == nullptr);
    const Reservation* bound = m.reservation("uid-r1");
    REQUIRE(bound->current_owners.size() == 1);
    CHECK(bound->phase == "Succeeded");
    std::string replacement = moves[0].replacement.substr(std::string("shop/").size());
    CHECK(bound->current_owners[0].name == replacement);
    const kd_pod* pod = m.pod_by_name("shop", replacement);
    REQUIRE(pod);
    kd::Pod p(pod);
    CHECK(p.node_name() == "n3");
    CHECK(p.ready());
    CHECK(p.creation_ms() == 7000);
    // Usage moved from n1's NodeMetric to n3's, under the new name.
    CHECK(kd::NodeMetric(m.node_metric("n1")).pods().empty());
    auto n3 = kd::NodeMetric(m.node_metric("n3")).pods();
    REQUIRE(n3.size() == 1);
    CHECK(n3[0].name() == replacement);
    CHECK(n3[0].usage().milli("cpu") == 800);
}

TEST_CASE("a bare pod is only deleted — a StatefulSet pod comes back under its own name", "[actors]") {
    ClusterModel m;
    add_node(m, "n1", 4000);
    add_node(m, "n2", 4000);
    PodDraft bare;
    bare.meta.uid = "uid-bare";
    bare.meta.ns = "shop";
    bare.meta.name = "bare";
    bare.bound.node_name = kd::to_kd("n1");
    m.on_pod(bare);
    add_pod(m, "db-0", "n1", 500, "StatefulSet");
    add_pod(m, "other", "n1", 1000);  // keeps n1 busier than n2 after the evictions
    ClusterActors actors(m);
    auto moves = actors.apply({{"uid-bare", "shop/bare", "n1", "", ""}, {"uid-db-0", "shop/db-0", "n1", "", ""}}, 1);
    REQUIRE(moves.size() == 2);
    CHECK(moves[0].replacement.empty());
    CHECK(m.pod_by_name("shop", "bare") == nullptr);
    CHECK(moves[1].replacement == "shop/db-0");
    CHECK(moves[1].to == "n2");  // least allocated
    CHECK(kd::Pod(m.pod_by_name("shop", "db-0")).node_name() == "n2");
}
