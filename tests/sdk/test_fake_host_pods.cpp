// The fake host's SnapshotBuilder gives plugin tests the pods the host would: the API 1.3 status
// fields in kd_pod's order, whatever order the test states them in; as an older host (a smaller
// struct_size), none, and the SDK's views fall back.
#include <kdesched/testing.hpp>
#include <kdesched/view.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

// A node and pod default/p with a status reason and containers of every kind, out of order.
static void evicted_pod(kd::testing::SnapshotBuilder& b) {
    b.node("n1");
    b.pod("default", "p")
        .on("n1")
        .with_status_reason("Evicted")
        .container_status("setup", 0, KD_CONTAINER_STATE_TERMINATED, "Completed", 0, KD_CONTAINER_INIT)
        .container_status("app", 3, KD_CONTAINER_STATE_WAITING, "CrashLoopBackOff")
        .container_status("debug", 0, KD_CONTAINER_STATE_RUNNING, "", 0, KD_CONTAINER_EPHEMERAL)
        .container_status("log", 1, KD_CONTAINER_STATE_TERMINATED, "Error", 2);
}

TEST_CASE("fake host: a pod's status reason and container statuses, app then init then ephemeral", "[sdk]") {
    kd::testing::SnapshotBuilder b;
    evicted_pod(b);
    kd::Snapshot snap(b.build());
    auto pod = snap.find_pod("default", "p");
    REQUIRE(pod);
    CHECK(pod->status_reason() == "Evicted");
    std::vector<std::string> seen;
    for (auto c : pod->container_statuses())
        seen.push_back(std::string(c.name()) + ":" + std::to_string(c.kind()) + ":" +
                       std::to_string(c.restart_count()) + ":" + std::string(c.reason()) + ":" +
                       std::to_string(c.exit_code()));
    CHECK(seen == std::vector<std::string>{"app:0:3:CrashLoopBackOff:0", "log:0:1:Error:2", "setup:1:0:Completed:0",
                                           "debug:2:0::0"});
    CHECK((*pod->container_statuses().begin()).waiting());
}

TEST_CASE("fake host: a pod's start time (API 1.4), a 1.3 host has none", "[sdk][target-api]") {
    for (uint32_t minor : {3u, 4u}) {
        INFO("host minor " << minor);
        kd::testing::SnapshotBuilder b;
        b.as_api_minor(minor);
        b.node("n1");
        b.pod("default", "p").on("n1").with_status_reason("Evicted").started(1795168805000);
        b.pod("default", "q").on("n1");
        kd::Snapshot snap(b.build());
        auto p = snap.find_pod("default", "p");
        REQUIRE(p);
        CHECK(p->start_ms() == (minor >= 4 ? 1795168805000 : 0));
        CHECK(p->status_reason() == "Evicted");
        CHECK(snap.find_pod("default", "q")->start_ms() == 0);
    }
}

TEST_CASE("fake host: a pod's topology spread constraints (API 1.5) round-trip, a 1.4 host has none",
          "[sdk][target-api]") {
    for (uint32_t minor : {4u, 5u}) {
        INFO("host minor " << minor);
        kd::testing::SnapshotBuilder b;
        b.as_api_minor(minor);
        b.node("n1");
        kd::testing::SnapshotBuilder::PodSpec::SpreadConstraint zone;
        zone.topology_key = "topology.kubernetes.io/zone";
        zone.match_labels = {{"app", "web"}};
        zone.match_expressions = {{"track", "In", {"stable", "canary"}}};
        zone.min_domains = 2;
        zone.node_taints_policy = "Honor";
        zone.match_label_keys = {"pod-template-hash"};
        kd::testing::SnapshotBuilder::PodSpec::SpreadConstraint host;
        host.max_skew = 3;
        host.topology_key = "kubernetes.io/hostname";
        host.when_unsatisfiable = "ScheduleAnyway";
        b.pod("default", "p").on("n1").spread(zone).spread(host);
        b.pod("default", "q").on("n1");
        kd::Snapshot snap(b.build());
        auto p = snap.find_pod("default", "p");
        REQUIRE(p);
        auto all = p->topology_spread_constraints();
        CHECK(snap.find_pod("default", "q")->topology_spread_constraints().empty());
        if (minor < 5) {
            CHECK(all.empty());
            continue;
        }
        REQUIRE(all.size() == 2);
        auto c = all[0];
        CHECK(c.max_skew() == 1);
        CHECK(c.topology_key() == "topology.kubernetes.io/zone");
        CHECK(c.when_unsatisfiable() == "DoNotSchedule");
        CHECK(c.has_label_selector());
        CHECK(c.match_labels().get("app") == "web");
        REQUIRE(c.match_expressions().size() == 1);
        CHECK(c.match_expressions()[0].key() == "track");
        CHECK(c.match_expressions()[0].op() == "In");
        CHECK(c.match_expressions()[0].value(1) == "canary");
        CHECK(c.min_domains() == 2);
        CHECK(c.node_affinity_policy().empty());
        CHECK(c.node_taints_policy() == "Honor");
        REQUIRE(c.match_label_key_count() == 1);
        CHECK(c.match_label_key(0) == "pod-template-hash");
        CHECK(all[1].max_skew() == 3);
        CHECK(all[1].when_unsatisfiable() == "ScheduleAnyway");
        CHECK_FALSE(all[1].has_label_selector());
        CHECK_FALSE(all[1].min_domains());
    }
}

