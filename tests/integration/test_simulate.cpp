// `kdesched simulate` end to end: the real binary, the real plugins, the example clusters.
#include "binary_paths.hpp"
#include "run_command.hpp"
#include "temp_dir.hpp"

#include <rapidjson/document.h>

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

static const std::string kExamples = KDESCHED_EXAMPLES_DIR;
// LowNodeLoad + MigrationController: the embedded default, Koordinator's, enables no balance plugin.
static const std::string kLoadAware = std::string(KDESCHED_SOURCE_DIR) + "/profiles/load-aware.yaml";

namespace {

rapidjson::Document simulate_json(const std::string& args) {
    auto r = run_command(quote(kBin) + " simulate --output json " + args);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    rapidjson::Document doc;
    doc.Parse(r.output.c_str());
    REQUIRE_FALSE(doc.HasParseError());
    return doc;
}

std::string str(const rapidjson::Value& v, const char* key) {
    return v[key].GetString();
}

double cpu_of(const rapidjson::Value& cycle, const std::string& node) {
    for (const auto& n : cycle["nodes"].GetArray())
        if (str(n, "name") == node) return n["usage"]["cpu"].GetDouble();
    FAIL("node " << node << " not in cycle");
    return -1;
}

}  // namespace

TEST_CASE("3 cycles on the hotspot example: the api pod leaves node-1 for node-2, then all is calm", "[simulate]") {
    auto doc = simulate_json("--cycles 3 --config " + quote(kData + "/simulate/hotspot-immediate.yaml") +
                             " --cluster " + quote(kExamples + "/hotspot.json"));
    const auto& cycles = doc["cycles"];
    REQUIRE(cycles.Size() == 3);
    CHECK(str(cycles[0], "time") == "2026-03-01T09:00:00Z");
    CHECK(str(cycles[1], "time") == "2026-03-01T09:00:10Z");

    const auto& ev = cycles[0]["evictions"];
    REQUIRE(ev.Size() == 1);
    CHECK(str(ev[0], "pod") == "shop/api-7c9f8d6b5-606ef");
    CHECK(str(ev[0], "node") == "node-1");
    CHECK(str(ev[0], "plugin") == "LowNodeLoad");
    CHECK(str(ev[0], "result") == "accepted");
    CHECK(str(ev[0], "reason") == "node is overutilized, node cpu usage(90.62%)>threshold(75.00%)");
    const auto& moves = cycles[0]["moves"];
    REQUIRE(moves.Size() == 1);
    CHECK(str(moves[0], "from") == "node-1");
    CHECK(str(moves[0], "to") == "node-2");

    CHECK(cpu_of(cycles[0], "node-1") == Approx(90.625).margin(0.01));
    CHECK(cpu_of(cycles[1], "node-1") == Approx(71.875).margin(0.01));  // below the 75% high threshold
    CHECK(cpu_of(cycles[1], "node-2") == Approx(34.375).margin(0.01));  // the api pod's usage followed it
    CHECK(cycles[1]["evictions"].Size() == 0);
    CHECK(cycles[2]["evictions"].Size() == 0);
    CHECK(doc["summary"]["evicted"].GetUint() == 1);
    CHECK(doc["summary"]["podsMoved"].GetUint() == 1);
}

TEST_CASE("a DeschedulerPolicy decides as the same Koordinator profile does", "[simulate][policy]") {
    // The same thresholds as hotspot-immediate.yaml; the policy's DefaultEvictor is its evictor.
    auto koord = simulate_json("--cycles 3 --config " + quote(kData + "/simulate/hotspot-immediate.yaml") +
                               " --cluster " + quote(kExamples + "/hotspot.json"));
    auto policy = simulate_json("--cycles 3 --config " + quote(kData + "/integration/sigs-policy.yaml") +
                                " --cluster " + quote(kExamples + "/hotspot.json"));
    auto evictions = [](const rapidjson::Document& doc) {
        std::vector<std::string> out;
        for (const auto& c : doc["cycles"].GetArray())
            for (const auto& e : c["evictions"].GetArray())
                out.push_back(str(e, "pod") + " " + str(e, "node") + " " + str(e, "plugin") + " " + str(e, "result") +
                              " " + str(e, "reason"));
        return out;
    };
    CHECK(evictions(policy) == evictions(koord));
    CHECK(evictions(policy) ==
          std::vector<std::string>{"shop/api-7c9f8d6b5-606ef node-1 LowNodeLoad accepted node is overutilized, node "
                                   "cpu usage(90.62%)>threshold(75.00%)"});
    CHECK(policy["summary"]["podsMoved"].GetUint() == 1);
}

