// kd/pod_affinity.hpp on its own: a term's selector and namespaces, topology domains, and the two
// anti-affinity checks, with the cases of upstream's tests as facts
// (kubernetes-sigs/descheduler pkg/utils/predicates_test.go TestCheckPodsWithAntiAffinityExist and
// the anti-affinity cases of pkg/descheduler/node/node_test.go TestNodeFit, @v0.35.1).
#include <kdesched/pod_affinity.hpp>
#include <kdesched/testing.hpp>

#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

using kd::AntiAffinityMatch;
using kd::testing::SnapshotBuilder;
using Term = SnapshotBuilder::PodSpec::AffinityTerm;

namespace {

// Upstream's test.SetPodAntiAffinity: `key In [value]`, topology "region".
Term pa_in(const std::string& key, const std::string& value, const std::string& topology = "region") {
    Term t;
    t.topology_key = topology;
    t.match_expressions.push_back({key, "In", {value}});
    return t;
}

// The first required anti-affinity term of a pod.
kd::PodAffinityTerm pa_term(const kd::Pod& pod, size_t i = 0) {
    return pod.pod_anti_affinity_terms()[i];
}

kd::Pod pa_pod(const kd::Snapshot& s, const std::string& ns, const std::string& name) {
    auto p = s.find_pod(ns, name);
    REQUIRE(p);
    return *p;
}

kd::Node pa_node(const kd::Snapshot& s, const std::string& name) {
    auto n = s.find_node(name);
    REQUIRE(n);
    return *n;
}

// CheckPodsWithAntiAffinityExist over every pod of the snapshot, grouped by namespace, with the
// snapshot's nodes as the node map.
AntiAffinityMatch pa_violated(const kd::Snapshot& s, const kd::Pod& pod) {
    std::map<std::string, std::vector<kd::Pod>, std::less<>> by_ns;
    for (auto p : s.pods()) by_ns[std::string(p.ns())].push_back(p);
    std::vector<kd::Pod> none;
    return kd::anti_affinity_violated(
        pod,
        [&](std::string_view ns, std::string_view, const kd::Node&) -> const std::vector<kd::Pod>& {
            auto it = by_ns.find(ns);
            return it == by_ns.end() ? none : it->second;
        },
        [&](const kd::Pod& p) { return s.find_node(p.node_name()); });
}

}  // namespace

TEST_CASE("pod_affinity: a term's labelSelector", "[pod_affinity]") {
    SnapshotBuilder b;
    Term absent;
    Term empty;
    empty.has_label_selector = true;
    Term labels;
    labels.match_labels = {{"app", "web"}, {"tier", "front"}};
    Term ops;
    ops.match_expressions = {{"app", "In", {"web", "api"}},
                             {"tier", "NotIn", {"back"}},
                             {"zone", "Exists", {}},
                             {"legacy", "DoesNotExist", {}}};
    b.pod("default", "holder")
        .anti_affinity_to(absent)
        .anti_affinity_to(empty)
        .anti_affinity_to(labels)
        .anti_affinity_to(ops);
    kd::Snapshot s(b.build());
    kd::Pod holder = pa_pod(s, "default", "holder");
    auto matches = [&](size_t term, std::vector<std::pair<std::string, std::string>> pod_labels) {
        std::vector<kd_key_value> kv;
        for (auto& [k, v] : pod_labels) kv.push_back({kd::to_kd(k), kd::to_kd(v)});
        return kd::affinity_selector_matches(pa_term(holder, term), kd::KeyValues({kv.data(), kv.size()}));
    };
    SECTION("absent: selects no pod, even one without labels") {
        CHECK_FALSE(matches(0, {}));
        CHECK_FALSE(matches(0, {{"app", "web"}}));
    }
    SECTION("empty: selects every pod") {
        CHECK(matches(1, {}));
        CHECK(matches(1, {{"x", "y"}}));
    }
    SECTION("matchLabels: every label equal") {
        CHECK(matches(2, {{"app", "web"}, {"tier", "front"}, {"x", "y"}}));
        CHECK_FALSE(matches(2, {{"app", "web"}}));
        CHECK_FALSE(matches(2, {{"app", "web"}, {"tier", "back"}}));
    }
    SECTION("matchExpressions: In, NotIn (absent passes), Exists, DoesNotExist") {
        CHECK(matches(3, {{"app", "api"}, {"zone", "a"}}));
        CHECK(matches(3, {{"app", "web"}, {"tier", "front"}, {"zone", ""}}));
        CHECK_FALSE(matches(3, {{"app", "db"}, {"zone", "a"}}));
        CHECK_FALSE(matches(3, {{"app", "web"}, {"tier", "back"}, {"zone", "a"}}));
        CHECK_FALSE(matches(3, {{"app", "web"}}));
        CHECK_FALSE(matches(3, {{"app", "web"}, {"zone", "a"}, {"legacy", "1"}}));
    }
    SECTION("every valid selector has no problem") {
        for (size_t i = 0; i < 4; ++i) CHECK(kd::affinity_selector_problem(pa_term(holder, i)).empty());
    }
}

