// kd/node_fit.hpp on its own: toleration matching, node selector terms, request totals and
// pod_fits_any_other_node.
#include <kdesched/node_fit.hpp>
#include <kdesched/testing.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using kd::testing::SnapshotBuilder;

namespace {

kd_toleration toleration(const char* key, const char* op, const char* value, const char* effect) {
    return {sizeof(kd_toleration), kd::to_kd(key), kd::to_kd(op), kd::to_kd(value), kd::to_kd(effect)};
}
kd_taint taint(const char* key, const char* value, const char* effect) {
    return {sizeof(kd_taint), kd::to_kd(key), kd::to_kd(value), kd::to_kd(effect)};
}

// A requirement with its own storage for the values.
struct Req {
    std::vector<kd_str> values;
    kd_selector_requirement raw{};
    Req(const char* key, const char* op, std::vector<const char*> vals) {
        for (auto v : vals) values.push_back(kd::to_kd(v));
        raw = {sizeof(kd_selector_requirement), kd::to_kd(key), kd::to_kd(op), {values.data(), values.size()}};
    }
    Req(const Req&) = delete;
    kd::SelectorRequirement view() const { return kd::SelectorRequirement(&raw); }
};

}  // namespace

TEST_CASE("node_fit: toleration matching follows Kubernetes", "[node_fit]") {
    struct Case {
        const char* what;
        kd_toleration tol;
        kd_taint taint;
        bool tolerated;
    };
    const Case cases[] = {
        {"empty key + Exists tolerates everything", toleration("", "Exists", "", ""), taint("a", "b", "NoExecute"),
         true},
        {"key + Exists, any value", toleration("a", "Exists", "", "NoSchedule"), taint("a", "zzz", "NoSchedule"), true},
        {"key + Equal, same value", toleration("a", "Equal", "b", "NoSchedule"), taint("a", "b", "NoSchedule"), true},
        {"operator \"\" means Equal", toleration("a", "", "b", "NoSchedule"), taint("a", "b", "NoSchedule"), true},
        {"Equal, other value", toleration("a", "Equal", "c", "NoSchedule"), taint("a", "b", "NoSchedule"), false},
        {"empty effect matches every effect", toleration("a", "Equal", "b", ""), taint("a", "b", "NoExecute"), true},
        {"other effect", toleration("a", "Equal", "b", "NoSchedule"), taint("a", "b", "NoExecute"), false},
        {"other key", toleration("x", "Exists", "", ""), taint("a", "b", "NoSchedule"), false},
        {"unknown operator", toleration("a", "Gt", "1", ""), taint("a", "2", "NoSchedule"), false},
        {"empty key + Equal compares values only", toleration("", "Equal", "", ""), taint("any", "", "NoSchedule"),
         true},
    };
    for (const auto& c : cases) {
        INFO(c.what);
        CHECK(kd::toleration_tolerates_taint(kd::Toleration(&c.tol), kd::Taint(&c.taint)) == c.tolerated);
    }
}

TEST_CASE("node_fit: toleration_tolerates_taint_comparing adds Lt and Gt as Kubernetes 1.35", "[node_fit]") {
    struct Case {
        const char* what;
        kd_toleration tol;
        kd_taint taint;
        bool tolerated;
    };
    const Case cases[] = {
        {"Gt: taint value above", toleration("a", "Gt", "1", "NoSchedule"), taint("a", "2", "NoSchedule"), true},
        {"Gt: equal is not above", toleration("a", "Gt", "2", "NoSchedule"), taint("a", "2", "NoSchedule"), false},
        {"Lt: taint value below", toleration("a", "Lt", "10", ""), taint("a", "-3", "NoExecute"), true},
        {"Lt: not below", toleration("a", "Lt", "-4", ""), taint("a", "-3", "NoExecute"), false},
        {"other effect", toleration("a", "Gt", "1", "NoSchedule"), taint("a", "2", "NoExecute"), false},
        {"other key", toleration("b", "Gt", "1", ""), taint("a", "2", "NoSchedule"), false},
        {"empty key: every key", toleration("", "Gt", "1", ""), taint("a", "2", "NoSchedule"), true},
        {"leading zero in the taint", toleration("a", "Gt", "1", ""), taint("a", "02", "NoSchedule"), false},
        {"leading zero in the toleration", toleration("a", "Lt", "05", ""), taint("a", "2", "NoSchedule"), false},
        {"plus sign", toleration("a", "Gt", "1", ""), taint("a", "+2", "NoSchedule"), false},
        {"-0", toleration("a", "Lt", "1", ""), taint("a", "-0", "NoSchedule"), false},
        {"0", toleration("a", "Lt", "1", ""), taint("a", "0", "NoSchedule"), true},
        {"not a number", toleration("a", "Gt", "1", ""), taint("a", "x", "NoSchedule"), false},
        {"empty value", toleration("a", "Gt", "1", ""), taint("a", "", "NoSchedule"), false},
        {"beyond int64", toleration("a", "Lt", "1", ""), taint("a", "-9223372036854775809", "NoSchedule"), false},
        {"int64 min", toleration("a", "Lt", "1", ""), taint("a", "-9223372036854775808", "NoSchedule"), true},
        {"Equal as before", toleration("a", "Equal", "b", ""), taint("a", "b", "NoSchedule"), true},
        {"Exists as before", toleration("a", "Exists", "", ""), taint("a", "b", "NoSchedule"), true},
    };
    for (const auto& c : cases) {
        INFO(c.what);
        CHECK(kd::toleration_tolerates_taint_comparing(kd::Toleration(&c.tol), kd::Taint(&c.taint)) == c.tolerated);
    }
}

