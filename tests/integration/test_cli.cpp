// The real kdesched binary on real files: exit codes and what it prints.
#include "api_version.hpp"
#include "binary_paths.hpp"
#include "run_command.hpp"

#include <rapidjson/document.h>

#include <catch2/catch.hpp>

#include <map>
#include <sstream>
#include <string>

static const std::string kFixtures = KDESCHED_FIXTURE_PLUGIN_ROOT;

TEST_CASE("version prints the release and the plugin API version", "[cli]") {
    auto r = run_command(quote(kBin) + " version");
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Matches("kdesched [0-9]+\\.[0-9]+\\.[0-9]+ \\(plugin API " +
                                        kd_test::api_version_pattern() + "\\)\n"));
}

TEST_CASE("plugins lists name, version, API, extension points and file", "[cli]") {
    auto r = run_command(quote(kBin) + " plugins --plugin-dir " + quote(kFixtures + "/behaviour"));
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("NAME\tVERSION\tAPI\tEXTENSION POINTS\tFILE"));
    CHECK_THAT(r.output, Catch::Contains("GoodBalance\t1.2.3\t" + kd_test::api_version() + "\tbalance\t"));
    CHECK_THAT(r.output,
               Catch::Contains("ThrowsInHook\t0.0.1\t" + kd_test::api_version() + "\tdeschedule,balance,filter\t"));
    // The in-house plugins come from the default directory next to the binary.
    CHECK_THAT(r.output, Catch::Contains("DefaultEvictor\t"));
}

TEST_CASE("plugins fails closed on an incompatible plugin, naming file and versions", "[cli]") {
    auto r = run_command(quote(kBin) + " plugins --plugin-dir " + quote(kFixtures + "/major_mismatch"));
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("fixture_major_mismatch.so: plugin refused: built against plugin API 2.0.0 "
                                         "but this kdesched implements " +
                                         kd_test::api_version()));
}

TEST_CASE("validate prints OK for a valid profile", "[cli]") {
    auto r = run_command(quote(kBin) + " validate --config " + quote(kData + "/integration/valid.yaml"));
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::StartsWith("OK: "));
}

TEST_CASE("validate prints every problem with file:line:column and exits 1", "[cli]") {
    auto r = run_command(quote(kBin) + " validate --config " + quote(kData + "/integration/invalid_plugins.yaml"));
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("invalid_plugins.yaml:8:11: profile \"a\": plugin \"NoSuchPlugin\" does not "
                                         "exist"));
    CHECK_THAT(r.output, Catch::Contains("invalid_plugins.yaml:24:26: profile \"b\": plugin \"DefaultEvictor\" args: "
                                         "evictLocalStorage: unknown field"));
}

TEST_CASE("validate reads kubernetes-sigs/descheduler's DeschedulerPolicy as is", "[cli][policy]") {
    auto ok = run_command(quote(kBin) + " validate --config " + quote(kData + "/integration/sigs-policy.yaml"));
    CHECK(ok.exit_code == 0);
    CHECK_THAT(ok.output, Catch::StartsWith("OK: "));
    auto bad =
        run_command(quote(kBin) + " validate --config " + quote(kData + "/integration/sigs-policy-invalid.yaml"));
    CHECK(bad.exit_code == 1);
    CHECK_THAT(bad.output, Catch::Contains("sigs-policy-invalid.yaml: invalid DeschedulerPolicy"));
    CHECK_THAT(bad.output, Catch::Contains("sigs-policy-invalid.yaml:3:15: nodeSelector: invalid selector \"zone in "
                                           "(a\": found 'end of string', expected: ',', ')' or identifier"));
    CHECK_THAT(bad.output, Catch::Contains("sigs-policy-invalid.yaml:12:19: profiles[0].plugins.deschedule: plugin "
                                           "\"NoSuchPlugin\" has no entry in this profile's pluginConfig"));
}

TEST_CASE("validate accepts a profile enabling the kubernetes-sigs plugins with their args", "[cli][sigs]") {
    auto r = run_command(quote(kBin) + " validate --config " + quote(kData + "/integration/sigs.yaml"));
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::StartsWith("OK: "));
}

TEST_CASE("validate accepts RemovePodsViolatingTopologySpreadConstraint with every arg, and names a bad one's line",
          "[cli][sigs]") {
    auto r = run_command(quote(kBin) + " validate --config " + quote(kData + "/integration/sigs-topology-spread.yaml"));
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::StartsWith("OK: "));
}