TEST_CASE("pod_affinity: a selector upstream cannot convert selects nothing and says why", "[pod_affinity]") {
    SnapshotBuilder b;
    Term unknown;
    unknown.match_expressions = {{"app", "Is", {"web"}}};
    Term in_without_values;
    in_without_values.match_expressions = {{"app", "In", {}}};
    Term exists_with_values;
    exists_with_values.match_expressions = {{"app", "Exists", {"web"}}};
    Term bad_key;
    bad_key.match_labels = {{"-app", "web"}};
    Term bad_value;
    bad_value.match_expressions = {{"app", "In", {"not a value"}}};
    b.pod("default", "holder")
        .label("app", "web")
        .anti_affinity_to(unknown)
        .anti_affinity_to(in_without_values)
        .anti_affinity_to(exists_with_values)
        .anti_affinity_to(bad_key)
        .anti_affinity_to(bad_value);
    kd::Snapshot s(b.build());
    kd::Pod holder = pa_pod(s, "default", "holder");
    CHECK(kd::affinity_selector_problem(pa_term(holder, 0)) == "matchExpressions operator \"Is\" is unknown");
    CHECK(kd::affinity_selector_problem(pa_term(holder, 1)) == "matchExpressions operator In needs values");
    CHECK(kd::affinity_selector_problem(pa_term(holder, 2)) == "matchExpressions operator Exists takes no values");
    CHECK(kd::affinity_selector_problem(pa_term(holder, 3)).find("matchLabels key: name \"-app\"") == 0);
    CHECK(kd::affinity_selector_problem(pa_term(holder, 4)) ==
          "matchExpressions value \"not a value\" is not a valid label value");
    for (size_t i = 0; i < 5; ++i) CHECK_FALSE(kd::affinity_selector_matches(pa_term(holder, i), holder.labels()));
}

TEST_CASE("pod_affinity: a term's namespaces are its list, else the pod's own, namespaceSelector is not read",
          "[pod_affinity]") {
    SnapshotBuilder b;
    Term own = pa_in("app", "web");
    Term listed = pa_in("app", "web");
    listed.namespaces = {"a", "b"};
    Term by_selector = pa_in("app", "web");
    by_selector.has_namespace_selector = true;  // empty: every namespace, for the scheduler
    b.pod("home", "holder").anti_affinity_to(own).anti_affinity_to(listed).anti_affinity_to(by_selector);
    b.pod("home", "web-home").label("app", "web");
    b.pod("a", "web-a").label("app", "web");
    b.pod("c", "web-c").label("app", "web");
    kd::Snapshot s(b.build());
    kd::Pod holder = pa_pod(s, "home", "holder");
    auto selects = [&](size_t term, const char* ns, const char* name) {
        return kd::pod_matches_affinity_term(holder, pa_term(holder, term), pa_pod(s, ns, name));
    };
    CHECK(selects(0, "home", "web-home"));
    CHECK_FALSE(selects(0, "a", "web-a"));
    CHECK_FALSE(selects(1, "home", "web-home"));
    CHECK(selects(1, "a", "web-a"));
    CHECK_FALSE(selects(1, "c", "web-c"));
    CHECK(selects(2, "home", "web-home"));
    CHECK_FALSE(selects(2, "c", "web-c"));
}

TEST_CASE("pod_affinity: topology domains", "[pod_affinity]") {
    SnapshotBuilder b;
    b.node("n1").label("zone", "a");
    b.node("n2").label("zone", "a");
    b.node("n3").label("zone", "b");
    b.node("n4");
    kd::Snapshot s(b.build());
    CHECK(kd::same_topology_domain(pa_node(s, "n1"), pa_node(s, "n2"), "zone"));
    CHECK_FALSE(kd::same_topology_domain(pa_node(s, "n1"), pa_node(s, "n3"), "zone"));
    CHECK_FALSE(kd::same_topology_domain(pa_node(s, "n1"), pa_node(s, "n4"), "zone"));
    CHECK_FALSE(kd::same_topology_domain(pa_node(s, "n4"), pa_node(s, "n1"), "zone"));
    // The same node is one domain whatever the key, even one it lacks.
    CHECK(kd::same_topology_domain(pa_node(s, "n4"), pa_node(s, "n4"), "zone"));
    CHECK(kd::same_topology_domain(pa_node(s, "n1"), pa_node(s, "n1"), "rack"));
}