TEST_CASE("RemovePodsViolatingTopologySpreadConstraint evens a zone spread once, then holds", "[simulate][sigs]") {
    // Zones A and B, a ReplicaSet's four pods split 3 / 1 under a zone constraint of maxSkew 1:
    // one pod leaves zone A, its replacement lands in zone B, and the spread is even from then on.
    auto doc = simulate_json("--cycles 3 --config " + quote(kData + "/integration/sigs-topology-spread.yaml") +
                             " --cluster " + quote(kData + "/../clusters/topology-spread.json"));
    const auto& cycles = doc["cycles"];
    REQUIRE(cycles[0]["evictions"].Size() == 1);
    CHECK(str(cycles[0]["evictions"][0], "pod") == "shop/web-7d9-2");
    CHECK(str(cycles[0]["evictions"][0], "plugin") == "RemovePodsViolatingTopologySpreadConstraint");
    CHECK(cycles[1]["evictions"].Size() == 0);
    CHECK(cycles[2]["evictions"].Size() == 0);
    CHECK(doc["summary"]["podsMoved"].GetUint() == 1);
}

TEST_CASE("RemovePodsViolatingNodeTaints and RemovePodsViolatingNodeAffinity move the pods their node no longer suits",
          "[simulate][sigs]") {
    // node-1 is tainted dedicated=batch:NoSchedule and labelled disk=hdd, node-2 disk=ssd. web-0
    // does not tolerate the taint; db-0 does, but requires disk=ssd; cache-0 on node-2 prefers
    // disk=hdd, which node-1 has, yet DefaultEvictor's nodeFit keeps it (it does not tolerate the
    // taint). The replacements land on node-2, and nothing moves afterwards.
    auto doc = simulate_json("--cycles 3 --config " + quote(kData + "/integration/sigs-node.yaml") + " --cluster " +
                             quote(kData + "/../clusters/node-taints-affinity.json"));
    const auto& cycles = doc["cycles"];
    REQUIRE(cycles[0]["evictions"].Size() == 2);
    CHECK(str(cycles[0]["evictions"][0], "pod") == "shop/web-0");
    CHECK(str(cycles[0]["evictions"][0], "plugin") == "RemovePodsViolatingNodeTaints");
    CHECK(str(cycles[0]["evictions"][1], "pod") == "shop/db-0");
    CHECK(str(cycles[0]["evictions"][1], "plugin") == "RemovePodsViolatingNodeAffinity");
    CHECK(cycles[1]["evictions"].Size() == 0);
    CHECK(cycles[2]["evictions"].Size() == 0);
    CHECK(doc["summary"]["podsMoved"].GetUint() == 2);
}

TEST_CASE("the default anomaly condition delays the first eviction to cycle 6", "[simulate]") {
    // consecutiveAbnormalities 5, counted strictly greater (koord's `filterRealAbnormalNodes`): 6
    // overloaded cycles.
    auto doc = simulate_json("--cycles 8 --config " + quote(kLoadAware));  // on the embedded hotspot example
    const auto& cycles = doc["cycles"];
    for (unsigned c = 0; c < 5; ++c) CHECK(cycles[c]["evictions"].Size() == 0);
    REQUIRE(cycles[5]["evictions"].Size() == 1);
    CHECK(str(cycles[5]["evictions"][0], "pod") == "shop/api-7c9f8d6b5-606ef");
    CHECK(cpu_of(cycles[7], "node-1") < 75.0);
    CHECK(cycles[6]["evictions"].Size() == 0);
}

TEST_CASE("with --explain, every considered pod that stayed, with the plugin and the reason code", "[simulate]") {
    auto doc = simulate_json("--cycles 6 --explain --config " + quote(kLoadAware));
    const auto& explain = doc["cycles"][5]["explain"];
    std::vector<std::string> lines;
    for (const auto& e : explain.GetArray())
        lines.push_back(str(e, "pod") + " " + str(e, "stage") + " " + str(e, "plugin") + " " + str(e, "reason"));
    REQUIRE(lines.size() == 7);
    CHECK(lines[0] == "kube-system/kube-proxy-b3682 skipped LowNodeLoad EvictableNamespaces");
    for (size_t i = 1; i < lines.size(); ++i)
        CHECK_THAT(lines[i], Catch::EndsWith(" skipped LowNodeLoad NodeBalanced"));
    CHECK_THAT(lines[6], Catch::StartsWith("shop/cache-0 "));
    // Nodes carry the pool and class LowNodeLoad gave them.
    const auto& node1 = doc["cycles"][5]["nodes"][0];
    CHECK(str(node1, "pool") == "__default_node_pool__");
    CHECK(str(node1, "class") == "high");
    CHECK(str(doc["cycles"][5]["nodes"][1], "class") == "bothLow");
}