TEST_CASE("node_fit: only NoSchedule and NoExecute taints must be tolerated", "[node_fit]") {
    SnapshotBuilder b;
    b.node("soft").taint("spot", "true", "PreferNoSchedule");
    b.node("hard").taint("spot", "true", "NoSchedule").taint("drain", "", "NoExecute");
    b.pod("default", "plain");
    b.pod("default", "half").tolerate("spot", "Equal", "true", "NoSchedule");
    b.pod("default", "all").tolerate("spot", "Exists", "", "").tolerate("drain", "Exists", "", "NoExecute");
    kd::Snapshot s(b.build());
    auto node = [&](const char* n) { return *s.find_node(n); };
    auto pod = [&](const char* n) { return *s.find_pod("default", n); };
    CHECK(kd::pod_tolerates_node_taints(pod("plain"), node("soft")));
    CHECK_FALSE(kd::pod_tolerates_node_taints(pod("plain"), node("hard")));
    CHECK_FALSE(kd::pod_tolerates_node_taints(pod("half"), node("hard")));
    CHECK(kd::pod_tolerates_node_taints(pod("all"), node("hard")));
}

TEST_CASE("node_fit: node selector requirements", "[node_fit]") {
    SnapshotBuilder b;
    b.node("n1").label("zone", "a").label("cores", "16").label("weird", "x1");
    kd::Snapshot s(b.build());
    kd::Node n = *s.find_node("n1");
    kd::KeyValues labels = n.labels();
    struct Case {
        const char* key;
        const char* op;
        std::vector<const char*> values;
        bool matches;
    };
    const std::vector<Case> cases = {
        {"zone", "In", {"a", "b"}, true},  {"zone", "In", {"b"}, false},          {"missing", "In", {"a"}, false},
        {"zone", "In", {}, false},  // malformed: matches nothing
        {"zone", "NotIn", {"b"}, true},    {"zone", "NotIn", {"a"}, false},       {"missing", "NotIn", {"a"}, true},
        {"zone", "NotIn", {}, false},      {"zone", "Exists", {}, true},          {"missing", "Exists", {}, false},
        {"zone", "Exists", {"a"}, false},  {"missing", "DoesNotExist", {}, true}, {"zone", "DoesNotExist", {}, false},
        {"cores", "Gt", {"8"}, true},      {"cores", "Gt", {"16"}, false},        {"cores", "Lt", {"32"}, true},
        {"cores", "Lt", {"+16"}, false},   {"cores", "Gt", {"-3"}, true},         {"cores", "Gt", {"8", "9"}, false},
        {"cores", "Gt", {"eight"}, false}, {"weird", "Gt", {"0"}, false},  // label is not an integer
        {"missing", "Lt", {"100"}, false}, {"zone", "Equals", {"a"}, false},
    };
    for (const auto& c : cases) {
        INFO(c.key << " " << c.op);
        Req r(c.key, c.op, c.values);
        CHECK(kd::node_label_requirement_matches(r.view(), labels) == c.matches);
    }
}

TEST_CASE("node_fit: matchFields knows metadata.name", "[node_fit]") {
    SnapshotBuilder b;
    b.node("n1");
    kd::Snapshot s(b.build());
    kd::Node n = *s.find_node("n1");
    CHECK(kd::node_field_requirement_matches(Req("metadata.name", "In", {"n1"}).view(), n));
    CHECK_FALSE(kd::node_field_requirement_matches(Req("metadata.name", "In", {"n2"}).view(), n));
    CHECK(kd::node_field_requirement_matches(Req("metadata.name", "NotIn", {"n2"}).view(), n));
    CHECK_FALSE(kd::node_field_requirement_matches(Req("metadata.name", "In", {"n1", "n2"}).view(), n));
    CHECK_FALSE(kd::node_field_requirement_matches(Req("metadata.name", "Exists", {}).view(), n));
    CHECK_FALSE(kd::node_field_requirement_matches(Req("metadata.uid", "In", {"x"}).view(), n));
}