TEST_CASE("validate refuses the kubernetes-sigs args upstream refuses, saying why", "[cli][sigs]") {
    auto r = run_command(quote(kBin) + " validate --config " + quote(kData + "/integration/sigs-refused.yaml"));
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output,
               Catch::Contains("plugin \"PodLifeTime\" args: conditions[1]: at least one of type, status, reason, "
                               "or minTimeSinceLastTransitionSeconds must be set"));
    CHECK_THAT(r.output, !Catch::Contains("conditions[0]"));
    CHECK_THAT(r.output,
               Catch::Contains("plugin \"RemovePodsHavingTooManyRestarts\" args: podRestartThreshold: invalid "
                               "PodsHavingTooManyRestarts threshold"));
    CHECK_THAT(r.output, Catch::Contains("plugin \"RemovePodsViolatingNodeTaints\" args: either includedTaints or "
                                         "excludedTaints can be set, but not both"));
    CHECK_THAT(r.output, Catch::Contains("plugin \"RemovePodsViolatingNodeAffinity\" args: nodeAffinityType: "
                                         "nodeAffinityType needs to be set"));
}

TEST_CASE("validate accepts LowNodeUtilization and HighNodeUtilization with every arg", "[cli][sigs]") {
    auto r = run_command(quote(kBin) + " validate --config " + quote(kData + "/integration/sigs-utilization.yaml"));
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::StartsWith("OK: "));
}

TEST_CASE("validate refuses Prometheus metricsUtilization and the nodeutilization args upstream refuses",
          "[cli][sigs]") {
    auto r =
        run_command(quote(kBin) + " validate --config " + quote(kData + "/integration/sigs-utilization-refused.yaml"));
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("plugin \"LowNodeUtilization\" args: metricsUtilization.source: "
                                         "\"Prometheus\" is not supported: kdesched has no Prometheus client; use "
                                         "\"source: KubernetesMetrics\" (metrics-server) or remove "
                                         "metricsUtilization for requests-based utilization"));
    CHECK_THAT(r.output, Catch::Contains("plugin \"LowNodeUtilization\" args: thresholds.cpu: thresholds' cpu "
                                         "percentage is greater than targetThresholds'"));
    CHECK_THAT(r.output, Catch::Contains("plugin \"HighNodeUtilization\" args: evictableNamespaces.include: only "
                                         "Exclude namespaces can be set, inclusion is not supported"));
    CHECK_THAT(r.output, Catch::Contains("plugin \"HighNodeUtilization\" args: evictionModes[0]: invalid eviction "
                                         "mode Everything"));
}

TEST_CASE("a bad command line exits 2", "[cli]") {
    CHECK(run_command(quote(kBin) + " validate").exit_code == 2);
    CHECK(run_command(quote(kBin) + " frobnicate").exit_code == 2);
    // kubernetes-sigs/descheduler's --descheduling-interval takes a Go duration.
    auto interval = run_command(quote(kBin) + " run --config " + quote(kData + "/integration/sigs-policy.yaml") +
                                " --descheduling-interval 5 --dry-run");
    CHECK(interval.exit_code == 2);
    CHECK_THAT(interval.output, Catch::Contains("--descheduling-interval: invalid duration \"5\": use a Go duration "
                                                "such as 5m, 1h30m or 0 (one cycle)"));
}

