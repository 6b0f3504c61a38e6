// PodsPerNodeCap on the SDK's fake host, which runs the host's eviction pipeline: the profile's
// filters, their PreEvictionFilter, the eviction limits, then the evict plugin.
#include "pods_per_node_cap.hpp"

#include <kdesched/testing.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace {

using Names = std::vector<std::string>;
const int64_t kMinute = 60'000;

// n1 runs five "web" pods created one minute apart (web-0 the oldest) and a DaemonSet pod in
// kube-system; n2 runs two.
kd::testing::SnapshotBuilder crowded() {
    kd::testing::SnapshotBuilder b;
    b.node("n1");
    b.node("n2");
    for (int i = 0; i < 5; ++i)
        b.pod("shop", "web-" + std::to_string(i))
            .on("n1")
            .owner("ReplicaSet", "web-7d9")
            .label("app", "web")
            .created(b.now_ms() - (60 - i) * kMinute);
    b.pod("kube-system", "proxy-n1").on("n1").owner("DaemonSet", "proxy").created(b.now_ms());
    b.pod("shop", "api-0").on("n2").owner("ReplicaSet", "api-5f4").label("app", "api");
    b.pod("shop", "api-1").on("n2").owner("ReplicaSet", "api-5f4").label("app", "api");
    return b;
}

// Every eviction request, in order: "pod outcome[ plugin]".
Names requests(const kd::testing::FakeHost& host) {
    Names out;
    for (const auto& e : host.evictions())
        out.push_back(e.pod + " " + kd::evict_code_name(e.outcome.code) +
                      (e.outcome.plugin.empty() ? "" : " " + e.outcome.plugin));
    return out;
}

}  // namespace

TEST_CASE("evicts the youngest pods above the cap, node by node, youngest first") {
    auto b = crowded();
    kd::testing::FakeHost host;
    auto plugin =
        host.instantiate<example::PodsPerNodeCap>(R"({"maxPodsPerNode": 3, "namespaces": {"include": ["shop"]}})");
    plugin.balance(b.build());
    // n1 holds five shop pods (the kube-system one is out of scope): the two youngest go; n2 is
    // within the cap.
    CHECK(host.evicted() == Names{"shop/web-4", "shop/web-3"});
    CHECK(host.evictions()[0].reason == "node n1 runs 5 pods, more than maxPodsPerNode 3");
    CHECK(host.evictions()[0].plugin == "PodsPerNodeCap");
    // The rest of n1's candidates stayed, and --explain would say why.
    CHECK(host.reports() == Names{"pod shop/web-2 skipped=WithinCap: n1 is down to the cap of 3",
                                  "pod shop/web-1 skipped=WithinCap: n1 is down to the cap of 3",
                                  "pod shop/web-0 skipped=WithinCap: n1 is down to the cap of 3"});
}

TEST_CASE("pods created at the same time leave in namespace/name order") {
    kd::testing::SnapshotBuilder b;
    b.node("n1");
    for (const char* name : {"c", "a", "b"}) b.pod("shop", name).on("n1").created(1000);
    b.pod("batch", "z").on("n1").created(1000);
    kd::testing::FakeHost host;
    auto plugin = host.instantiate<example::PodsPerNodeCap>(R"({"maxPodsPerNode": 1})");
    plugin.balance(b.build());
    CHECK(host.evicted() == Names{"batch/z", "shop/a", "shop/b"});
}

TEST_CASE("namespaces and labelSelector decide which pods count and may leave") {
    auto b = crowded();
    SECTION("excluded namespaces") {
        kd::testing::FakeHost host;
        // kube-system excluded: the same as including shop alone here.
        auto plugin = host.instantiate<example::PodsPerNodeCap>(
            R"({"maxPodsPerNode": 4, "namespaces": {"exclude": ["kube-system"]}})");
        plugin.balance(b.build());
        CHECK(host.evicted() == Names{"shop/web-4"});
    }
    SECTION("a label selector") {
        kd::testing::FakeHost host;
        auto plugin = host.instantiate<example::PodsPerNodeCap>(
            R"({"maxPodsPerNode": 1, "labelSelector": {"matchExpressions": [{"key": "app", "operator": "In", "values": ["api"]}]}})");
        plugin.balance(b.build());
        CHECK(host.evicted() == Names{"shop/api-0"});  // created at the same time: name order
    }
    SECTION("no scope: every pod counts, the DaemonSet pod too") {
        kd::testing::FakeHost host;
        host.on_filter = [](const kd::Pod& p) {
            return p.controller() && p.controller()->kind() == "DaemonSet" ? kd::Verdict::reject("DaemonSetPod")
                                                                           : kd::Verdict::allow();
        };
        auto plugin = host.instantiate<example::PodsPerNodeCap>(R"({"maxPodsPerNode": 4})");
        plugin.balance(b.build());
        // Six pods on n1: the youngest, the DaemonSet pod, may not go, so the two youngest of the
        // others do.
        CHECK(host.evicted() == Names{"shop/web-4", "shop/web-3"});
    }
}