TEST_CASE("the same input gives byte-identical JSON", "[simulate]") {
    std::string args = " simulate --output json --explain --cycles 4 --config " +
                       quote(kExamples + "/two-pools.profile.yaml") + " --cluster " +
                       quote(kExamples + "/two-pools.json");
    auto a = run_command(quote(kBin) + args);
    auto b = run_command(quote(kBin) + args);
    REQUIRE(a.exit_code == 0);
    CHECK(a.output == b.output);
    CHECK(a.output.size() > 1000);
}

TEST_CASE("node pools keep their own thresholds and tainted nodes only take tolerating pods", "[simulate]") {
    auto doc = simulate_json("--cycles 2 --config " + quote(kExamples + "/two-pools.profile.yaml") + " --cluster " +
                             quote(kExamples + "/two-pools.json"));
    const auto& moves = doc["cycles"][0]["moves"];
    REQUIRE(moves.Size() == 3);
    for (const auto& m : moves.GetArray()) {
        std::string pod = str(m, "pod"), to = str(m, "to");
        if (pod.rfind("science/", 0) == 0)
            CHECK(to.rfind("compute-", 0) == 0);
        else
            CHECK(to.rfind("general-", 0) == 0);
    }
    CHECK(doc["cycles"][1]["evictions"].Size() == 0);
}

TEST_CASE("prod thresholds move only prod pods", "[simulate]") {
    auto doc = simulate_json("--cycles 4 --config " + quote(kExamples + "/prod-batch.profile.yaml") + " --cluster " +
                             quote(kExamples + "/prod-batch.json"));
    size_t evicted = 0;
    for (const auto& c : doc["cycles"].GetArray())
        for (const auto& e : c["evictions"].GetArray()) {
            ++evicted;
            CHECK(str(e, "pod").rfind("prod/frontend-", 0) == 0);
            CHECK_THAT(str(e, "reason"), Catch::Contains("prod cpu usage"));
        }
    CHECK(evicted == 1);
}

TEST_CASE("the embedded default profile, Koordinator's, moves nothing on the embedded hotspot", "[simulate]") {
    auto doc = simulate_json("--cycles 8");
    for (const auto& cycle : doc["cycles"].GetArray()) CHECK(cycle["evictions"].Size() == 0);
    CHECK(doc["summary"]["podsMoved"].GetUint() == 0);
    CHECK(cpu_of(doc["cycles"][7], "node-1") > 75.0);  // still the hotspot
}

TEST_CASE("the table output reads as a report", "[simulate]") {
    auto r = run_command(quote(kBin) + " simulate --cycles 6 --config " + quote(kLoadAware));
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("cycle 6  2026-03-01T09:00:50Z"));
    CHECK_THAT(r.output, Catch::Contains("shop/api-7c9f8d6b5-606ef  on node-1  accepted  by LowNodeLoad"));
    CHECK_THAT(r.output,
               Catch::Contains(
                   "summary: 1 evicted, 0 eviction request(s) refused, 1 pod(s) taken off their node, 1 pod(s) moved"));
}

TEST_CASE("a malformed cluster file stops with the file, object and field", "[simulate]") {
    auto r = run_command(quote(kBin) + " simulate --cluster " + quote(kData + "/simulate/bad-cluster.json"));
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("bad-cluster.json:"));
    CHECK_THAT(r.output, Catch::Contains("object #1 (Pod default/broken): spec.containers[0].resources.requests.cpu: "
                                         "invalid quantity \"12x\""));
}

namespace {

// Pods of `ns` whose name starts with `prefix` (a workload's pods), from a migration job's "pod".
bool of_workload(const std::string& pod, const std::string& prefix) {
    return pod.rfind(prefix, 0) == 0;
}

// Time of the first history entry in `phase`, or "" (RFC 3339 strings compare in time order).
std::string phase_time(const rapidjson::Value& job, const std::string& phase) {
    for (const auto& h : job["history"].GetArray())
        if (str(h, "phase") == phase) return str(h, "time");
    return "";
}

}  // namespace