TEST_CASE("fake host: preferred node terms, pod (anti-)affinity terms and images (API 1.6)", "[sdk][pods]") {
    for (uint32_t minor : {5u, 6u}) {
        INFO("host minor " << minor);
        kd::testing::SnapshotBuilder b;
        b.as_api_minor(minor);
        b.node("n1");
        kd::testing::SnapshotBuilder::PodSpec::AffinityTerm web;
        web.topology_key = "kubernetes.io/hostname";
        web.match_labels = {{"app", "web"}};
        web.namespaces = {"default", "other"};
        web.mismatch_label_keys = {"track"};
        kd::testing::SnapshotBuilder::PodSpec::AffinityTerm zone;
        zone.weight = 40;
        zone.topology_key = "zone";
        zone.has_namespace_selector = true;
        b.pod("default", "p")
            .on("n1")
            .prefer_node(60, "disk", "In", {"ssd"})
            .anti_affinity_to(web)
            .anti_affinity_to(zone)
            .affinity_to(zone)
            .image("nginx")
            .image("envoy");
        kd::Snapshot snap(b.build());
        auto p = snap.find_pod("default", "p");
        REQUIRE(p);
        if (minor < 6) {
            CHECK(p->preferred_node_terms().empty());
            CHECK(p->pod_anti_affinity_terms().empty());
            CHECK(p->container_image_count() == 0);
            continue;
        }
        REQUIRE(p->preferred_node_terms().size() == 1);
        CHECK(p->preferred_node_terms()[0].weight() == 60);
        CHECK(p->preferred_node_terms()[0].preference().expressions()[0].value(0) == "ssd");
        REQUIRE(p->pod_anti_affinity_terms().size() == 1);
        auto t = p->pod_anti_affinity_terms()[0];
        CHECK(t.weight() == 0);
        CHECK(t.has_label_selector());
        CHECK(t.match_labels().get("app") == "web");
        CHECK(t.namespace_count() == 2);
        CHECK(t.namespace_(1) == "other");
        CHECK_FALSE(t.has_namespace_selector());
        CHECK(t.mismatch_label_key(0) == "track");
        REQUIRE(p->preferred_pod_anti_affinity_terms().size() == 1);
        CHECK(p->preferred_pod_anti_affinity_terms()[0].weight() == 40);
        CHECK(p->preferred_pod_anti_affinity_terms()[0].has_namespace_selector());
        CHECK_FALSE(p->preferred_pod_anti_affinity_terms()[0].has_label_selector());
        CHECK(p->pod_affinity_terms().empty());
        CHECK(p->preferred_pod_affinity_terms().size() == 1);
        REQUIRE(p->container_image_count() == 2);
        CHECK(p->container_image(1) == "envoy");
    }
}

TEST_CASE("fake host as an older host: pods and snapshots end where that minor's did, the views fall back",
          "[sdk][target-api]") {
    for (uint32_t minor : {0u, 1u, 2u}) {
        INFO("host minor " << minor);
        kd::testing::SnapshotBuilder b;
        b.as_api_minor(minor);
        evicted_pod(b);
        kd::Snapshot snap(b.build());
        auto pod = snap.find_pod("default", "p");
        REQUIRE(pod);
        CHECK(pod->raw()->struct_size == offsetof(kd_pod, status_reason));
        CHECK(pod->status_reason().empty());
        CHECK(pod->container_statuses().empty());
        // The model revision is API 1.2: 0 from an older snapshot.
        CHECK(snap.revision() == (minor >= 2 ? 1u : 0u));
    }
}

TEST_CASE("fake host: resource claims and PVC claim names (API 1.8), an older host does not know them",
          "[sdk][pods][target-api]") {
    for (uint32_t minor : {6u, 7u, 8u}) {
        INFO("host minor " << minor);
        kd::testing::SnapshotBuilder b;
        b.as_api_minor(minor);
        b.node("n1");
        b.pod("default", "p")
            .on("n1")
            .image("nginx")
            .resource_claim("gpu", "gpu-claim")
            .resource_claim("nic", "", "nic-template")
            .pvc_volume("data-p");
        b.pod("default", "q").on("n1");
        kd::Snapshot snap(b.build());
        auto p = snap.find_pod("default", "p");
        auto q = snap.find_pod("default", "q");
        REQUIRE(p);
        REQUIRE(q);
        CHECK(p->has_pvc());  // a flag since API 1.0
        CHECK(p->container_image_count() == 1);
        if (minor < 8) {
            CHECK_FALSE(p->resource_claims());
            CHECK(p->pvc_claim_count() == 0);
            continue;
        }
        auto claims = p->resource_claims();
        REQUIRE(claims);
        REQUIRE(claims->size() == 2);
        CHECK((*claims)[0].name() == "gpu");
        CHECK((*claims)[0].resource_claim_name() == "gpu-claim");
        CHECK((*claims)[1].resource_claim_template_name() == "nic-template");
        REQUIRE(p->pvc_claim_count() == 1);
        CHECK(p->pvc_claim_name(0) == "data-p");
        REQUIRE(q->resource_claims());
        CHECK(q->resource_claims()->empty());
    }
}