TEST_CASE("the eviction limits are honoured") {
    auto b = crowded();
    const char* args = R"({"maxPodsPerNode": 1, "namespaces": {"include": ["shop"]}})";
    SECTION("the node limit ends that node, the next node goes on") {
        kd::testing::FakeHost host;
        host.limits.per_node = 2;
        auto plugin = host.instantiate<example::PodsPerNodeCap>(args);
        plugin.balance(b.build());
        CHECK(requests(host) ==
              Names{"shop/web-4 accepted", "shop/web-3 accepted", "shop/web-2 limit-node", "shop/api-0 accepted"});
        CHECK(host.reports() == Names{"pod shop/web-1 skipped=LimitReached: the node's limit",
                                      "pod shop/web-0 skipped=LimitReached: the node's limit",
                                      "pod shop/api-1 skipped=WithinCap: n2 is down to the cap of 1"});
    }
    SECTION("the total limit ends the cycle") {
        kd::testing::FakeHost host;
        host.limits.total = 1;
        auto plugin = host.instantiate<example::PodsPerNodeCap>(args);
        plugin.balance(b.build());
        CHECK(requests(host) == Names{"shop/web-4 accepted", "shop/web-3 limit-total"});
    }
}

TEST_CASE("a pod the PreEvictionFilter refuses is named with the filter, and an older one goes instead") {
    auto b = crowded();
    kd::testing::FakeHost host;
    host.on_pre_eviction_filter = [](const kd::Pod& p) {
        return p.name() == "web-4" ? kd::Verdict::reject("NodeFit: no other node fits") : kd::Verdict::allow();
    };
    auto plugin =
        host.instantiate<example::PodsPerNodeCap>(R"({"maxPodsPerNode": 3, "namespaces": {"include": ["shop"]}})");
    plugin.balance(b.build());
    REQUIRE(host.evictions().size() == 3);
    const auto& refused = host.evictions()[0];
    CHECK(refused.pod == "shop/web-4");
    CHECK(refused.outcome.code == KD_EVICT_FILTERED);
    CHECK(refused.outcome.plugin == "DefaultEvictor");
    CHECK(refused.outcome.reason == "NodeFit: no other node fits");
    CHECK(host.evicted() == Names{"shop/web-3", "shop/web-2"});
}

TEST_CASE("on a host older than 1.4, which runs no PreEvictionFilter in evict, the SDK asks it first") {
    auto b = crowded();
    kd::testing::FakeHost host(0);  // the plugin targets API 1.0: a 1.0 host loads it
    host.on_pre_eviction_filter = [](const kd::Pod& p) {
        return p.name() == "web-4" ? kd::Verdict::reject("NodeFit") : kd::Verdict::allow();
    };
    auto plugin =
        host.instantiate<example::PodsPerNodeCap>(R"({"maxPodsPerNode": 3, "namespaces": {"include": ["shop"]}})");
    plugin.balance(b.build());
    CHECK(host.evicted() == Names{"shop/web-3", "shop/web-2"});
}

TEST_CASE("bad args are reported with their field paths") {
    kd::testing::FakeHost host;
    auto error_of = [&](const std::string& args) -> std::string {
        try {
            host.instantiate<example::PodsPerNodeCap>(args);
        } catch (const std::runtime_error& e) {
            return e.what();
        }
        return "created";
    };
    CHECK(error_of("{}") == "maxPodsPerNode: required (the most pods a node may keep, >= 1)");
    CHECK(error_of(R"({"maxPodsPerNode": 0})") == "maxPodsPerNode: must be >= 1 (got 0)");
    CHECK(error_of(R"({"maxPodsPerNode": 2, "namespaces": {"include": ["a"], "exclude": ["b"]}})") ==
          "namespaces: only one of Include/Exclude namespaces can be set");
    CHECK(
        error_of(
            R"({"maxPodsPerNode": 2, "labelSelector": {"matchExpressions": [{"key": "app", "operator": "Is"}]}})") ==
        "labelSelector.matchExpressions[0].operator: unknown operator \"Is\" (use In, NotIn, Exists or DoesNotExist)");
    CHECK(error_of(R"({"maxPodsPerNode": 2, "maxPods": 3})") ==
          "maxPods: unknown field (known fields: maxPodsPerNode, namespaces, labelSelector)");
}
