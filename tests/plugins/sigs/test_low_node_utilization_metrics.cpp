// LowNodeUtilization with metricsUtilization (actual usage from metrics.k8s.io): the "with metrics
// enabled" runs of upstream's TestLowNodeUtilization
// (pkg/framework/plugins/nodeutilization/lownodeutilization_test.go@v0.35.1), named by their
// descriptions, as facts: same nodes, pods, NodeMetrics and PodMetrics, same number of pods
// evicted (expectedPodsWithMetricsEvicted); we also state which pods. Then creation: the sources
// a run must collect, the Prometheus refusal, and upstream's metricsUtilization validation.
#include "utilization_test.hpp"

using namespace utilization_test;
using kd::plugins::sigs::LowNodeUtilization;

namespace {

const std::vector<Usage> kPods401 = {{"p1", 401, 0}, {"p2", 401, 0}, {"p3", 401, 0}, {"p4", 401, 0}, {"p5", 401, 0}};
const std::vector<Usage> kNodes3201 = {{"n1", 3201, 0}, {"n2", 401, 0}, {"n3", 11, 0}};

// The balance hook's error (upstream's Balance status), "" when it ran.
std::string balance_error(SnapshotBuilder& b, const std::string& args, Profile& profile) {
    try {
        nu_balance_by_metrics<LowNodeUtilization>(b, args, profile);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("LowNodeUtilization by metrics: no evictable pods", "[lownodeutilization][metrics][upstream]") {
    SnapshotBuilder b;
    lnu_no_evictable(b);
    nu_metrics(b, {{"n1", 2401, 0}, {"n2", 401, 0}, {"n3", 10, 0}}, kPods401);
    CHECK(nu_balance_by_metrics<LowNodeUtilization>(b, lnu_args()).empty());
}

TEST_CASE("LowNodeUtilization by metrics: without priorities", "[lownodeutilization][metrics][upstream]") {
    SnapshotBuilder b;
    lnu_without_priorities(b);
    nu_metrics(b, kNodes3201, kPods401);
    // n1 at 3201m (80 %) drains into n2's room (50 % of 4 cores minus 401m, 4 pods): each pod
    // takes its 401m off, and the fourth overdraws the room.
    CHECK(nu_balance_by_metrics<LowNodeUtilization>(b, lnu_args()) == kLnuFirstFour);
}

TEST_CASE("LowNodeUtilization by metrics: without priorities, but excluding namespaces",
          "[lownodeutilization][metrics][upstream]") {
    SnapshotBuilder b;
    lnu_namespace1_pods(b);
    nu_metrics(b, kNodes3201, kPods401);
    CHECK(
        nu_balance_by_metrics<LowNodeUtilization>(b, lnu_args(R"("evictableNamespaces": {"exclude": ["namespace1"]})"))
            .empty());
}

TEST_CASE("LowNodeUtilization by metrics: without priorities, but include only default namespace",
          "[lownodeutilization][metrics][upstream]") {
    // As in the requests-based case, the run is without `include` (kdesched refuses it).
    SnapshotBuilder b;
    lnu_default_and_others(b);
    nu_metrics(b, kNodes3201, kPods401);
    CHECK(nu_balance_by_metrics<LowNodeUtilization>(b, lnu_args()) == Pods{"default/p1", "default/p2"});
}

TEST_CASE("LowNodeUtilization by metrics: without priorities stop when cpu capacity is depleted",
          "[lownodeutilization][metrics][upstream]") {
    SnapshotBuilder b;
    lnu_without_priorities(b);
    nu_metrics(b, {{"n1", 3201, 0}, {"n2", 401, 0}, {"n3", 0, 0}}, kPods401);
    CHECK(nu_balance_by_metrics<LowNodeUtilization>(b, lnu_args()) == kLnuFirstFour);
}

TEST_CASE("LowNodeUtilization by metrics: with priorities", "[lownodeutilization][metrics][upstream]") {
    SnapshotBuilder b;
    lnu_with_priorities(b);
    nu_metrics(b, kNodes3201, kPods401);
    CHECK(nu_balance_by_metrics<LowNodeUtilization>(b, lnu_args()) ==
          Pods{"default/p5", "default/p1", "default/p2", "default/p3"});
}

TEST_CASE("LowNodeUtilization by metrics: without priorities evicting best-effort pods only",
          "[lownodeutilization][metrics][upstream]") {
    SnapshotBuilder b;
    lnu_best_effort_pods(b);
    nu_metrics(b, kNodes3201, kPods401);
    // Upstream's evictedPods: the BestEffort pods go first, and measured usage (not the empty
    // requests) fills the room, so p3 stays.
    CHECK(nu_balance_by_metrics<LowNodeUtilization>(b, lnu_args()) ==
          Pods{"default/p1", "default/p2", "default/p4", "default/p5"});
}

TEST_CASE("LowNodeUtilization by metrics: with extended resource, in some of nodes, with deviation",
          "[lownodeutilization][metrics][upstream]") {
    // metrics-server measures cpu and memory only: a threshold on another resource fails the run
    // (upstream's sync error), and nothing is evicted.
    const std::string args = R"({"thresholds": {"pods": 30, "example.com/foo": 30},
        "targetThresholds": {"pods": 50, "example.com/foo": 50}})";
    SnapshotBuilder b;
    nu_node(b, "n1", 4000, 3000, 9).allocatable(kExtended, "8");
    nu_node(b, "n2", 4000, 3000, 10).allocatable(kExtended, "8");
    nu_node(b, "n3", 4000, 3000, 10).cordon();
    for (int i = 1; i <= 5; ++i) nu_rs(nu_pod(b, "p" + std::to_string(i), 0, 0, "n1")).request(kExtended, "1");
    nu_rs(nu_pod(b, "p9", 0, 0, "n2")).request(kExtended, "1");
    nu_metrics(b, kNodes3201, kPods401);
    for (const std::string& a :
         {args, std::string(R"({"useDeviationThresholds": true, "thresholds": {"pods": 5, "example.com/foo": 10},
             "targetThresholds": {"pods": 5, "example.com/foo": 10}})")}) {
        Profile profile(R"({"nodeFit": true})");
        CHECK(balance_error(b, a, profile) ==
              "error getting node usage: unable to find \"example.com/foo\" resource for collected \"n1\" node metric "
              "(metrics-server measures cpu and memory only: keep the thresholds to cpu, memory and pods)");
        CHECK(profile.host.evicted().empty());
    }
}

TEST_CASE("LowNodeUtilization by metrics: without priorities, but only other node is unschedulable",
          "[lownodeutilization][metrics][upstream]") {
    SnapshotBuilder b;
    lnu_other_node_unschedulable(b);
    nu_metrics(b, {{"n1", 3201, 0}, {"n2", 401, 0}}, kPods401);
    CHECK(nu_balance_by_metrics<LowNodeUtilization>(b, lnu_args()).empty());
}

TEST_CASE("LowNodeUtilization by metrics: only other node doesn't match pod node selector or affinity for p4 and p5",
          "[lownodeutilization][metrics][upstream]") {
    for (bool affinity : {false, true}) {
        DYNAMIC_SECTION("without priorities, but only other node doesn't match pod node "
                        << (affinity ? "affinity" : "selector") << " for p4 and p5") {
            SnapshotBuilder b;
            lnu_p4_p5_want_west(b, affinity);
            nu_metrics(b, {{"n1", 3201, 0}, {"n2", 401, 0}}, {{"p1", 401, 0}, {"p2", 401, 0}, {"p3", 401, 0}});
            CHECK(nu_balance_by_metrics<LowNodeUtilization>(b, lnu_args()) ==
                  Pods{"default/p1", "default/p2", "default/p3"});
        }
    }
}

TEST_CASE("LowNodeUtilization by metrics: deviation thresholds", "[lownodeutilization][metrics][upstream]") {
    SnapshotBuilder b;
    lnu_without_priorities(b);
    nu_metrics(b, kNodes3201, kPods401);
    CHECK(nu_balance_by_metrics<LowNodeUtilization>(b, R"({"useDeviationThresholds": true,
        "thresholds": {"cpu": 5, "pods": 5}, "targetThresholds": {"cpu": 5, "pods": 5}})") ==
          Pods{"default/p1", "default/p2"});
}