TEST_CASE("LowNodeLoad + MigrationController on the hotspot example: Reservation first, then the move",
          "[simulate][migration]") {
    auto doc = simulate_json("--cycles 3 --config " + quote(kData + "/simulate/hotspot-migration-immediate.yaml") +
                             " --cluster " + quote(kExamples + "/hotspot.json"));
    const auto& cycles = doc["cycles"];
    REQUIRE(cycles.Size() == 3);
    // The eviction request became a PodMigrationJob ...
    const auto& ev = cycles[0]["evictions"];
    REQUIRE(ev.Size() == 1);
    CHECK(str(ev[0], "pod") == "shop/api-7c9f8d6b5-606ef");
    CHECK(str(ev[0], "result") == "accepted");
    CHECK(str(ev[0], "decidedBy") == "MigrationController");
    const auto& jobs = cycles[0]["migrationJobs"];
    REQUIRE(jobs.Size() == 1);
    const auto& job = jobs[0];
    CHECK(str(job, "pod") == "shop/api-7c9f8d6b5-606ef");
    CHECK_THAT(str(job, "name"), Catch::Matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"));
    // ... that went Pending → Running → Succeeded before the next cycle,
    std::vector<std::string> phases;
    for (const auto& h : job["history"].GetArray()) phases.push_back(str(h, "phase"));
    CHECK(phases == std::vector<std::string>{"Pending", "Running", "Succeeded"});
    CHECK(str(job, "phase") == "Succeeded");
    CHECK(job["passedArbitration"].GetBool());
    CHECK_THAT(str(job, "message"), Catch::StartsWith("Bind Pod \"shop/api-7c9f8d6b5-"));
    // with its Reservation on another node than the source,
    CHECK(str(job, "sourceNode") == "node-1");
    CHECK(str(job, "targetNode") == "node-2");
    // where the replacement pod bound it,
    const auto& moves = cycles[0]["moves"];
    REQUIRE(moves.Size() == 1);
    CHECK(str(moves[0], "from") == "node-1");
    CHECK(str(moves[0], "to") == str(job, "targetNode"));
    CHECK_THAT(str(job, "message"), Catch::Contains(str(moves[0], "replacement")));
    // and the events tell the story in order.
    std::vector<std::string> reasons;
    for (const auto& e : cycles[0]["events"].GetArray())
        if (str(e, "kind") == "PodMigrationJob") reasons.push_back(str(e, "reason"));
    CHECK(reasons == std::vector<std::string>{"ReservationCreated", "ReservationScheduled", "Evicting", "EvictComplete",
                                              "PodBoundReservation", "BoundPodReady", "Complete"});
    CHECK(cpu_of(cycles[1], "node-1") < 75.0);
    CHECK(cycles[1]["evictions"].Size() == 0);
    CHECK(doc["summary"]["podsEvicted"].GetUint() == 1);
    const auto& metric = doc["summary"]["podsEvictedMetric"];
    REQUIRE(metric.Size() == 1);
    CHECK(str(metric[0], "result") == "success");
    CHECK(str(metric[0], "strategy") == "LowNodeLoad");
    CHECK(str(metric[0], "node") == "node-1");
}

TEST_CASE("migrations never take a workload past its unavailability budget", "[simulate][migration]") {
    // web: 8 replicas, budget 2 (GetMaxUnavailable), one replica not Ready: one migration at a
    // time. Nothing else holds LowNodeLoad back (no per-node limit, no object limiter, thresholds
    // far below load).
    auto doc =
        simulate_json("--cycles 4 --explain --config " + quote(kData + "/simulate/hotspot-migration-budget.yaml") +
                      " --cluster " + quote(std::string(KDESCHED_TEST_CLUSTERS) + "/hotspot-web-unready.json"));
    const auto& cycles = doc["cycles"];
    // In the first cycle the other web pods are held back by the budget, not by LowNodeLoad.
    size_t held = 0;
    for (const auto& e : cycles[0]["explain"].GetArray())
        if (of_workload(str(e, "pod"), "shop/web-")) {
            CHECK(str(e, "stage") == "filtered");  // LowNodeLoad asked, the filter said no
            CHECK(str(e, "plugin") == "MigrationController");
            CHECK(str(e, "reason") == "MaxUnavailablePerWorkload");
            ++held;
        }
    CHECK(held == 4);
    // Over the run several web pods move, never two at once.
    const auto& last = cycles[cycles.Size() - 1];
    std::vector<std::pair<std::string, std::string>> running;  // [Running, Succeeded) of each web job
    for (const auto& j : last["migrationJobs"].GetArray()) {
        if (!of_workload(str(j, "pod"), "shop/web-")) continue;
        CHECK(str(j, "phase") == "Succeeded");
        running.emplace_back(phase_time(j, "Running"), phase_time(j, "Succeeded"));
    }
    CHECK(running.size() == 3);
    for (size_t a = 0; a < running.size(); ++a)
        for (size_t b = a + 1; b < running.size(); ++b) {
            bool overlap = running[a].first < running[b].second && running[b].first < running[a].second;
            CHECK_FALSE(overlap);
        }
}

TEST_CASE("on a full cluster the migration jobs fail Unschedulable and no pod is evicted", "[simulate][migration]") {
    auto doc = simulate_json("--cycles 5 --config " + quote(kData + "/simulate/hotspot-migration-full.yaml") +
                             " --cluster " + quote(std::string(KDESCHED_TEST_CLUSTERS) + "/hotspot-full.json"));
    const auto& cycles = doc["cycles"];
    REQUIRE(cycles.Size() == 5);
    const auto& jobs = cycles[4]["migrationJobs"];
    size_t failed = 0;
    for (const auto& j : jobs.GetArray()) {
        CHECK(str(j, "targetNode").empty());
        CHECK(str(j, "reason") == "Unschedulable");
        if (str(j, "phase") == "Failed") {
            ++failed;
            CHECK_THAT(str(j, "message"),
                       Catch::StartsWith("Abort job caused by timeout: the Reservation is unschedulable: 0/4 nodes "
                                         "are available: 3 Insufficient cpu"));
        }
    }
    CHECK(failed >= 2);
    for (const auto& c : cycles.GetArray()) CHECK(c["moves"].Size() == 0);
    CHECK(doc["summary"]["podsEvicted"].GetUint() == 0);
    CHECK(doc["summary"]["podsEvictedMetric"].Size() == 0);
}

TEST_CASE("hand-written PodMigrationJobs in a snapshot run to their end, each with its reason, without a warning",
          "[simulate][nothing-lost]") {
    // No resourceVersion in the snapshot: the simulated API server gives one, as a real one does
    // on create, so the jobs can be updated (they once stayed Pending with a warning per tick).
    auto r = run_command(quote(kBin) + " simulate --output json --cycles 6 --config " +
                         quote(kData + "/simulate/manual-jobs.yaml") + " --cluster " +
                         quote(kData + "/../clusters/manual-jobs.yaml"));
    INFO(r.output.substr(0, 2000));
    REQUIRE(r.exit_code == 0);
    rapidjson::Document doc;
    doc.Parse(r.output.c_str());  // nothing but the report: no warning on the way
    REQUIRE_FALSE(doc.HasParseError());
    const auto& jobs = doc["cycles"][doc["cycles"].Size() - 1]["migrationJobs"];
    std::map<std::string, std::string> ends;
    for (const auto& j : jobs.GetArray()) ends[str(j, "name")] = str(j, "phase") + " " + str(j, "reason");
    CHECK(ends == std::map<std::string, std::string>{{"bare-pod", "Failed ForbiddenMigratePod"},
                                                     {"evict-web-0", "Succeeded "},
                                                     {"expired-reservation", "Failed ReservationExpired"},
                                                     {"gone-pod", "Failed MissingPod"},
                                                     {"missing-reservation", "Failed MissingReservation"},
                                                     {"move-web-1", "Succeeded "},
                                                     {"no-pod-name", "Failed InvalidPodRef"},
                                                     {"taken-reservation", "Failed ForbiddenMigratePod"},
                                                     {"timed-out", "Failed Timeout"},
                                                     {"unschedulable", "Failed Unschedulable"}});
}

TEST_CASE("LowNodeUtilization on metrics-server's usage from a snapshot directory evicts what requests would not",
          "[simulate][metrics]") {
    // tests/data/clusters/metrics-server: pods requesting 100m each on three 4-core nodes, and the
    // NodeMetrics and PodMetrics a metrics-server reported for them (node-1 at 3200m).
    const std::string cluster = quote(kData + "/../clusters/metrics-server");
    auto evicted = [](const rapidjson::Document& doc) {
        std::vector<std::string> out;
        for (const auto& e : doc["cycles"][0]["evictions"].GetArray())
            out.push_back(str(e, "pod") + " " + str(e, "node") + " " + str(e, "result"));
        return out;
    };
    auto by_usage = simulate_json("--cycles 1 --config " + quote(kData + "/integration/sigs-metrics-policy.yaml") +
                                  " --cluster " + cluster);
    // node-1 over 60 % by usage; each web pod takes its measured 700m off: two bring it to 1800m.
    CHECK(evicted(by_usage) == std::vector<std::string>{"shop/web-1 node-1 accepted", "shop/web-2 node-1 accepted"});
    // The same cluster by requests: every node is under 20 %, so nothing moves.
    auto by_requests = simulate_json("--cycles 1 --config " + quote(kData + "/integration/sigs-requests-policy.yaml") +
                                     " --cluster " + cluster);
    CHECK(evicted(by_requests).empty());
    // metricsUtilization without the policy's KubernetesMetrics provider is refused at load.
    auto r =
        run_command(quote(kBin) + " validate --config " + quote(kData + "/integration/sigs-metrics-no-provider.yaml"));
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("plugin \"LowNodeUtilization\" args: metricsUtilization: metrics client not "
                                         "initialized: the DeschedulerPolicy enables no KubernetesMetrics source"));
}