// Switching by image alone: Koordinator's chart starts `/koord-descheduler --config=… --v=4`,
// kubernetes-sigs/descheduler's `descheduler --policy-config-file … --descheduling-interval …`.
// Both reach `kdesched run` (here it stops at the missing kubeconfig, past the flags and the file).
TEST_CASE("koord-descheduler's and kubernetes-sigs/descheduler's command lines run the daemon", "[cli]") {
    const std::string missing = "/nonexistent/kubeconfig: cannot read the kubeconfig (from --kubeconfig)";
    auto koord = run_command(quote(kBin) + " --config=" + quote(kData + "/integration/sigs.yaml") +
                             " --v=4 --kubeconfig=/nonexistent/kubeconfig");
    CHECK(koord.exit_code == 1);
    CHECK_THAT(koord.output, Catch::Contains(missing));
    auto sigs = run_command(quote(kBin) + " --policy-config-file " + quote(kData + "/integration/sigs-policy.yaml") +
                            " --descheduling-interval=5m --dry-run --v=3 --logtostderr --feature-gates=A=true "
                            "--leader-elect=false --kubeconfig /nonexistent/kubeconfig");
    CHECK(sigs.exit_code == 1);
    CHECK_THAT(sigs.output, Catch::Contains(missing));
    CHECK_THAT(sigs.output, Catch::Contains("ignoring --logtostderr: kdesched sets this otherwise"));
    CHECK_THAT(sigs.output, Catch::Contains("ignoring --feature-gates=A=true: kdesched sets this otherwise"));
    // What either would refuse is refused with exit 2, naming the flag.
    auto unknown = run_command(quote(kBin) + " --config=x.yaml --frobnicate");
    CHECK(unknown.exit_code == 2);
    CHECK_THAT(unknown.output, Catch::Contains("unknown flag --frobnicate: kdesched answers to koord-descheduler's"));
    auto verbosity = run_command(quote(kBin) + " --config=x.yaml --v=loud");
    CHECK(verbosity.exit_code == 2);
    CHECK_THAT(verbosity.output, Catch::Contains("flag --v: invalid verbosity \"loud\": use a number such as --v=2"));
    auto lease = run_command(quote(kBin) + " --policy-config-file=" + quote(kData + "/integration/sigs-policy.yaml") +
                             " --leader-elect --leader-elect-lease-duration=5s --leader-elect-renew-deadline=10s");
    CHECK(lease.exit_code == 2);
    CHECK_THAT(lease.output, Catch::Contains("--leader-elect-lease-duration (with the file's leaderElection): must be "
                                             "greater than renewDeadline (5s <= 10s)"));
    // The secure port's flags reach `kdesched run` (10258 unless given), checked before the cluster is.
    auto tls = run_command(quote(kBin) + " --policy-config-file=" + quote(kData + "/integration/sigs-policy.yaml") +
                           " --tls-min-version=VersionTLS9 --kubeconfig /nonexistent/kubeconfig");
    CHECK(tls.exit_code == 2);
    CHECK_THAT(tls.output, Catch::Contains("--tls-min-version: unknown TLS version \"VersionTLS9\" (use VersionTLS10, "
                                           "VersionTLS11, VersionTLS12 or VersionTLS13)"));
    auto half = run_command(quote(kBin) + " --config=" + quote(kData + "/integration/sigs.yaml") +
                            " --secure-port=0 --tls-cert-file=/etc/tls.crt --kubeconfig=/nonexistent/kubeconfig");
    CHECK(half.exit_code == 1);  // port 0: no secure port, so the files are not read; the kubeconfig is
    CHECK_THAT(half.output, Catch::Contains(missing));
    auto address = run_command(quote(kBin) + " --config=" + quote(kData + "/integration/sigs.yaml") +
                               " --bind-address=localhost --kubeconfig=/nonexistent/kubeconfig");
    CHECK(address.exit_code == 2);
    CHECK_THAT(address.output, Catch::Contains("--bind-address: \"localhost\" is not an IP address"));
    // kdesched's own command line is untouched: a subcommand first, or only --help.
    CHECK(run_command(quote(kBin) + " --help").exit_code == 0);
}