TEST_CASE("LowNodeUtilization by metrics: deviation thresholds and overevicting memory",
          "[lownodeutilization][metrics][upstream]") {
    SnapshotBuilder b;
    lnu_memory_overevicting(b);
    std::vector<Usage> pods;
    for (int i = 1; i <= 8; ++i) pods.push_back({"p" + std::to_string(i), 400, 375});
    pods.push_back({"p9", 400, 3000});
    nu_metrics(b, {{"n1", 4000, 3000}, {"n2", 4000, 3000}, {"n3", 4000, 3000}}, pods);
    CHECK(nu_balance_by_metrics<LowNodeUtilization>(b, R"({"useDeviationThresholds": true,
        "thresholds": {"cpu": 5, "pods": 5}, "targetThresholds": {"cpu": 5, "pods": 5}})")
              .empty());
}

TEST_CASE("LowNodeUtilization by metrics: without priorities different evictions for requested and actual resources",
          "[lownodeutilization][metrics][upstream]") {
    SnapshotBuilder b;
    lnu_requested_and_actual(b);
    nu_metrics(b, {{"n1", 3201, 0}, {"n2", 401, 0}}, {{"p1", 801, 0}, {"p2", 801, 0}, {"p3", 801, 0}});
    // By requests three pods go; measured at 801m each, two take n1 under its 2000m target.
    CHECK(nu_balance_by_metrics<LowNodeUtilization>(b, lnu_args()) == Pods{"default/p1", "default/p2"});
}

