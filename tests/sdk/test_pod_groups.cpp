// kd::group_by_owner (sdk/include/kdesched/pod_groups.hpp): pods grouped by ownerReference as
// upstream's RemoveDuplicates groups them (kubernetes-sigs/descheduler v0.35.1), or by the
// controller alone.
#include <kdesched/pod_groups.hpp>
#include <kdesched/testing.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace {

using GroupNames = std::vector<std::string>;

// "ns/kind/name: pod pod …" per group, in order.
GroupNames describe_groups(const std::vector<kd::PodGroup>& groups) {
    GroupNames out;
    for (const auto& g : groups) {
        std::string line =
            std::string(g.owner.ns) + "/" + std::string(g.owner.kind) + "/" + std::string(g.owner.name) + ":";
        for (const auto& p : g.pods) line += " " + std::string(p.name());
        out.push_back(line);
    }
    return out;
}

void owners_cluster(kd::testing::SnapshotBuilder& b) {
    b.node("n1");
    b.pod("ns", "web-1").on("n1").owner("ReplicaSet", "web");
    b.pod("ns", "bare").on("n1");
    b.pod("ns", "db-0").on("n1").owner("StatefulSet", "db");
    b.pod("ns", "web-2").on("n1").owner("ReplicaSet", "web");
    // The same owner name in another namespace is another owner.
    b.pod("other", "web-1").on("n1").owner("ReplicaSet", "web");
    // The same name of another kind is another owner too.
    b.pod("ns", "web-job").on("n1").owner("Job", "web");
    // A controller and an owner that is not one.
    b.pod("ns", "web-3").on("n1").owner("ReplicaSet", "web").owner("ConfigMap", "settings", false);
    b.pod("ns", "adopted").on("n1").owner("ConfigMap", "settings", false);
}

}  // namespace

TEST_CASE("group_by_owner: by every ownerReference, in the order pods come", "[sdk][pod-groups]") {
    kd::testing::SnapshotBuilder b;
    owners_cluster(b);
    kd::Snapshot snap(b.build());
    auto groups = kd::group_by_owner(snap.pods());
    CHECK(describe_groups(groups) == GroupNames{"ns/ReplicaSet/web: web-1 web-2 web-3", "ns/StatefulSet/db: db-0",
                                                "other/ReplicaSet/web: web-1", "ns/Job/web: web-job",
                                                "ns/ConfigMap/settings: web-3 adopted"});
    CHECK(groups[0].uid == "uid-ReplicaSet-web");
    CHECK(groups[0].owner == kd::OwnerKey{"ns", "ReplicaSet", "web"});
}

TEST_CASE("group_by_owner: by the controller alone", "[sdk][pod-groups]") {
    kd::testing::SnapshotBuilder b;
    owners_cluster(b);
    kd::Snapshot snap(b.build());
    CHECK(describe_groups(kd::group_by_owner(snap.pods(), kd::OwnerRefs::controller)) ==
          GroupNames{"ns/ReplicaSet/web: web-1 web-2 web-3", "ns/StatefulSet/db: db-0", "other/ReplicaSet/web: web-1",
                     "ns/Job/web: web-job"});
}

TEST_CASE("group_by_owner: from const kd_pod*, a node's pods, none, and a reference listed twice",
          "[sdk][pod-groups]") {
    kd::testing::SnapshotBuilder b;
    b.node("n1");
    b.node("n2");
    b.pod("ns", "a").on("n1").owner("ReplicaSet", "rs");
    b.pod("ns", "b").on("n2").owner("ReplicaSet", "rs");
    b.pod("ns", "twice").on("n2").owner("ReplicaSet", "rs").owner("ReplicaSet", "rs", false);
    kd::Snapshot snap(b.build());
    std::vector<const kd_pod*> raw;
    for (auto p : snap.pods()) raw.push_back(p.raw());
    CHECK(describe_groups(kd::group_by_owner(raw)) == GroupNames{"ns/ReplicaSet/rs: a b twice"});
    CHECK(describe_groups(kd::group_by_owner(snap.pods_on_node("n2"))) == GroupNames{"ns/ReplicaSet/rs: b twice"});
    CHECK(kd::group_by_owner(std::vector<kd::Pod>{}).empty());
}