// --log-format json (or component-base's --logging-format=json): every stderr line is a JSON
// object, start-up errors included, so that a log collector indexes them all.
TEST_CASE("run's start-up errors are JSON lines under --log-format json", "[cli]") {
    auto each_line_is_json = [](const std::string& output) {
        std::istringstream in(output);
        size_t n = 0;
        for (std::string line; std::getline(in, line); ++n) {
            rapidjson::Document d;
            d.Parse(line.c_str());
            INFO(line);
            REQUIRE_FALSE(d.HasParseError());
            CHECK(d.HasMember("ts"));
            CHECK(d.HasMember("level"));
            CHECK(d.HasMember("msg"));
        }
        return n;
    };
    auto bad = run_command(quote(kBin) + " run --log-format json --config " +
                           quote(kData + "/invalid/bad-duration.yaml") + " --kubeconfig /nonexistent/kubeconfig");
    CHECK(bad.exit_code == 1);
    CHECK(each_line_is_json(bad.output) == 1);  // the whole multi-line error in one object
    CHECK_THAT(bad.output, Catch::Contains(R"("level":"error")"));
    CHECK_THAT(bad.output, Catch::Contains(R"(bad-duration.yaml:3:23: deschedulingInterval: invalid duration)"));
    auto koord = run_command(quote(kBin) + " --config=" + quote(kData + "/integration/sigs.yaml") +
                             " --logging-format=json --logtostderr --kubeconfig=/nonexistent/kubeconfig");
    CHECK(koord.exit_code == 1);
    CHECK(each_line_is_json(koord.output) == 2);  // the ignored flag's warning, the error
    CHECK_THAT(koord.output, Catch::Contains(R"("level":"warning","msg":"ignoring --logtostderr)"));
    auto flag = run_command(quote(kBin) + " run --log-format json --config x.yaml --frobnicate");
    CHECK(flag.exit_code == 2);
    CHECK(each_line_is_json(flag.output) == 1);
    CHECK_THAT(flag.output, Catch::Contains("frobnicate"));
    auto format = run_command(quote(kBin) + " --config=x.yaml --logging-format=xml");
    CHECK(format.exit_code == 2);
    CHECK_THAT(format.output, Catch::Contains("flag --logging-format: \"xml\" is not text or json"));
}

TEST_CASE("plan on the embedded default profile prints the cycle and every plugin", "[cli]") {
    auto r = run_command(quote(kBin) + " plan");
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("config: <embedded profiles/default.yaml>"));
    CHECK_THAT(r.output, Catch::Contains("cycle: every 10s"));
    CHECK_THAT(r.output, Catch::Contains("profile \"kdesched-default\""));
    CHECK_THAT(r.output, Catch::Contains("    evict:\n      - MigrationController "));
    CHECK_THAT(r.output, Catch::Contains("    periodic work: MigrationController\n"));
}

TEST_CASE("simulate prints the whole report and exits 3 when a plugin stops its cycles", "[cli]") {
    auto r = run_command(quote(kBin) + " simulate --cycles 2 --config " +
                         quote(kData + "/integration/throws-in-balance.yaml") + " --plugin-dir " +
                         quote(kFixtures + "/behaviour"));
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.output, Catch::Contains("cycle 2  "));  // the report went on to the last cycle
    CHECK_THAT(r.output, Catch::Contains("cycle 1 stopped early: profile \"throws\" balance: ThrowsInHook: "
                                         "balance exploded"));
    CHECK_THAT(r.output, Catch::Contains("2 of 2 cycles failed"));
}

TEST_CASE(
    "simulate --explain: one line per pod, the last word wins, an evicted pod is not listed, an unknown "
    "report key is warned once",
    "[cli]") {
    auto r = run_command(quote(kBin) + " simulate --cycles 2 --explain --output json --config " +
                         quote(kData + "/integration/explain-probe.yaml") + " --plugin-dir " +
                         quote(kFixtures + "/explain"));
    REQUIRE(r.exit_code == 0);
    // The embedded hotspot example's node-1: kube-proxy, five web pods, api (evicted, dry run)
    // and cache-0.
    rapidjson::Document doc;
    doc.Parse(r.output.c_str() + r.output.find("\n{") + 1);
    REQUIRE_FALSE(doc.HasParseError());
    for (const auto& cycle : doc["cycles"].GetArray()) {
        std::map<std::string, std::string> why;
        for (const auto& e : cycle["explain"].GetArray()) {
            CHECK(why.count(e["pod"].GetString()) == 0);              // one line per pod
            CHECK(std::string(e["stage"].GetString()) == "skipped");  // the plugin's own reason
            why[e["pod"].GetString()] = e["reason"].GetString();
        }
        CHECK(why.size() == 7);
        CHECK(why["kube-system/kube-proxy-b3682"] == "LastWord: a detail");
        CHECK(why["shop/cache-0"] == "LastWord: a detail");
        CHECK(why.count("shop/api-7c9f8d6b5-606ef") == 0);
        REQUIRE(cycle["evictions"].Size() == 1);
        CHECK(std::string(cycle["evictions"][0]["pod"].GetString()) == "shop/api-7c9f8d6b5-606ef");
        CHECK(std::string(cycle["evictions"][0]["result"].GetString()) == "dry-run");
    }
    CHECK_THAT(r.output, !Catch::Contains("FirstWord"));
    CHECK_THAT(r.output, !Catch::Contains("blue"));
    // Warned once although reported for every pod in both cycles.
    const std::string warning = "plugin ExplainProbe reported \"colour\" of a pod";
    const size_t at = r.output.find(warning);
    REQUIRE(at != std::string::npos);
    CHECK(r.output.find(warning, at + 1) == std::string::npos);
}