TEST_CASE("LowNodeUtilization by metrics: without priorities with node eviction limit",
          "[lownodeutilization][metrics][upstream]") {
    SnapshotBuilder b;
    lnu_node_eviction_limit(b);
    nu_metrics(b, kNodes3201, kPods401);
    CHECK(nu_balance_by_metrics<LowNodeUtilization>(b, lnu_args(R"("evictionLimits": {"node": 2})")) ==
          Pods{"default/p1", "default/p2"});
}

// ---------------------------------------------------------------------------------------------
// No metrics is not zero usage

TEST_CASE("LowNodeUtilization by metrics: a node without NodeMetrics fails the run, evicting nothing",
          "[lownodeutilization][metrics]") {
    SnapshotBuilder b;
    lnu_without_priorities(b);
    // n2 has no NodeMetrics yet (metrics-server just started, or metrics.k8s.io is not served).
    nu_metrics(b, {{"n1", 3201, 0}, {"n3", 11, 0}}, kPods401);
    Profile profile(R"({"nodeFit": true})");
    CHECK(balance_error(b, lnu_args(), profile) ==
          "error getting node usage: unable to find node \"n2\" in the collected metrics (metrics-server has no "
          "NodeMetrics for it yet, or the host could not read metrics.k8s.io: see the host's log)");
    CHECK(profile.host.evicted().empty());
}

TEST_CASE("LowNodeUtilization by metrics: a pod without PodMetrics stays, and the next one goes",
          "[lownodeutilization][metrics]") {
    SnapshotBuilder b;
    lnu_without_priorities(b);
    nu_metrics(b, kNodes3201, {{"p2", 401, 0}, {"p3", 401, 0}, {"p4", 401, 0}, {"p5", 401, 0}});
    Profile profile(R"({"nodeFit": true})");
    // p1 is skipped (upstream: "unable to get pod usage", the next pod); four others fill the room.
    CHECK(nu_balance_by_metrics<LowNodeUtilization>(b, lnu_args(), profile) ==
          Pods{"default/p2", "default/p3", "default/p4", "default/p5"});
    CHECK(nu_logged(profile, "unable to get pod usage of default/p1: no PodMetrics for the pod (yet)"));
}

