// Hidden benchmark ([.perf]): one Balance with nodeFit at 10 000 nodes / 300 000 pods. Run with
//   lownodeload_tests "[.perf]"
// on a Release build; it prints the time of each cycle. Target: ≤ 50 ms on one core.
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace lnl_test;

TEST_CASE("perf: one balance cycle at 10k nodes / 300k pods", "[.perf]") {
    constexpr int kNodes = 10'000;
    constexpr int kPodsPerNode = 30;
    SnapshotBuilder b;
    const int64_t now = b.now_ms();
    // 10 % of the nodes are overloaded (85 %), 30 % under-used (20 %), the rest at 50 %; each pod
    // uses an equal share. Requests are small so NodeFit passes on resources.
    for (int n = 0; n < kNodes; ++n) {
        std::string node = "node-" + std::to_string(n);
        auto& spec = b.node(node).allocatable("cpu", "32").allocatable("memory", "128Gi").allocatable("pods", "110");
        spec.label("kubernetes.io/hostname", node)
            .label("topology.kubernetes.io/zone", "zone-" + std::to_string(n % 3));
        int pct = n % 10 == 0 ? 85 : n % 10 < 4 ? 20 : 50;
        int64_t pod_cpu_milli = 32'000LL * pct / 100 / kPodsPerNode;
        int64_t pod_mem_mi = 128LL * 1024 * pct / 100 / kPodsPerNode / 2;
        auto& metric = b.metric(node).updated(now).system_usage("cpu", "100m").system_usage("memory", "512Mi");
        for (int p = 0; p < kPodsPerNode; ++p) {
            std::string name = "app-" + std::to_string(n) + "-" + std::to_string(p);
            b.pod("default", name)
                .on(node)
                .owner("ReplicaSet", "rs-" + std::to_string(p % 50))
                .label("app", "app-" + std::to_string(p % 50))
                .label("pod-template-hash", "5d8f7c9b6")
                .request("cpu", "100m")
                .request("memory", "128Mi")
                .with_qos(p % 3 == 0 ? KD_QOS_BEST_EFFORT : KD_QOS_BURSTABLE);
            metric.pod_usage("default", name, "cpu", std::to_string(pod_cpu_milli) + "m")
                .pod_usage("default", name, "memory", std::to_string(pod_mem_mi) + "Mi");
        }
    }
    const kd_snapshot* snap = b.build();
    FakeHost host;
    auto plugin = host.instantiate<LowNodeLoad>(
        R"({"lowThresholds": {"cpu": 30, "memory": 30}, "highThresholds": {"cpu": 70, "memory": 70},
            "anomalyCondition": {"consecutiveAbnormalities": 1}})");
    // LNL_PERF_CYCLES=N repeats the cycle (e.g. to profile the plugin rather than the set-up).
    const char* env = std::getenv("LNL_PERF_CYCLES");
    const int cycles = env ? std::max(1, std::atoi(env)) : 5;
    std::vector<double> times;
    for (int cycle = 1; cycle <= cycles; ++cycle) {
        host.clear();
        auto t0 = std::chrono::steady_clock::now();
        plugin.balance(snap);
        auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        times.push_back(ms);
        std::printf("cycle %d: %.2f ms, %zu eviction requests\n", cycle, ms, host.evictions().size());
        if (std::getenv("LNL_PERF_LOGS"))
            for (const auto& l : host.logs()) std::printf("  %s\n", l.c_str());
    }
    // The first cycle also grows the plugin's reusable buffers; later ones are the steady state.
    std::vector<double> steady(times.begin() + (times.size() > 1 ? 1 : 0), times.end());
    std::sort(steady.begin(), steady.end());
    std::printf("steady state: min %.2f ms, median %.2f ms (%zu cycles)\n", steady.front(), steady[steady.size() / 2],
                steady.size());
    CHECK(host.evictions().size() > 0);
}
