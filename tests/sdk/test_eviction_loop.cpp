// kd::evict_in_order (sdk/include/kdesched/eviction_loop.hpp) driven by a plugin on the fake host,
// whose evict runs as the real host's does: Filter → PreEvictionFilter (unless the request skips
// it) → limits → dry run → the evict plugin's answer. The loop is upstream's (kubernetes-sigs/
// descheduler v0.35.1 pkg/framework/plugins/podlifetime/pod_lifetime.go, nodeutilization.go):
// in the caller's order, a refused pod is passed over, the total limit ends the loop.
#include <kdesched/eviction_loop.hpp>
#include <kdesched/plugin.hpp>
#include <kdesched/testing.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

// What the probe did in its last hook call.
struct LoopProbeRun {
    kd::EvictionTally tally;
    std::vector<std::string> outcomes;  // "ns/name code", as on_outcome saw them
};
LoopProbeRun last_run;

struct LoopProbeArgs {
    std::vector<std::string> pods;  // "ns/name", in the order to ask
    std::string node;               // instead of `pods`: the pods on this node, the snapshot's order
    std::optional<int64_t> atMost;
    bool stopAtNodeLimit = false;
    bool preEvictionFilter = true;
    bool rawPods = false;  // hand the loop const kd_pod* rather than kd::Pod
    template <class V>
    void fields(V& v) {
        v("pods", pods);
        v("node", node);
        v("atMost", atMost);
        v("stopAtNodeLimit", stopAtNodeLimit);
        v("preEvictionFilter", preEvictionFilter);
        v("rawPods", rawPods);
    }
};

// A plugin that evicts the pods its args name, through the SDK's loop.
class LoopProbe {
public:
    static constexpr const char* kName = "LoopProbe";
    static constexpr const char* kVersion = "0.0.1";
    using Args = LoopProbeArgs;
    LoopProbe(kd::Host&, Args args) : args_(std::move(args)) {}

    void deschedule(kd::Cycle& cycle) {
        last_run = {};
        kd::EvictionLoop how{.reason = "probe",
                             .options = {.pre_eviction_filter = args_.preEvictionFilter},
                             .stop_at_node_limit = args_.stopAtNodeLimit};
        if (args_.atMost) how.at_most = static_cast<size_t>(*args_.atMost);
        auto record = [](const kd::Pod& pod, const kd::EvictOutcome& out) {
            last_run.outcomes.push_back(pod.key() + " " + kd::evict_code_name(out.code));
        };
        kd::Snapshot snap = cycle.snapshot();
        if (!args_.node.empty()) {
            last_run.tally = kd::evict_in_order(cycle, snap.pods_on_node(args_.node), how, record);
            return;
        }
        std::vector<kd::Pod> pods;
        std::vector<const kd_pod*> raw;
        for (const auto& key : args_.pods) {
            auto slash = key.find('/');
            auto pod = snap.find_pod(key.substr(0, slash), key.substr(slash + 1));
            if (!pod) throw std::runtime_error("no pod " + key);
            pods.push_back(*pod);
            raw.push_back(pod->raw());
        }
        last_run.tally =
            args_.rawPods ? kd::evict_in_order(cycle, raw, how, record) : kd::evict_in_order(cycle, pods, how, record);
    }

private:
    Args args_;
};

// Pods a, b on n1; c, d on n2; all in namespace "ns" unless named with another.
void loop_four_pods(kd::testing::SnapshotBuilder& b) {
    b.node("n1");
    b.node("n2");
    b.pod("ns", "a").on("n1");
    b.pod("ns", "b").on("n1");
    b.pod("ns", "c").on("n2");
    b.pod("ns", "d").on("n2");
}

const std::string kLoopAllFour = R"("pods": ["ns/a", "ns/b", "ns/c", "ns/d"])";

std::vector<std::string> asked_of(const kd::testing::FakeHost& host) {
    std::vector<std::string> out;
    for (const auto& e : host.evictions()) out.push_back(e.pod);
    return out;
}

using LoopNames = std::vector<std::string>;

}  // namespace