// ---------------------------------------------------------------------------------------------
// Creation: upstream's usageClientForMetrics and ValidateLowNodeUtilizationArgs

TEST_CASE("LowNodeUtilization: metricsUtilization needs the policy's KubernetesMetrics source",
          "[lownodeutilization][metrics]") {
    const std::string not_collected =
        "metricsUtilization: metrics client not initialized: the DeschedulerPolicy enables no KubernetesMetrics "
        "source; add \"metricsProviders: [{source: KubernetesMetrics}]\" at its top level (the deprecated "
        "\"metricsCollector: {enabled: true}\" works too) so that kdesched reads metrics.k8s.io (metrics-server); a "
        "host older than plugin API 1.8 cannot";
    for (const std::string metrics : {R"({"source": "KubernetesMetrics"})", R"({"metricsServer": true})"}) {
        CAPTURE(metrics);
        CHECK(sigs_test::create_error<LowNodeUtilization>(lnu_args(R"("metricsUtilization": )" + metrics)) ==
              not_collected);
        // A host that collects, of this API and of 1.7 (which cannot say it does).
        kd::testing::FakeHost host;
        host.metrics_sources = KD_METRICS_KUBERNETES;
        CHECK_NOTHROW(host.instantiate<LowNodeUtilization>(lnu_args(R"("metricsUtilization": )" + metrics)));
        kd::testing::FakeHost old_host(7);
        old_host.metrics_sources = KD_METRICS_KUBERNETES;
        CHECK_THROWS_WITH(old_host.instantiate<LowNodeUtilization>(lnu_args(R"("metricsUtilization": )" + metrics)),
                          not_collected);
    }
}

TEST_CASE("LowNodeUtilization: the Prometheus source is refused, other sources too", "[lownodeutilization][metrics]") {
    auto error = [](const std::string& metrics) {
        kd::testing::FakeHost host;
        host.metrics_sources = KD_METRICS_KUBERNETES;
        try {
            host.instantiate<LowNodeUtilization>(lnu_args(R"("metricsUtilization": )" + metrics));
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(error(R"({"source": "Prometheus", "prometheus": {"query": "instance:node_cpu:rate:sum"}})") ==
          "metricsUtilization.source: \"Prometheus\" is not supported: kdesched has no Prometheus client; use "
          "\"source: KubernetesMetrics\" (metrics-server) or remove metricsUtilization for requests-based utilization");
    CHECK(error(R"({"source": "Graphite"})") ==
          "metricsUtilization.source: unrecognized metrics source \"Graphite\" (KubernetesMetrics is the one kdesched "
          "reads)");
    CHECK(
        error("{}") ==
        "metricsUtilization: metrics source is empty: set \"source: KubernetesMetrics\" or remove metricsUtilization");
}

TEST_CASE("LowNodeUtilization: metricsUtilization validation", "[lownodeutilization][metrics][upstream]") {
    // validation_test.go's metricsUtilization cases, each message after its path.
    auto error = [](const std::string& metrics) {
        return sigs_test::create_error<LowNodeUtilization>(lnu_args(R"("metricsUtilization": )" + metrics));
    };
    CHECK(error(R"({"source": "KubernetesMetrics", "metricsServer": true})") ==
          "metricsUtilization: it is not allowed to set both \"KubernetesMetrics\" source and metricsServer");
    CHECK(error(R"({"source": "KubernetesMetrics", "prometheus": {"query": "up"}})") ==
          "metricsUtilization.prometheus: prometheus configuration is not allowed to set when source is set to "
          "\"KubernetesMetrics\"");
    // Each with kdesched's refusal of the source first.
    for (const std::string metrics : {R"({"source": "Prometheus"})", R"({"source": "Prometheus", "prometheus": {}})"})
        CHECK_THAT(error(metrics),
                   Catch::StartsWith("metricsUtilization.source: \"Prometheus\" is not supported") &&
                       Catch::EndsWith("\nmetricsUtilization.prometheus.query: prometheus query is required when "
                                       "metrics source is set to \"Prometheus\""));
}