TEST_CASE("node_fit: nodeSelector and required affinity", "[node_fit]") {
    SnapshotBuilder b;
    b.node("n1").label("zone", "a").label("disk", "ssd");
    b.node("n2").label("zone", "b");
    b.pod("default", "free");
    b.pod("default", "sel").select_node("zone", "a").select_node("disk", "ssd");
    b.pod("default", "sel-miss").select_node("disk", "hdd");
    b.pod("default", "or").require_node("zone", "In", {"x"}).require_node("zone", "In", {"b"});
    auto& and_term = b.pod("default", "and");
    and_term.affinity.push_back({{{"zone", "In", {"a", "b"}}, {"disk", "Exists", {}}}, {}});
    and_term.flags |= KD_POD_HAS_NODE_AFFINITY;
    auto& name_term = b.pod("default", "by-name");
    name_term.affinity.push_back({{{"zone", "Exists", {}}}, {{"metadata.name", "In", {"n2"}}}});
    name_term.flags |= KD_POD_HAS_NODE_AFFINITY;
    b.pod("default", "no-terms").set_flag(KD_POD_HAS_NODE_AFFINITY);
    auto& empty_term = b.pod("default", "empty-term");
    empty_term.affinity.push_back({});
    empty_term.flags |= KD_POD_HAS_NODE_AFFINITY;
    b.pod("default", "both").select_node("zone", "a").require_node("zone", "In", {"b"});

    kd::Snapshot s(b.build());
    auto fits = [&](const char* pod, const char* node) {
        return kd::pod_matches_node_selector(*s.find_pod("default", pod), *s.find_node(node));
    };
    CHECK(fits("free", "n1"));
    CHECK(fits("sel", "n1"));
    CHECK_FALSE(fits("sel", "n2"));
    CHECK_FALSE(fits("sel-miss", "n1"));
    CHECK_FALSE(fits("or", "n1"));
    CHECK(fits("or", "n2"));
    CHECK(fits("and", "n1"));
    CHECK_FALSE(fits("and", "n2"));  // no disk label
    CHECK_FALSE(fits("by-name", "n1"));
    CHECK(fits("by-name", "n2"));
    CHECK_FALSE(fits("no-terms", "n1"));
    CHECK_FALSE(fits("empty-term", "n1"));
    CHECK_FALSE(fits("both", "n1"));  // nodeSelector and affinity must both hold
    CHECK_FALSE(fits("both", "n2"));
}

TEST_CASE("node_fit: NodeRequestTotals sums non-finished pods once per node", "[node_fit]") {
    SnapshotBuilder b;
    b.node("n1").allocatable("cpu", "4").allocatable("memory", "8Gi").allocatable("example.com/dongle", "2");
    b.node("n2").allocatable("cpu", "2");
    b.pod("default", "a").on("n1").request("cpu", "1500m").request("memory", "1Gi");
    b.pod("default", "b").on("n1").request("cpu", "500m").request("example.com/dongle", "1");
    b.pod("default", "c").on("n1").request("cpu", "3").in_phase(KD_POD_SUCCEEDED);
    b.pod("default", "d").on("n1").request("cpu", "3").in_phase(KD_POD_FAILED);
    b.pod("default", "e").on("n1").request("memory", "1Gi").in_phase(KD_POD_PENDING);
    b.pod("default", "want-2cpu").request("cpu", "2");
    b.pod("default", "want-2001m").request("cpu", "2001m");
    b.pod("default", "want-dongle").request("example.com/dongle", "1");
    b.pod("default", "want-2-dongles").request("example.com/dongle", "2");
    b.pod("default", "want-gpu").request("nvidia.com/gpu", "1");
    b.pod("default", "want-zero-gpu").request("nvidia.com/gpu", "0");
    b.pod("default", "want-nothing");
    kd::Snapshot s(b.build());
    kd::Node n1 = *s.find_node("n1");
    kd::Node n2 = *s.find_node("n2");
    auto pod = [&](const char* n) { return *s.find_pod("default", n); };

    kd::NodeRequestTotals totals(s);
    CHECK(totals.cached_nodes() == 0);
    CHECK(totals.requested(n1, "cpu") == 2000);
    CHECK(totals.requested(n1, "memory") == 2LL * 1024 * 1024 * 1024 * 1000);
    CHECK(totals.requested(n1, "example.com/dongle") == 1000);
    CHECK(totals.requested(n1, "nvidia.com/gpu") == 0);
    CHECK(totals.cached_nodes() == 1);
    CHECK(totals.requested(n2, "cpu") == 0);
    CHECK(totals.cached_nodes() == 2);

    CHECK(totals.resources_fit(pod("want-2cpu"), n1));  // 4 - 2 = 2: equal fits
    CHECK_FALSE(totals.resources_fit(pod("want-2001m"), n1));
    CHECK(totals.resources_fit(pod("want-dongle"), n1));
    CHECK_FALSE(totals.resources_fit(pod("want-2-dongles"), n1));
    CHECK_FALSE(totals.resources_fit(pod("want-gpu"), n1));  // absent from allocatable = 0 available
    CHECK(totals.resources_fit(pod("want-zero-gpu"), n1));
    CHECK(totals.resources_fit(pod("want-nothing"), n1));
    CHECK(totals.check(pod("want-gpu"), n1) == kd::NodeFitFailure::resources);
    CHECK(std::string(kd::node_fit_failure_name(kd::NodeFitFailure::resources)) == "Resources");

    totals.reset(s);
    CHECK(totals.cached_nodes() == 0);
}