TEST_CASE("evict_in_order: every pod asked in the caller's order, each answer seen", "[sdk][eviction-loop]") {
    kd::testing::SnapshotBuilder b;
    loop_four_pods(b);
    kd::testing::FakeHost host;
    auto plugin = host.instantiate<LoopProbe>(R"({"pods": ["ns/c", "ns/a", "ns/d", "ns/b"]})");
    plugin.deschedule(b.build());
    CHECK(asked_of(host) == LoopNames{"ns/c", "ns/a", "ns/d", "ns/b"});
    CHECK(host.evicted() == LoopNames{"ns/c", "ns/a", "ns/d", "ns/b"});
    CHECK(host.evictions()[0].reason == "probe");
    CHECK(host.evictions()[0].plugin == "LoopProbe");
    CHECK(last_run.outcomes == LoopNames{"ns/c accepted", "ns/a accepted", "ns/d accepted", "ns/b accepted"});
    CHECK(last_run.tally.evicted == 4);
    CHECK(last_run.tally.refused == 0);
    CHECK(last_run.tally.untried == 0);
    CHECK(last_run.tally.stopped_by == KD_EVICT_ACCEPTED);
    CHECK_FALSE(last_run.tally.reached_at_most);

    SECTION("from const kd_pod* and from a node's pods alike") {
        host.clear();
        host.instantiate<LoopProbe>(R"({"pods": ["ns/d", "ns/a"], "rawPods": true})").deschedule(b.build());
        CHECK(host.evicted() == LoopNames{"ns/d", "ns/a"});
        CHECK(last_run.tally.evicted == 2);
        host.clear();
        host.instantiate<LoopProbe>(R"({"node": "n2"})").deschedule(b.build());
        CHECK(host.evicted() == LoopNames{"ns/c", "ns/d"});
        CHECK(last_run.tally.evicted == 2);
    }
    SECTION("no pods: nothing asked") {
        host.clear();
        host.instantiate<LoopProbe>(R"({"pods": []})").deschedule(b.build());
        CHECK(host.evictions().empty());
        CHECK(last_run.tally.evicted + last_run.tally.refused + last_run.tally.untried == 0);
        CHECK_FALSE(last_run.tally.reached_at_most);
    }
}

TEST_CASE("evict_in_order: at_most caps the evictions, and no request is made past it", "[sdk][eviction-loop]") {
    kd::testing::SnapshotBuilder b;
    loop_four_pods(b);
    kd::testing::FakeHost host;
    SECTION("2 of 4") {
        host.instantiate<LoopProbe>("{" + kLoopAllFour + R"(, "atMost": 2})").deschedule(b.build());
        CHECK(asked_of(host) == LoopNames{"ns/a", "ns/b"});
        CHECK(last_run.tally.evicted == 2);
        CHECK(last_run.tally.untried == 2);
        CHECK(last_run.tally.reached_at_most);
        CHECK(last_run.tally.stopped_by == KD_EVICT_ACCEPTED);
    }
    SECTION("refused pods do not count towards it") {
        host.on_evict = [](const kd::Pod& p) {
            return p.name() == "a" ? kd::EvictOutcome::failed("boom") : kd::EvictOutcome::accepted();
        };
        host.instantiate<LoopProbe>("{" + kLoopAllFour + R"(, "atMost": 2})").deschedule(b.build());
        CHECK(asked_of(host) == LoopNames{"ns/a", "ns/b", "ns/c"});
        CHECK(host.evicted() == LoopNames{"ns/b", "ns/c"});
        CHECK(last_run.tally.refused == 1);
        CHECK(last_run.tally.untried == 1);
        CHECK(last_run.tally.reached_at_most);
    }
    SECTION("reached on the last pod") {
        host.instantiate<LoopProbe>("{" + kLoopAllFour + R"(, "atMost": 4})").deschedule(b.build());
        CHECK(last_run.tally.evicted == 4);
        CHECK(last_run.tally.untried == 0);
        CHECK(last_run.tally.reached_at_most);
    }
    SECTION("more than there are") {
        host.instantiate<LoopProbe>("{" + kLoopAllFour + R"(, "atMost": 5})").deschedule(b.build());
        CHECK(last_run.tally.evicted == 4);
        CHECK_FALSE(last_run.tally.reached_at_most);
    }
    SECTION("0: nothing asked") {
        host.instantiate<LoopProbe>("{" + kLoopAllFour + R"(, "atMost": 0})").deschedule(b.build());
        CHECK(host.evictions().empty());
        CHECK(last_run.tally.untried == 4);
        CHECK(last_run.tally.reached_at_most);
    }
}