// ---------------------------------------------------------------------------------------------
// TestCheckPodsWithAntiAffinityExist

TEST_CASE("pod_affinity: found pod matching pod anti-affinity", "[pod_affinity][upstream]") {
    SnapshotBuilder b;
    b.node("node").label("region", "main-region");
    b.pod("default", "p1").on("node").label("foo", "bar").anti_affinity_to(pa_in("foo", "bar"));
    b.pod("default", "p2").on("node").label("foo", "bar").anti_affinity_to(pa_in("foo", "bar"));
    kd::Snapshot s(b.build());
    CHECK(pa_violated(s, pa_pod(s, "default", "p1")) == AntiAffinityMatch::match);
}

TEST_CASE("pod_affinity: no match with invalid label selector", "[pod_affinity][upstream]") {
    // Upstream's pod has no node, so the node map lacks it and the answer is no before any term.
    SnapshotBuilder b;
    Term wrong;
    wrong.match_labels = {{"wrong", "selector"}};
    b.pod("", "").anti_affinity_to(wrong);
    kd::Snapshot s(b.build());
    CHECK(pa_violated(s, pa_pod(s, "", "")) == AntiAffinityMatch::none);
}

TEST_CASE("pod_affinity: no match if pod does not match terms namespace", "[pod_affinity][upstream]") {
    SnapshotBuilder b;
    b.pod("other", "p1").on("node").label("foo", "bar").anti_affinity_to(pa_in("foo", "bar"));
    kd::Snapshot s(b.build());
    CHECK(pa_violated(s, pa_pod(s, "other", "p1")) == AntiAffinityMatch::none);
}

// Ours.
TEST_CASE("pod_affinity: a violation is a selected pod in the same domain, not the pod itself by name",
          "[pod_affinity]") {
    SnapshotBuilder b;
    b.node("n1").label("zone", "a");
    b.node("n2").label("zone", "a");
    b.node("n3").label("zone", "b");
    b.pod("default", "holder").on("n1").label("app", "web").anti_affinity_to(pa_in("app", "web", "zone"));
    SECTION("alone: none (its own labels match, but it is skipped)") {
        kd::Snapshot s(b.build());
        CHECK(pa_violated(s, pa_pod(s, "default", "holder")) == AntiAffinityMatch::none);
    }
    SECTION("another node of the zone: match") {
        b.pod("default", "web-2").on("n2").label("app", "web");
        kd::Snapshot s(b.build());
        CHECK(pa_violated(s, pa_pod(s, "default", "holder")) == AntiAffinityMatch::match);
    }
    SECTION("another zone: none") {
        b.pod("default", "web-3").on("n3").label("app", "web");
        kd::Snapshot s(b.build());
        CHECK(pa_violated(s, pa_pod(s, "default", "holder")) == AntiAffinityMatch::none);
    }
    SECTION("a namespace the term does not name: none") {
        b.pod("other", "web-2").on("n2").label("app", "web");
        kd::Snapshot s(b.build());
        CHECK(pa_violated(s, pa_pod(s, "default", "holder")) == AntiAffinityMatch::none);
    }
    SECTION("a pod of the same name in a namespace the term names is skipped too") {
        Term t = pa_in("app", "web", "zone");
        t.namespaces = {"other"};
        b.pod("default", "holder2").on("n1").anti_affinity_to(t);
        b.pod("other", "holder2").on("n2").label("app", "web");
        b.pod("other", "web-9").on("n3").label("app", "web");
        kd::Snapshot s(b.build());
        CHECK(pa_violated(s, pa_pod(s, "default", "holder2")) == AntiAffinityMatch::none);
    }
    SECTION("a pod on a node outside the node map does not count") {
        b.pod("default", "web-x").on("gone").label("app", "web");
        kd::Snapshot s(b.build());
        CHECK(pa_violated(s, pa_pod(s, "default", "holder")) == AntiAffinityMatch::none);
    }
    SECTION("an invalid later term after a matching one: match; before it: invalid") {
        Term bad;
        bad.match_expressions = {{"app", "Is", {"web"}}};
        b.pod("default", "web-2").on("n2").label("app", "web");
        b.pod("default", "first-good").on("n1").anti_affinity_to(pa_in("app", "web", "zone")).anti_affinity_to(bad);
        b.pod("default", "first-bad").on("n1").anti_affinity_to(bad).anti_affinity_to(pa_in("app", "web", "zone"));
        kd::Snapshot s(b.build());
        CHECK(pa_violated(s, pa_pod(s, "default", "first-good")) == AntiAffinityMatch::match);
        CHECK(pa_violated(s, pa_pod(s, "default", "first-bad")) == AntiAffinityMatch::invalid);
    }
    SECTION("preferred terms are not read") {
        Term soft = pa_in("app", "web", "zone");
        soft.weight = 10;
        b.pod("default", "soft").on("n1").anti_affinity_to(soft);
        b.pod("default", "web-2").on("n2").label("app", "web");
        kd::Snapshot s(b.build());
        CHECK(pa_violated(s, pa_pod(s, "default", "soft")) == AntiAffinityMatch::none);
    }
}