TEST_CASE("node_fit: check order and over-committed nodes", "[node_fit]") {
    SnapshotBuilder b;
    b.node("full").allocatable("cpu", "1");
    b.node("cordoned").allocatable("cpu", "8").cordon().taint("x", "", "NoSchedule");
    b.node("tainted").allocatable("cpu", "8").taint("x", "", "NoSchedule").label("zone", "a");
    b.pod("default", "hog").on("full").request("cpu", "2");  // over-committed: -1 CPU left
    b.pod("default", "zero").request("cpu", "0").select_node("zone", "b");
    kd::Snapshot s(b.build());
    kd::NodeRequestTotals totals(s);
    kd::Pod zero = *s.find_pod("default", "zero");
    CHECK(totals.check(zero, *s.find_node("cordoned")) == kd::NodeFitFailure::unschedulable);
    CHECK(totals.check(zero, *s.find_node("tainted")) == kd::NodeFitFailure::taints);
    CHECK_FALSE(totals.resources_fit(zero, *s.find_node("full")));  // 0 > -1000
}

TEST_CASE("node_fit: pod_fits_any_other_node", "[node_fit]") {
    SnapshotBuilder b;
    b.node("n1").allocatable("cpu", "4");
    b.node("n2").allocatable("cpu", "1").label("pool", "small");
    b.node("n3").allocatable("cpu", "4").not_ready();
    b.pod("default", "p").on("n1").request("cpu", "2");
    b.pod("default", "q").on("n1").request("cpu", "1");
    b.pod("default", "unbound").request("cpu", "1");
    const kd_snapshot* raw = b.build();
    kd::Snapshot s(raw);
    kd::NodeRequestTotals totals(s);
    auto pod = [&](const char* n) { return *s.find_pod("default", n); };

    CHECK_FALSE(kd::pod_fits_any_other_node(s, pod("p"), totals));  // only its own node has room
    CHECK(kd::pod_fits_any_other_node(s, pod("q"), totals));        // n2 has exactly 1 CPU
    auto not_small = [](const kd::Node& n) { return !n.labels().has("pool"); };
    CHECK_FALSE(kd::pod_fits_any_other_node_if(s, pod("q"), totals, not_small));  // n1 is its own, n2 filtered
    CHECK(kd::pod_fits_any_other_node_if(s, pod("unbound"), totals, not_small));  // no own node: n1 counts

    // A host that lists a not-ready node in all_nodes: it is still skipped.
    std::vector<const kd_node*> with_not_ready(raw->all_nodes, raw->all_nodes + raw->all_node_count);
    with_not_ready.push_back(s.find_node("n3")->raw());
    kd_snapshot copy = *raw;
    copy.all_nodes = with_not_ready.data();
    copy.all_node_count = with_not_ready.size();
    kd::Snapshot s2(&copy);
    totals.rebind(s2);
    CHECK_FALSE(kd::pod_fits_any_other_node(s2, pod("p"), totals));
}

TEST_CASE("node_fit: parse_int64 is Go's ParseInt(s, 10, 64)", "[node_fit]") {
    using kd::detail::parse_int64;
    CHECK(parse_int64("0") == 0);
    CHECK(parse_int64("+42") == 42);
    CHECK(parse_int64("-42") == -42);
    CHECK(parse_int64("9223372036854775807") == INT64_MAX);
    CHECK(parse_int64("-9223372036854775808") == INT64_MIN);
    CHECK_FALSE(parse_int64("9223372036854775808"));
    CHECK_FALSE(parse_int64("-9223372036854775809"));
    CHECK_FALSE(parse_int64(""));
    CHECK_FALSE(parse_int64("-"));
    CHECK_FALSE(parse_int64("1a"));
    CHECK_FALSE(parse_int64(" 1"));
    CHECK_FALSE(parse_int64("1.0"));
}
