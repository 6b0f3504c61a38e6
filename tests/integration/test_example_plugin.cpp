// The out-of-tree example plugin: install the SDK, build examples/pod-age-limit against it with
// find_package(kdesched-sdk), run its own tests, and load it into the installed kdesched.
#include "api_version.hpp"
#include "run_command.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

TEST_CASE("the example plugin builds against the installed SDK and the host loads it", "[example]") {
    namespace fs = std::filesystem;
    fs::path tmp = fs::temp_directory_path() / ("kdesched-example-" + std::to_string(::getpid()));
    fs::remove_all(tmp);
    const std::string prefix = (tmp / "prefix").string(), ex = (tmp / "build").string();

    auto install = run_command("cmake --install " + quote(KDESCHED_BUILD_DIR) + " --prefix " + quote(prefix));
    REQUIRE(install.exit_code == 0);
    REQUIRE(fs::exists(fs::path(prefix) / "include/kdesched/abi.h"));

    auto configure = run_command("cmake -S " + quote(KDESCHED_EXAMPLE_DIR) + " -B " + quote(ex) +
                                 " -DCMAKE_PREFIX_PATH=" + quote(prefix) + " -DCMAKE_BUILD_TYPE=Release");
    INFO(configure.output);
    REQUIRE(configure.exit_code == 0);
    auto build = run_command("cmake --build " + quote(ex) + " -j 2");
    INFO(build.output);
    REQUIRE(build.exit_code == 0);
    auto unit = run_command("cd " + quote(ex) + " && ctest --output-on-failure");
    INFO(unit.output);
    CHECK(unit.exit_code == 0);

    const std::string bin = prefix + "/bin/kdesched";
    auto plugins = run_command(quote(bin) + " plugins --plugin-dir " + quote(ex));
    INFO(plugins.output);
    CHECK(plugins.exit_code == 0);
    CHECK_THAT(plugins.output, Catch::Contains("PodAgeLimit\t1.0.0\t" + kd_test::api_version() + "\tdeschedule\t" + ex +
                                               "/pod_age_limit.so"));
    // DefaultEvictor comes from the installed default directory next to the installed binary.
    CHECK_THAT(plugins.output, Catch::Contains("DefaultEvictor\t"));

    auto validate = run_command(quote(bin) + " validate --plugin-dir " + quote(ex) + " --config " +
                                quote(std::string(KDESCHED_EXAMPLE_DIR) + "/profile.yaml"));
    INFO(validate.output);
    CHECK(validate.exit_code == 0);
    auto plan = run_command(quote(bin) + " plan --plugin-dir " + quote(ex) + " --config " +
                            quote(std::string(KDESCHED_EXAMPLE_DIR) + "/profile.yaml"));
    CHECK_THAT(plan.output, Catch::Contains("    deschedule:\n      - PodAgeLimit 1.0.0 from " + ex));
    fs::remove_all(tmp);
}