// ---------------------------------------------------------------------------------------------
// TestNodeFit's anti-affinity cases: podMatchesInterPodAntiAffinity

TEST_CASE("pod_affinity: NodeFit's anti-affinity check", "[pod_affinity][upstream]") {
    SnapshotBuilder b;
    b.node("node").label("region", "main-region");
    b.node("nolabel");
    auto holder = [&](const std::string& node) {
        b.pod("default", "p1").on(node).label("foo", "bar").anti_affinity_to(pa_in("foo", "bar"));
    };
    auto check = [&](const std::string& node) {
        kd::Snapshot s(b.build());
        return kd::anti_affinity_match_on_node(pa_pod(s, "default", "p1"), pa_node(s, node), s.pods_on_node(node));
    };
    SECTION("Pod matches inter-pod anti-affinity rule of other pod on node") {
        holder("node");
        b.pod("default", "p2").on("node").label("foo", "bar").anti_affinity_to(pa_in("foo", "bar"));
        CHECK(check("node") == AntiAffinityMatch::match);
    }
    SECTION(
        "Pod doesn't match inter-pod anti-affinity rule of other pod on node, because pod and other pod is not "
        "same namespace") {
        holder("node");
        b.pod("test", "p2").on("node").label("foo", "bar").anti_affinity_to(pa_in("foo", "bar"));
        CHECK(check("node") == AntiAffinityMatch::none);
    }
    SECTION(
        "Pod doesn't match inter-pod anti-affinity rule of other pod on node, because other pod not match labels "
        "of pod") {
        holder("node");
        b.pod("default", "p2").on("node").label("foo1", "bar1").anti_affinity_to(pa_in("foo1", "bar1"));
        CHECK(check("node") == AntiAffinityMatch::none);
    }
    SECTION("Pod doesn't match inter-pod anti-affinity rule of other pod on node, because node have no topologyKey") {
        holder("node1");
        b.pod("default", "p2").on("nolabel").label("foo", "bar").anti_affinity_to(pa_in("foo", "bar"));
        CHECK(check("nolabel") == AntiAffinityMatch::none);
    }
    // Ours.
    SECTION("a Succeeded or Failed pod on the node does not count") {
        holder("n9");
        b.pod("default", "done").on("node").label("foo", "bar").in_phase(KD_POD_SUCCEEDED);
        b.pod("default", "failed").on("node").label("foo", "bar").in_phase(KD_POD_FAILED);
        CHECK(check("node") == AntiAffinityMatch::none);
    }
    SECTION("the topologyKey label is enough, whatever its value") {
        holder("n9");
        b.pod("default", "p2").on("node").label("foo", "bar");
        CHECK(check("node") == AntiAffinityMatch::match);
    }
    SECTION("only the pod's own terms are read, not those of the pods there") {
        b.pod("default", "p1").on("n9").label("foo", "bar");
        b.pod("default", "p2").on("node").anti_affinity_to(pa_in("foo", "bar"));
        CHECK(check("node") == AntiAffinityMatch::none);
    }
    SECTION("an invalid selector: invalid, even with nothing on the node") {
        Term bad;
        bad.match_expressions = {{"foo", "In", {}}};
        b.pod("default", "p1").on("n9").anti_affinity_to(bad);
        CHECK(check("node") == AntiAffinityMatch::invalid);
    }
}