TEST_CASE("evict_in_order: a failed eviction or the evict plugin's refusal passes the pod over",
          "[sdk][eviction-loop]") {
    kd::testing::SnapshotBuilder b;
    loop_four_pods(b);
    kd::testing::FakeHost host;
    host.on_evict = [](const kd::Pod& p) {
        if (p.name() == "a") return kd::EvictOutcome::failed("the API server said no");
        if (p.name() == "c") return kd::EvictOutcome::filtered("BudgetExhausted");
        return kd::EvictOutcome::accepted();
    };
    host.instantiate<LoopProbe>("{" + kLoopAllFour + "}").deschedule(b.build());
    CHECK(asked_of(host) == LoopNames{"ns/a", "ns/b", "ns/c", "ns/d"});
    CHECK(host.evicted() == LoopNames{"ns/b", "ns/d"});
    CHECK(last_run.outcomes == LoopNames{"ns/a failed", "ns/b accepted", "ns/c filtered", "ns/d accepted"});
    CHECK(last_run.tally.evicted == 2);
    CHECK(last_run.tally.refused == 2);
    CHECK(last_run.tally.untried == 0);
    CHECK(last_run.tally.stopped_by == KD_EVICT_ACCEPTED);
}

TEST_CASE("evict_in_order: in dry run every pod counts as evicted", "[sdk][eviction-loop]") {
    kd::testing::SnapshotBuilder b;
    loop_four_pods(b);
    kd::testing::FakeHost host;
    host.dry_run = true;
    host.instantiate<LoopProbe>("{" + kLoopAllFour + R"(, "atMost": 3})").deschedule(b.build());
    CHECK(last_run.outcomes == LoopNames{"ns/a dry-run", "ns/b dry-run", "ns/c dry-run"});
    CHECK(last_run.tally.evicted == 3);
    CHECK(last_run.tally.reached_at_most);
}

TEST_CASE("evict_in_order: a filter's rejection passes the pod over, naming the filter plugin and its reason",
          "[sdk][eviction-loop]") {
    kd::testing::SnapshotBuilder b;
    loop_four_pods(b);
    kd::testing::FakeHost host;
    host.on_filter = [](const kd::Pod& p) {
        return p.name() == "b" ? kd::Verdict::reject("DaemonSetPod") : kd::Verdict::allow();
    };
    host.instantiate<LoopProbe>("{" + kLoopAllFour + "}").deschedule(b.build());
    CHECK(asked_of(host) == LoopNames{"ns/a", "ns/b", "ns/c", "ns/d"});
    CHECK(host.evicted() == LoopNames{"ns/a", "ns/c", "ns/d"});
    const auto& refused = host.evictions()[1].outcome;
    CHECK(refused.code == KD_EVICT_FILTERED);
    CHECK(refused.plugin == "DefaultEvictor");
    CHECK(refused.reason == "DaemonSetPod");
    CHECK(last_run.tally.refused == 1);
    CHECK(last_run.tally.evicted == 3);
}

TEST_CASE("evict_in_order: the PreEvictionFilter runs unless the loop's options skip it", "[sdk][eviction-loop]") {
    kd::testing::SnapshotBuilder b;
    loop_four_pods(b);
    kd::testing::FakeHost host;
    int pre_filter_calls = 0;
    host.on_pre_eviction_filter = [&](const kd::Pod&) {
        ++pre_filter_calls;
        return kd::Verdict::reject("NodeFit");
    };
    SECTION("default: asked, and it refuses every pod") {
        host.instantiate<LoopProbe>("{" + kLoopAllFour + "}").deschedule(b.build());
        CHECK(pre_filter_calls == 4);
        CHECK(host.evicted().empty());
        CHECK(host.evictions().size() == 4);
        CHECK(host.evictions()[0].outcome.code == KD_EVICT_FILTERED);
        CHECK(host.evictions()[0].outcome.reason == "NodeFit");
        CHECK(last_run.tally.refused == 4);
        CHECK(last_run.tally.stopped_by == KD_EVICT_ACCEPTED);
    }
    SECTION("pre_eviction_filter = false: never asked, every pod evicted") {
        host.instantiate<LoopProbe>("{" + kLoopAllFour + R"(, "preEvictionFilter": false})").deschedule(b.build());
        CHECK(pre_filter_calls == 0);
        CHECK(host.evicted() == LoopNames{"ns/a", "ns/b", "ns/c", "ns/d"});
        CHECK(last_run.tally.evicted == 4);
    }
}

