// RemoveDuplicates. The first part: the cases of upstream's table tests
// (pkg/framework/plugins/removeduplicates/removeduplicates_test.go, validation_test.go and
// defaults_test.go @v0.35.1, named by their descriptions) as facts; upstream counts the
// evictions, we name them, in order. Upstream's pods have one container with no image
// (test.BuildTestPod), hence image(""). Then our own.
#include "sigs_test.hpp"

using namespace sigs_test;
using kd::plugins::sigs::RemoveDuplicates;

namespace {

// test.BuildTestNode(name, 2000, 3000, 10).
SnapshotBuilder::NodeSpec& dup_node(SnapshotBuilder& b, const std::string& name, const std::string& cpu = "2000m",
                                    const std::string& memory = "3000") {
    return b.node(name).allocatable("cpu", cpu).allocatable("memory", memory).allocatable("pods", "10");
}

// test.BuildTestPod(name, 100, 0, node): one container without an image, 100m CPU.
SnapshotBuilder::PodSpec& dup_bare(SnapshotBuilder& b, const std::string& ns, const std::string& name,
                                   const std::string& node) {
    return b.pod(ns, name).on(node).request("cpu", "100m").request("memory", "0").image("");
}

// test.SetRSOwnerRef: ReplicaSet replicaset-1, not a controller reference.
SnapshotBuilder::PodSpec& dup_pod(SnapshotBuilder& b, const std::string& name, const std::string& node = "n1",
                                  const std::string& ns = "default") {
    return dup_bare(b, ns, name, node).owner("ReplicaSet", "replicaset-1", false);
}

Pods dup_run(Profile& p, SnapshotBuilder& b, const std::string& args = "{}") {
    auto plugin = p.host.instantiate<RemoveDuplicates>(args);
    plugin.balance(b.build());
    return p.host.evicted();
}

// Pods ns/prefixN for each N.
Pods dup_names(const std::string& ns, std::initializer_list<int> ids) {
    Pods out;
    for (int i : ids) out.push_back(ns + "/p" + std::to_string(i));
    return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Upstream's cases: TestFindDuplicatePods (two nodes, DefaultEvictor's nodeFit as given)

TEST_CASE("RemoveDuplicates: TestFindDuplicatePods", "[removeduplicates][upstream]") {
    SnapshotBuilder b;
    dup_node(b, "n1");
    Profile p;
    auto three_in = [&](const std::string& ns, int first) {
        for (int i = first; i < first + 3; ++i) dup_pod(b, "p" + std::to_string(i), "n1", ns);
    };
    SECTION("Three pods in the `dev` Namespace, bound to same ReplicaSet. 1 should be evicted.") {
        dup_node(b, "n2");
        three_in("dev", 1);
        CHECK(dup_run(p, b) == dup_names("dev", {3}));
    }
    SECTION(
        "Three pods in the `dev` Namespace, bound to same ReplicaSet, but ReplicaSet kind is excluded. 0 should "
        "be evicted.") {
        dup_node(b, "n2");
        three_in("dev", 1);
        CHECK(dup_run(p, b, R"({"excludeOwnerKinds": ["ReplicaSet"]})").empty());
    }
    SECTION("Three Pods in the `test` Namespace, bound to same ReplicaSet. 1 should be evicted.") {
        dup_node(b, "n2");
        dup_pod(b, "p8", "n1", "test");
        dup_pod(b, "p9", "n1", "test");
        dup_pod(b, "p10", "n1", "test");
        CHECK(dup_run(p, b) == dup_names("test", {10}));
    }
    auto dev_and_test = [&] {
        three_in("dev", 1);
        dup_pod(b, "p8", "n1", "test");
        dup_pod(b, "p9", "n1", "test");
        dup_pod(b, "p10", "n1", "test");
    };
    auto protected_pods = [&] {
        dup_bare(b, "default", "p4", "n1").owner("DaemonSet", "daemonset-1", false);
        dup_bare(b, "default", "p5", "n1").owner("Pod", "", false).set_flag(KD_POD_LOCAL_STORAGE);
        dup_bare(b, "default", "p6", "n1").annotation("kubernetes.io/config.mirror", "mirror");
        dup_bare(b, "kube-system", "p7", "n1").with_priority(2'000'000'000);
    };
    SECTION(
        "Three Pods in the `dev` Namespace, three Pods in the `test` Namespace. Bound to ReplicaSet with same name. "
        "4 should be evicted.") {
        // Upstream's description says 4; its expectation, and the fact, is 2.
        dup_node(b, "n2");
        dev_and_test();
        CHECK(dup_run(p, b) == Pods{"dev/p3", "test/p10"});
    }
    SECTION(
        "Pods are: part of DaemonSet, with local storage, mirror pod annotation, critical pod annotation - none "
        "should be evicted.") {
        dup_node(b, "n2");
        protected_pods();
        CHECK(dup_run(p, b).empty());
        CHECK(p.requests() == 0);
    }
    SECTION("Test all Pods: 4 should be evicted.") {
        // Upstream's description says 4; its expectation, and the fact, is 2.
        dup_node(b, "n2");
        three_in("dev", 1);
        protected_pods();
        dup_pod(b, "p8", "n1", "test");
        dup_pod(b, "p9", "n1", "test");
        dup_pod(b, "p10", "n1", "test");
        CHECK(dup_run(p, b) == Pods{"dev/p3", "test/p10"});
    }
    SECTION("Pods with the same owner but different images should not be evicted") {
        dup_node(b, "n2");
        b.pod("different-images", "p11").on("n1").owner("ReplicaSet", "replicaset-1", false).image("foo");
        b.pod("different-images", "p12").on("n1").owner("ReplicaSet", "replicaset-1", false).image("bar");
        CHECK(dup_run(p, b).empty());
    }
    SECTION("Pods with multiple containers should not match themselves") {
        dup_node(b, "n2");
        dup_pod(b, "p13", "n1", "different-images").image("foo");
        CHECK(dup_run(p, b).empty());
    }
    SECTION("Pods with matching ownerrefs and at not all matching image should not trigger an eviction") {
        dup_node(b, "n2");
        b.pod("different-images", "p11").on("n1").owner("ReplicaSet", "replicaset-1", false).image("foo");
        dup_pod(b, "p13", "n1", "different-images").image("foo");
        CHECK(dup_run(p, b).empty());
    }
    SECTION(
        "Three pods in the `dev` Namespace, bound to same ReplicaSet. Only node available has a taint, and nodeFit "
        "set to true. 0 should be evicted.") {
        Profile fit(R"({"nodeFit": true})");
        dup_node(b, "n3").taint("hardware", "gpu", "NoSchedule");
        three_in("dev", 1);
        CHECK(dup_run(fit, b).empty());
        CHECK(fit.requests() == 0);
    }
    SECTION(
        "Three pods in the `node-fit` Namespace, bound to same ReplicaSet, all with a nodeSelector. Only node "
        "available has an incorrect node label, and nodeFit set to true. 0 should be evicted.") {
        Profile fit(R"({"nodeFit": true})");
        dup_node(b, "n4").label("datacenter", "east");
        dup_pod(b, "p15", "n1", "node-fit").select_node("datacenter", "west");
        dup_pod(b, "NOT1", "n1", "node-fit").select_node("datacenter", "west");
        dup_pod(b, "NOT2", "n1", "node-fit").select_node("datacenter", "west");
        CHECK(dup_run(fit, b).empty());
        CHECK(fit.requests() == 0);
    }
    SECTION(
        "Three pods in the `node-fit` Namespace, bound to same ReplicaSet. Only node available is not schedulable, "
        "and nodeFit set to true. 0 should be evicted.") {
        Profile fit(R"({"nodeFit": true})");
        dup_node(b, "n5").cordon();
        three_in("dev", 1);
        CHECK(dup_run(fit, b).empty());
        CHECK(fit.requests() == 0);
    }
    SECTION(
        "Three pods in the `node-fit` Namespace, bound to same ReplicaSet. Only node available does not have "
        "enough CPU, and nodeFit set to true. 0 should be evicted.") {
        Profile fit(R"({"nodeFit": true})");
        dup_node(b, "n6", "200m", "200");
        three_in("dev", 1);
        b.pod("test", "CPU-eater").on("n6").request("cpu", "150m").request("memory", "150").image("");
        CHECK(dup_run(fit, b).empty());
        CHECK(fit.requests() == 0);
    }
    SECTION(
        "Three pods in the `node-fit` Namespace, bound to same ReplicaSet. Only node available has enough CPU, and "
        "nodeFit set to true. 1 should be evicted.") {
        Profile fit(R"({"nodeFit": true})");
        dup_node(b, "n6", "200m", "200");
        three_in("dev", 1);
        b.pod("test", "CPU-saver").on("n6").request("cpu", "100m").request("memory", "150").image("");
        CHECK(dup_run(fit, b) == dup_names("dev", {3}));
    }
}

// ---------------------------------------------------------------------------------------------
// Upstream's cases: TestRemoveDuplicatesUniformly (DefaultEvictor without nodeFit)

namespace {

// Pods p<first>… on the nodes given, one per entry, each set up by `apply`.
void dup_spread(SnapshotBuilder& b, int first, const std::vector<std::string>& nodes,
                const std::function<void(SnapshotBuilder::PodSpec&, int)>& apply) {
    for (size_t i = 0; i < nodes.size(); ++i) {
        int id = first + static_cast<int>(i);
        auto& pod = dup_bare(b, "default", "p" + std::to_string(id), nodes[i]);
        apply(pod, id);
    }
}

void dup_rs1(SnapshotBuilder::PodSpec& pod, int) {
    pod.owner("ReplicaSet", "replicaset-1", false);
}

// (5,3,1) over three nodes.
const std::vector<std::string> kDupFiveThreeOne = {"n1", "n1", "n1", "n1", "n1", "n2", "n2", "n2", "n3"};

}  // namespace

TEST_CASE("RemoveDuplicates: TestRemoveDuplicatesUniformly", "[removeduplicates][upstream]") {
    SnapshotBuilder b;
    Profile p;
    SECTION("Evict pods uniformly") {
        // (5,3,1) -> (3,3,3): n1 keeps 3.
        for (auto n : {"n1", "n2", "n3"}) dup_node(b, n);
        dup_spread(b, 1, kDupFiveThreeOne, dup_rs1);
        CHECK(dup_run(p, b) == dup_names("default", {4, 5}));
    }
    SECTION("Evict pods uniformly with one node left out") {
        // (5,3,1) -> (4,4,1): n3 is not one of the nodes, so p9 does not count.
        for (auto n : {"n1", "n2"}) dup_node(b, n);
        dup_spread(b, 1, kDupFiveThreeOne, dup_rs1);
        CHECK(dup_run(p, b) == dup_names("default", {5}));
    }
    SECTION("Evict pods uniformly with two replica sets") {
        // Every pod has both owners: each owner key wants p14 and p15 gone; each goes once.
        for (auto n : {"n1", "n2", "n3"}) dup_node(b, n);
        dup_spread(b, 11, kDupFiveThreeOne, [](SnapshotBuilder::PodSpec& pod, int) {
            pod.owner("ReplicaSet", "replicaset-1", false).owner("ReplicaSet", "replicaset-2", false);
        });
        CHECK(dup_run(p, b) == dup_names("default", {14, 15}));
        CHECK(p.requests() == 2);
    }
    SECTION("Evict pods uniformly with two owner references") {
        // replicaset-1 (5,3,1) and replicaset-2 (1,3,5), both -> (3,3,3).
        for (auto n : {"n1", "n2", "n3"}) dup_node(b, n);
        dup_spread(b, 11, kDupFiveThreeOne, dup_rs1);
        dup_spread(b, 21, {"n1", "n2", "n2", "n2", "n3", "n3", "n3", "n3", "n3"},
                   [](SnapshotBuilder::PodSpec& pod, int) { pod.owner("ReplicaSet", "replicaset-2", false); });
        CHECK(dup_run(p, b) == dup_names("default", {14, 15, 28, 29}));
    }
    SECTION("Evict pods with number of pods less than nodes") {
        // (2,0,0) -> (1,1,0)
        for (auto n : {"n1", "n2", "n3"}) dup_node(b, n);
        dup_spread(b, 1, {"n1", "n1"}, dup_rs1);
        CHECK(dup_run(p, b) == dup_names("default", {2}));
    }
    SECTION("Evict pods with number of pods less than nodes, but ignore different pods with the same ownerref") {
        // Only p1 and p4 (images "" and foo) are duplicates.
        for (auto n : {"n1", "n2", "n3"}) dup_node(b, n);
        int id = 1;
        for (auto image : {"foo", "bar", "baz", "foo"}) dup_pod(b, "p" + std::to_string(id++)).image(image);
        CHECK(dup_run(p, b) == dup_names("default", {4}));
    }
    SECTION("Evict pods with a single pod with three nodes") {
        for (auto n : {"n1", "n2", "n3"}) dup_node(b, n);
        dup_spread(b, 1, {"n1"}, dup_rs1);
        CHECK(dup_run(p, b).empty());
    }
    const std::vector<std::string> workers = {"worker1", "worker1", "worker1", "worker1", "worker1",
                                              "worker2", "worker2", "worker2", "worker3"};
    // p1, p3, … use k1; p2, p4, … k2.
    auto key_of = [](int id) { return std::string(id % 2 ? "k1" : "k2"); };
    SECTION("Evict pods uniformly respecting taints") {
        for (auto n : {"worker1", "worker2", "worker3"}) dup_node(b, n);
        for (auto n : {"master1", "master2", "master3"})
            dup_node(b, n).taint("node-role.kubernetes.io/control-plane", "", "NoSchedule");
        dup_spread(b, 1, workers, [&](SnapshotBuilder::PodSpec& pod, int id) {
            dup_rs1(pod, id);
            pod.tolerate(key_of(id), "Equal", "v" + key_of(id).substr(1), "NoSchedule");
        });
        CHECK(dup_run(p, b) == dup_names("default", {4, 5}));
    }
    SECTION("Evict pods uniformly respecting RequiredDuringSchedulingIgnoredDuringExecution node affinity") {
        for (auto n : {"worker1", "worker2", "worker3"}) dup_node(b, n);
        for (auto n : {"master1", "master2", "master3"})
            dup_node(b, n).label("node-role.kubernetes.io/control-plane", "");
        dup_spread(b, 1, workers, [&](SnapshotBuilder::PodSpec& pod, int id) {
            dup_rs1(pod, id);
            pod.set_flag(KD_POD_HAS_NODE_AFFINITY);
            pod.affinity.push_back(
                {{{"node-role.kubernetes.io/control-plane", "DoesNotExist", {}}, {key_of(id), "DoesNotExist", {}}},
                 {}});
        });
        CHECK(dup_run(p, b) == dup_names("default", {4, 5}));
    }
    SECTION("Evict pods uniformly respecting node selector") {
        for (auto n : {"worker1", "worker2", "worker3"}) dup_node(b, n).label("node-role.kubernetes.io/worker", "k2");
        for (auto n : {"master1", "master2", "master3"}) dup_node(b, n);
        dup_spread(b, 1, workers, [&](SnapshotBuilder::PodSpec& pod, int id) {
            dup_rs1(pod, id);
            pod.select_node("node-role.kubernetes.io/worker", key_of(id));
        });
        CHECK(dup_run(p, b) == dup_names("default", {4, 5}));
    }
    SECTION("Evict pods uniformly respecting node selector with zero target nodes") {
        for (auto n : {"worker1", "worker2", "worker3", "master1", "master2", "master3"}) dup_node(b, n);
        dup_spread(b, 1, workers, [&](SnapshotBuilder::PodSpec& pod, int id) {
            dup_rs1(pod, id);
            pod.select_node("node-role.kubernetes.io/worker", key_of(id));
        });
        CHECK(dup_run(p, b).empty());
        CHECK(p.requests() == 0);
    }
}

// validation_test.go and defaults_test.go
TEST_CASE("RemoveDuplicates: args validation and defaults", "[removeduplicates][upstream]") {
    SECTION("valid namespace args, no errors") {
        CHECK(create_error<RemoveDuplicates>(
                  R"({"excludeOwnerKinds": ["Job"], "namespaces": {"include": ["default"]}})") == "");
    }
    SECTION("invalid namespaces args, expects error") {
        CHECK(
            create_error<RemoveDuplicates>(
                R"({"excludeOwnerKinds": ["Job"], "namespaces": {"include": ["default"], "exclude": ["kube-system"]}})") ==
            "namespaces: only one of Include/Exclude namespaces can be set");
    }
    SECTION("RemoveDuplicatesArgs empty / with value: nothing is defaulted") {
        kd::plugins::sigs::RemoveDuplicatesArgs empty = kd::parse<kd::plugins::sigs::RemoveDuplicatesArgs>("{}");
        CHECK_FALSE(empty.namespaces.has_value());
        CHECK(empty.excludeOwnerKinds.empty());
        auto given = kd::parse<kd::plugins::sigs::RemoveDuplicatesArgs>(
            R"({"namespaces": {}, "excludeOwnerKinds": ["ReplicaSet"]})");
        REQUIRE(given.namespaces.has_value());
        CHECK(given.namespaces->empty());
        CHECK(given.excludeOwnerKinds == std::vector<std::string>{"ReplicaSet"});
    }
}

// ---------------------------------------------------------------------------------------------
// Our own cases

TEST_CASE("RemoveDuplicates: args", "[removeduplicates]") {
    SECTION("labelSelector is not an arg of v0.35.1's RemoveDuplicates") {
        CHECK(create_error<RemoveDuplicates>(R"({"labelSelector": {}})") ==
              "labelSelector: unknown field (known fields: namespaces, excludeOwnerKinds)");
    }
    SECTION("excludeOwnerKinds must be a list of strings") {
        CHECK(create_error<RemoveDuplicates>(R"({"excludeOwnerKinds": "Job"})") ==
              "excludeOwnerKinds: must be a list, got a string");
    }
}

TEST_CASE("RemoveDuplicates: namespaces and excludeOwnerKinds", "[removeduplicates]") {
    SnapshotBuilder b;
    for (auto n : {"n1", "n2"}) dup_node(b, n);
    for (auto ns : {"a", "b"})
        for (int i = 1; i <= 3; ++i) dup_pod(b, "p" + std::to_string(i), "n1", ns);
    for (int i = 1; i <= 3; ++i) dup_bare(b, "c", "p" + std::to_string(i), "n1").owner("Job", "job-1", false);
    Profile p;
    SECTION("no args: one of each namespace") {
        CHECK(dup_run(p, b) == Pods{"a/p3", "b/p3", "c/p3"});
    }
    SECTION("include") {
        CHECK(dup_run(p, b, R"({"namespaces": {"include": ["b"]}})") == Pods{"b/p3"});
    }
    SECTION("exclude") {
        CHECK(dup_run(p, b, R"({"namespaces": {"exclude": ["b"]}})") == Pods{"a/p3", "c/p3"});
    }
    SECTION("excludeOwnerKinds: a pod with any ownerReference of such a kind is no duplicate") {
        dup_pod(b, "p4", "n1", "a").owner("Job", "job-1", false);
        CHECK(dup_run(p, b, R"({"excludeOwnerKinds": ["Job"]})") == Pods{"a/p3", "b/p3"});
    }
}

TEST_CASE("RemoveDuplicates: who is a duplicate", "[removeduplicates]") {
    SnapshotBuilder b;
    for (auto n : {"n1", "n2"}) dup_node(b, n);
    Profile p;
    SECTION("images in any order are the same; their number counts") {
        b.pod("default", "a").on("n1").owner("ReplicaSet", "rs", false).image("x").image("y");
        b.pod("default", "b").on("n1").owner("ReplicaSet", "rs", false).image("y").image("x");
        b.pod("default", "c").on("n1").owner("ReplicaSet", "rs", false).image("x").image("y");
        b.pod("default", "d").on("n1").owner("ReplicaSet", "rs", false).image("x").image("x").image("y");
        CHECK(dup_run(p, b) == Pods{"default/c"});
    }
    SECTION("a pod without an ownerReference is never a duplicate") {
        for (auto name : {"a", "b", "c"}) b.pod("default", name).on("n1").image("x");
        CHECK(dup_run(p, b).empty());
    }
    SECTION("a pod without a container image (a hand-built snapshot) is never a duplicate") {
        for (auto name : {"a", "b", "c"}) b.pod("default", name).on("n1").owner("ReplicaSet", "rs", false);
        CHECK(dup_run(p, b).empty());
    }
    SECTION("duplicates are found within a node; the count of an owner key spans the nodes") {
        // rs: n1 a, b, c; n2 d. 4 pods over 2 nodes: n1 keeps 2.
        for (auto name : {"a", "b", "c"}) b.pod("default", name).on("n1").owner("ReplicaSet", "rs", false).image("x");
        b.pod("default", "d").on("n2").owner("ReplicaSet", "rs", false).image("x");
        CHECK(dup_run(p, b) == Pods{"default/c"});
    }
    SECTION("an owner key counts every pod under it, duplicates of each other or not") {
        // n1: a, b, c (rs). n2: d, e, f, g (rs and rs-2): not duplicates of n1's kind, yet under rs
        // too. rs: 7 pods over 2 nodes, keep 4: nothing. rs-2: 4 over 2, keep 2: f and g.
        for (auto name : {"a", "b", "c"}) b.pod("default", name).on("n1").owner("ReplicaSet", "rs", false).image("x");
        for (auto name : {"d", "e", "f", "g"})
            b.pod("default", name)
                .on("n2")
                .owner("ReplicaSet", "rs", false)
                .owner("ReplicaSet", "rs-2", false)
                .image("x");
        CHECK(dup_run(p, b) == Pods{"default/f", "default/g"});
    }
    SECTION("Succeeded and Failed pods are not listed") {
        for (auto name : {"a", "b"}) b.pod("default", name).on("n1").owner("ReplicaSet", "rs", false).image("x");
        b.pod("default", "done").on("n1").owner("ReplicaSet", "rs", false).image("x").in_phase(KD_POD_SUCCEEDED);
        b.pod("default", "failed").on("n1").owner("ReplicaSet", "rs", false).image("x").in_phase(KD_POD_FAILED);
        CHECK(dup_run(p, b) == Pods{"default/b"});
    }
    SECTION("a pod the evictor refuses is not counted at all") {
        for (auto name : {"a", "b", "c"}) b.pod("default", name).on("n1").owner("ReplicaSet", "rs", false).image("x");
        p.host.on_filter = [](const kd::Pod& pod) {
            return pod.name() == "a" ? kd::Verdict::reject("Kept") : kd::Verdict::allow();
        };
        // b and c: 2 pods over 2 nodes, n1 keeps 1.
        CHECK(dup_run(p, b) == Pods{"default/c"});
    }
}

TEST_CASE("RemoveDuplicates: target nodes", "[removeduplicates]") {
    SnapshotBuilder b;
    Profile p;
    auto four_on_n1 = [&] {
        for (int i = 1; i <= 4; ++i) dup_pod(b, "p" + std::to_string(i));
    };
    SECTION("an unschedulable node is a target (upstream does not check it)") {
        dup_node(b, "n1");
        dup_node(b, "n2").cordon();
        four_on_n1();
        CHECK(dup_run(p, b) == dup_names("default", {3, 4}));
    }
    SECTION("resources are not checked either") {
        dup_node(b, "n1");
        dup_node(b, "n2", "1m", "1");
        four_on_n1();
        CHECK(dup_run(p, b) == dup_names("default", {3, 4}));
    }
    SECTION("a NoExecute taint counts, a PreferNoSchedule one does not") {
        dup_node(b, "n1");
        dup_node(b, "n2").taint("k", "v", "NoExecute");
        dup_node(b, "n3").taint("k", "v", "PreferNoSchedule");
        four_on_n1();
        // n1 and n3: 4 over 2, n1 keeps 2.
        CHECK(dup_run(p, b) == dup_names("default", {3, 4}));
    }
    SECTION("only the profile's nodes are targets") {
        dup_node(b, "n1");
        dup_node(b, "n2");
        dup_node(b, "n3");
        b.select_nodes({"n1", "n2"});
        for (int i = 1; i <= 6; ++i) dup_pod(b, "p" + std::to_string(i));
        // 6 over 2 nodes: n1 keeps 3.
        CHECK(dup_run(p, b) == dup_names("default", {4, 5, 6}));
    }
    SECTION("fewer than two targets: nothing") {
        dup_node(b, "n1");
        dup_node(b, "n2").taint("k", "v", "NoSchedule");
        four_on_n1();
        CHECK(dup_run(p, b).empty());
    }
    SECTION("the original pods' placement is not read, only the duplicates'") {
        // p1 (the first on n1) could go anywhere; p2 and p3 only to n1: one target, nothing.
        dup_node(b, "n1").label("pool", "a");
        dup_node(b, "n2");
        dup_pod(b, "p1");
        dup_pod(b, "p2").select_node("pool", "a");
        dup_pod(b, "p3").select_node("pool", "a");
        CHECK(dup_run(p, b).empty());
    }
}

TEST_CASE("RemoveDuplicates: order and limits", "[removeduplicates]") {
    SnapshotBuilder b;
    for (auto n : {"n1", "n2", "n3"}) dup_node(b, n);
    // rs-b owns a1-a4 on n1 and a11-a13 on n2; rs-a owns b1-b4 on n3. Sorted by name rs-a would
    // come first; found first is rs-b.
    for (int i = 1; i <= 4; ++i)
        dup_bare(b, "default", "a" + std::to_string(i), "n1").owner("ReplicaSet", "rs-b", false);
    for (int i = 1; i <= 3; ++i)
        dup_bare(b, "default", "a1" + std::to_string(i), "n2").owner("ReplicaSet", "rs-b", false);
    for (int i = 1; i <= 4; ++i)
        dup_bare(b, "default", "b" + std::to_string(i), "n3").owner("ReplicaSet", "rs-a", false);
    Profile p;
    SECTION("owner keys in the order their first duplicate was found, then node by node") {
        // rs-b: 7 over 3, keep 3: a4 from n1. rs-a: 4 over 3, keep 2: b3, b4 from n3.
        CHECK(dup_run(p, b) == Pods{"default/a4", "default/b3", "default/b4"});
    }
    SECTION("a node's limit ends that node for the owner key") {
        p.host.on_limits = [](const kd::Pod& pod) {
            return pod.name() == "b3" ? KD_EVICT_LIMIT_NODE : KD_EVICT_ACCEPTED;
        };
        CHECK(dup_run(p, b) == Pods{"default/a4"});
        CHECK(p.requests() == 2);
    }
    SECTION("a failed eviction passes over the pod") {
        p.host.on_evict = [](const kd::Pod& pod) {
            return pod.name() == "b3" ? kd::EvictOutcome::failed("boom") : kd::EvictOutcome::accepted();
        };
        CHECK(dup_run(p, b) == Pods{"default/a4", "default/b4"});
    }
    SECTION("the total limit ends the cycle") {
        p.host.limits.total = 2;
        CHECK(dup_run(p, b) == Pods{"default/a4", "default/b3"});
        CHECK(p.requests() == 3);
    }
}