TEST_CASE("DefaultEvictor protects by the cluster's PriorityClasses, claims' storage classes and resource claims",
          "[simulate][defaultevictor]") {
    // Every pod on node-1 violates its taint; DefaultEvictor (priorityThreshold.name: important =
    // 1000, PodsWithPVC limited to class fast, PodsWithResourceClaims) lets only plain-0 and
    // standard-0 go. A profile naming a PriorityClass the cluster lacks lets none go.
    const std::string cluster = " --cluster " + quote(kData + "/../clusters/evictor-protections.json");
    const std::string config = kData + "/integration/evictor-protections.yaml";
    auto doc = simulate_json("--cycles 2 --explain --config " + quote(config) + cluster);
    const auto& cycles = doc["cycles"];
    REQUIRE(cycles[0]["evictions"].Size() == 2);
    CHECK(str(cycles[0]["evictions"][0], "pod") == "shop/plain-0");
    CHECK(str(cycles[0]["evictions"][1], "pod") == "shop/standard-0");
    std::map<std::string, std::string> reasons;
    for (const auto& e : cycles[0]["explain"].GetArray())
        reasons[str(e, "pod")] = str(e, "stage") + " " + str(e, "plugin") + " " + str(e, "reason");
    CHECK(reasons ==
          std::map<std::string, std::string>{{"shop/important-0", "filtered DefaultEvictor PriorityThreshold"},
                                             {"shop/fast-0", "filtered DefaultEvictor PVC"},
                                             {"shop/unknown-claim-0", "filtered DefaultEvictor UnknownStorageClass"},
                                             {"shop/gpu-0", "filtered DefaultEvictor ResourceClaims"}});
    CHECK(cycles[1]["evictions"].Size() == 0);

    std::ifstream in(config);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text.replace(text.find("name: important"), 15, "name: missing");
    kd_test::TempDir dir("evictor-protections");
    std::string missing = dir.write("missing-class.yaml", text);
    const std::string log = (dir.path / "stderr.log").string();
    // The log on stderr apart from the report on stdout.
    auto r = run_command("{ " + quote(kBin) + " simulate --output json --explain --cycles 1 --config " +
                         quote(missing) + cluster + " 2>" + quote(log) + "; }");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    rapidjson::Document none;
    none.Parse(r.output.c_str());
    REQUIRE_FALSE(none.HasParseError());
    CHECK(none["cycles"][0]["evictions"].Size() == 0);
    const auto& explain = none["cycles"][0]["explain"];
    CHECK(explain.Size() == 6);  // every pod on node-1
    for (const auto& e : explain.GetArray())
        CHECK_THAT(str(e, "reason"),
                   Catch::StartsWith("error: priorityThreshold.name: PriorityClass \"missing\" does not exist"));
    // Logged as an error once for the cycle's model state, not once per pod.
    std::ifstream log_in(log);
    std::string logged((std::istreambuf_iterator<char>(log_in)), std::istreambuf_iterator<char>());
    const std::string said = "[error] [protections/DefaultEvictor] priorityThreshold.name: PriorityClass \"missing\"";
    CHECK(logged.find(said) != std::string::npos);
    CHECK(logged.find(said) == logged.rfind(said));
}