TEST_CASE("evict_in_order: a node's limit passes the pod over, the next pod on another node is still evicted",
          "[sdk][eviction-loop][limits]") {
    kd::testing::SnapshotBuilder b;
    loop_four_pods(b);
    kd::testing::FakeHost host;
    host.limits.per_node = 1;
    host.instantiate<LoopProbe>("{" + kLoopAllFour + "}").deschedule(b.build());
    CHECK(asked_of(host) == LoopNames{"ns/a", "ns/b", "ns/c", "ns/d"});
    CHECK(host.evicted() == LoopNames{"ns/a", "ns/c"});
    CHECK(last_run.outcomes == LoopNames{"ns/a accepted", "ns/b limit-node", "ns/c accepted", "ns/d limit-node"});
    CHECK(last_run.tally.evicted == 2);
    CHECK(last_run.tally.refused == 2);
    CHECK(last_run.tally.untried == 0);
    CHECK(last_run.tally.stopped_by == KD_EVICT_ACCEPTED);
}

TEST_CASE("evict_in_order: stop_at_node_limit ends the loop at the node's limit", "[sdk][eviction-loop][limits]") {
    kd::testing::SnapshotBuilder b;
    loop_four_pods(b);
    kd::testing::FakeHost host;
    host.limits.per_node = 1;
    host.instantiate<LoopProbe>(R"({"node": "n1", "stopAtNodeLimit": true})").deschedule(b.build());
    CHECK(asked_of(host) == LoopNames{"ns/a", "ns/b"});
    CHECK(host.evicted() == LoopNames{"ns/a"});
    CHECK(last_run.tally.evicted == 1);
    CHECK(last_run.tally.refused == 1);
    CHECK(last_run.tally.untried == 0);
    CHECK(last_run.tally.stopped_by == KD_EVICT_LIMIT_NODE);

    SECTION("over several nodes, the pods after it are untried") {
        host.clear();
        host.instantiate<LoopProbe>("{" + kLoopAllFour + R"(, "stopAtNodeLimit": true})").deschedule(b.build());
        CHECK(asked_of(host) == LoopNames{"ns/a", "ns/b"});
        CHECK(last_run.tally.untried == 2);
        CHECK(last_run.tally.stopped_by == KD_EVICT_LIMIT_NODE);
    }
}

TEST_CASE("evict_in_order: a namespace's limit passes the pod over, another namespace's pod is still evicted",
          "[sdk][eviction-loop][limits]") {
    kd::testing::SnapshotBuilder b;
    b.node("n1");
    b.pod("team-a", "a1").on("n1");
    b.pod("team-a", "a2").on("n1");
    b.pod("team-b", "b1").on("n1");
    kd::testing::FakeHost host;
    host.limits.per_namespace = 1;
    host.instantiate<LoopProbe>(R"({"pods": ["team-a/a1", "team-a/a2", "team-b/b1"], "stopAtNodeLimit": true})")
        .deschedule(b.build());
    CHECK(host.evicted() == LoopNames{"team-a/a1", "team-b/b1"});
    CHECK(last_run.outcomes == LoopNames{"team-a/a1 accepted", "team-a/a2 limit-namespace", "team-b/b1 accepted"});
    CHECK(last_run.tally.refused == 1);
    CHECK(last_run.tally.stopped_by == KD_EVICT_ACCEPTED);
}

TEST_CASE("evict_in_order: the total limit ends the loop", "[sdk][eviction-loop][limits]") {
    kd::testing::SnapshotBuilder b;
    loop_four_pods(b);
    kd::testing::FakeHost host;
    host.limits.total = 2;
    host.instantiate<LoopProbe>("{" + kLoopAllFour + "}").deschedule(b.build());
    CHECK(asked_of(host) == LoopNames{"ns/a", "ns/b", "ns/c"});
    CHECK(host.evicted() == LoopNames{"ns/a", "ns/b"});
    CHECK(host.evictions()[2].outcome.code == KD_EVICT_LIMIT_TOTAL);
    CHECK(last_run.tally.evicted == 2);
    CHECK(last_run.tally.refused == 1);
    CHECK(last_run.tally.untried == 1);
    CHECK(last_run.tally.stopped_by == KD_EVICT_LIMIT_TOTAL);
    CHECK_FALSE(last_run.tally.reached_at_most);

    SECTION("a filtered pod does not use the limit up") {
        host.clear();
        host.on_filter = [](const kd::Pod& p) {
            return p.name() == "a" ? kd::Verdict::reject("Protected") : kd::Verdict::allow();
        };
        host.instantiate<LoopProbe>("{" + kLoopAllFour + "}").deschedule(b.build());
        CHECK(host.evicted() == LoopNames{"ns/b", "ns/c"});
        CHECK(last_run.tally.stopped_by == KD_EVICT_LIMIT_TOTAL);
        CHECK(last_run.tally.untried == 0);
    }
}
