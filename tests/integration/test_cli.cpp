// The real kdesched binary on real files: exit codes and what it prints.
#include "api_version.hpp"
#include "binary_paths.hpp"
#include "run_command.hpp"

#include <catch2/catch.hpp>

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

TEST_CASE("a bad command line exits 2", "[cli]") {
    CHECK(run_command(quote(kBin) + " validate").exit_code == 2);
    CHECK(run_command(quote(kBin) + " frobnicate").exit_code == 2);
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
