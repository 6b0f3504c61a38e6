// Node usage smoothed as upstream's metrics collector does (cluster/usage_smoothing.hpp;
// pkg/descheduler/metricscollector/metricscollector.go@v0.35.1 and the sequence of
// usageclients_test.go TestActualUsageClient): the first sample as it is, then a tenth of the way
// to each new one; a node a round did not return keeps its value; pods as last taken.
#include "cluster/usage_smoothing.hpp"

#include <catch2/catch.hpp>

using namespace kd::core;

namespace {
NodeUsage sample(const std::string& name, int64_t milli_cpu, int64_t bytes) {
    return NodeUsage{name, "", "", {{"cpu", milli_cpu}, {"memory", bytes * 1000}}};
}
}  // namespace

TEST_CASE("usage smoothing: upstream's sequence 1400m, 500m, 900m reads 1400m, 1310m, 1269m", "[usage]") {
    UsageSmoothing s;
    s.take_nodes({sample("n2", 1400, 3000), sample("n1", 400, 0)});
    CHECK(s.current().nodes.at("n2").usage.at("cpu") == 1400);
    s.take_nodes({sample("n2", 500, 1000)});
    CHECK(s.current().nodes.at("n2").usage.at("cpu") == 1310);
    CHECK(s.current().nodes.at("n2").usage.at("memory") == 2800 * 1000);  // round(0.9 × 3000 + 0.1 × 1000) bytes
    s.take_nodes({sample("n2", 900, 1000)});
    CHECK(s.current().nodes.at("n2").usage.at("cpu") == 1269);
    CHECK(s.current().nodes.at("n1").usage.at("cpu") == 400);  // not in the last rounds: kept
}

TEST_CASE("usage smoothing: only cpu and memory are kept, a missing one is zero", "[usage]") {
    UsageSmoothing s;
    s.take_nodes({NodeUsage{"n1", "t", "10s", {{"cpu", 250}, {"example.com/foo", 3000}}}});
    CHECK(s.current().nodes.at("n1").usage == UsageAmounts{{"cpu", 250}, {"memory", 0}});
    s.take_pods({PodUsage{"shop", "web-1", "t", "10s", {{"c", {{"cpu", 5}}}}}});
    CHECK(s.current().pods.size() == 1);
    s.take_pods({});
    CHECK(s.current().pods.empty());
}
