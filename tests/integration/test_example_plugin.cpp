// The install and the out-of-tree example plugins: `cmake --install` writes only under its prefix,
// the `sdk` component is the SDK alone (headers, CMake package, RapidJSON carried by the target),
// and examples/pod-age-limit and examples/pods-per-node-cap build against that component with
// find_package(kdesched-sdk), run their own tests, and load into the installed kdesched, which
// simulates the second one on its snapshot.
#include "plugin_project.hpp"
#include "run_command.hpp"
#include "temp_dir.hpp"

#include <rapidjson/document.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// Installs one component of this build (all of them when empty) into `prefix` and returns every
// path the install wrote, as cmake prints them ("-- Installing: PATH"). Read from the output rather
// than install_manifest.txt, which concurrent installs of the same build would share.
std::set<std::string> install(const std::string& prefix, const std::string& component = "") {
    auto r = run_command("cmake --install " + quote(KDESCHED_BUILD_DIR) + " --prefix " + quote(prefix) +
                         (component.empty() ? "" : " --component " + component));
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    std::set<std::string> written;
    std::istringstream lines(r.output);
    for (std::string line; std::getline(lines, line);)
        for (const std::string tag : {"-- Installing: ", "-- Up-to-date: "})
            if (line.rfind(tag, 0) == 0) written.insert(line.substr(tag.size()));
    REQUIRE_FALSE(written.empty());
    return written;
}

// Whether `path` is `dir` or below it (an installed directory is listed too).
bool under(const std::string& path, const std::string& dir) {
    return path == dir || path.rfind(dir + "/", 0) == 0;
}

}  // namespace

TEST_CASE("install: every file lands under the prefix, the profiles in its etc/kdesched", "[install]") {
    kd_test::TempDir tmp("install");
    const std::string prefix = (tmp.path / "prefix").string();
    for (const auto& path : install(prefix)) {
        INFO(path);
        CHECK(under(path, prefix));
    }
    for (const char* path : {"etc/kdesched/default.yaml", "etc/kdesched/load-aware.yaml", "bin/kdesched",
                             "lib/kdesched/plugins/kdesched_lownodeload.so", "include/kdesched/abi.h",
                             KDESCHED_INSTALL_LIBDIR "/cmake/kdesched-sdk/kdesched-sdkConfig.cmake"}) {
        INFO(path);
        CHECK(fs::exists(fs::path(prefix) / path));
    }
}

TEST_CASE("install: the sdk component is the headers and the CMake package, which carries RapidJSON", "[install]") {
    kd_test::TempDir tmp("install-sdk");
    const std::string prefix = (tmp.path / "sdk").string();
    const std::string include = prefix + "/include/kdesched",
                      package = prefix + "/" KDESCHED_INSTALL_LIBDIR "/cmake/kdesched-sdk";
    std::set<std::string> written = install(prefix, "sdk");
    for (const auto& path : written) {  // nothing but the SDK: no binary, plugin, profile or doc
        INFO(path);
        CHECK((under(path, include) || under(path, package)));
    }
    for (const auto& header : fs::directory_iterator(KDESCHED_SDK_HEADERS)) {
        INFO(header.path());
        CHECK(written.count(include + "/" + header.path().filename().string()));
    }
    for (const char* file : {"kdesched-sdkConfig.cmake", "kdesched-sdkConfigVersion.cmake",
                             "kdesched-sdk-targets.cmake", "kdesched-plugin.cmake"}) {
        INFO(file);
        CHECK(written.count(package + "/" + file));
    }

    // A plugin project names only kdesched-sdk: the target brings the include directories of the
    // RapidJSON that find_package finds where the plugin is built (here a stand-in's, so that they
    // differ from the compiler's default /usr/include).
    const fs::path consumer = tmp.path / "consumer", rapidjson = tmp.path / "rapidjson";
    fs::create_directories(consumer);
    fs::create_directories(rapidjson / "include");
    std::ofstream(rapidjson / "RapidJSONConfig.cmake")
        << "set(RAPIDJSON_INCLUDE_DIRS \"" << (rapidjson / "include").string() << "\")\n";
    std::ofstream(consumer / "CMakeLists.txt")
        << "cmake_minimum_required(VERSION 3.16)\n"
           "project(consumer CXX)\n"
           "find_package(kdesched-sdk REQUIRED)\n"
           "get_target_property(dirs kdesched::sdk INTERFACE_INCLUDE_DIRECTORIES)\n"
           "message(STATUS \"kdesched::sdk includes: ${dirs}\")\n";
    auto configure =
        run_command("cmake -S " + quote(consumer.string()) + " -B " + quote((consumer / "build").string()) +
                    " -DCMAKE_PREFIX_PATH=" + quote(prefix) + " -DRapidJSON_DIR=" + quote(rapidjson.string()));
    INFO(configure.output);
    REQUIRE(configure.exit_code == 0);
    CHECK_THAT(configure.output,
               Catch::Contains("kdesched::sdk includes: " + prefix + "/include;" + (rapidjson / "include").string()));
}

TEST_CASE("the example plugin builds against the installed sdk component and the host loads it", "[example]") {
    kd_test::TempDir tmp("example");
    // The SDK and the host in prefixes of their own: the sdk component alone builds a plugin.
    const std::string sdk = (tmp.path / "sdk").string(), prefix = (tmp.path / "prefix").string(),
                      ex = (tmp.path / "build").string();
    install(sdk, "sdk");
    install(prefix, "runtime");

    CHECK_THAT(build_plugin_project(KDESCHED_EXAMPLE_DIR, ex, sdk),
               Catch::Contains("100% tests passed"));  // and some ran: Catch2 was found

    const std::string bin = prefix + "/bin/kdesched";
    auto plugins = run_command(quote(bin) + " plugins --plugin-dir " + quote(ex));
    INFO(plugins.output);
    CHECK(plugins.exit_code == 0);
    // It targets API 1.0 (kdesched_target_api), whatever the SDK's minor: the column says so.
    CHECK_THAT(plugins.output, Catch::Contains("PodAgeLimit\t1.0.0\t1.0.0\tdeschedule\t" + ex + "/pod_age_limit.so"));
    // DefaultEvictor comes from the installed default directory next to the installed binary.
    CHECK_THAT(plugins.output, Catch::Contains("DefaultEvictor\t"));

    auto validate = run_command(quote(bin) + " validate --plugin-dir " + quote(ex) + " --config " +
                                quote(std::string(KDESCHED_EXAMPLE_DIR) + "/profile.yaml"));
    INFO(validate.output);
    CHECK(validate.exit_code == 0);
    auto plan = run_command(quote(bin) + " plan --plugin-dir " + quote(ex) + " --config " +
                            quote(std::string(KDESCHED_EXAMPLE_DIR) + "/profile.yaml"));
    CHECK_THAT(plan.output, Catch::Contains("    deschedule:\n      - PodAgeLimit 1.0.0 from " + ex));
}

TEST_CASE("the balance example builds against the installed sdk, and simulate evicts the youngest pods above the cap",
          "[example]") {
    kd_test::TempDir tmp("example-cap");
    const std::string sdk = (tmp.path / "sdk").string(), prefix = (tmp.path / "prefix").string(),
                      ex = (tmp.path / "build").string(), dir = KDESCHED_EXAMPLES_ROOT "/pods-per-node-cap";
    install(sdk, "sdk");
    install(prefix, "runtime");
    CHECK_THAT(build_plugin_project(dir, ex, sdk),
               Catch::Contains("100% tests passed"));  // and some ran: Catch2 was found

    const std::string bin = prefix + "/bin/kdesched";
    auto plugins = run_command(quote(bin) + " plugins --plugin-dir " + quote(ex));
    INFO(plugins.output);
    CHECK_THAT(plugins.output,
               Catch::Contains("PodsPerNodeCap\t1.0.0\t1.0.0\tbalance\t" + ex + "/pods_per_node_cap.so"));

    auto sim = run_command(quote(bin) + " simulate --output json --explain --cycles 2 --plugin-dir " + quote(ex) +
                           " --config " + quote(dir + "/profile.yaml") + " --cluster " + quote(dir + "/cluster.json"));
    INFO(sim.output);
    REQUIRE(sim.exit_code == 0);
    rapidjson::Document doc;
    doc.Parse(sim.output.c_str());
    REQUIRE_FALSE(doc.HasParseError());
    const auto& cycles = doc["cycles"];
    REQUIRE(cycles.Size() == 2);
    // node-a runs five shop/web pods, the cap is 3: the two youngest go, youngest first.
    std::vector<std::string> evicted;
    for (const auto& e : cycles[0]["evictions"].GetArray()) {
        CHECK(std::string(e["plugin"].GetString()) == "PodsPerNodeCap");
        CHECK(std::string(e["result"].GetString()) == "accepted");
        CHECK(std::string(e["node"].GetString()) == "node-a");
        evicted.push_back(e["pod"].GetString());
    }
    CHECK(evicted == std::vector<std::string>{"shop/web-6d8f7c9b4-t3v8z", "shop/web-6d8f7c9b4-p9d6r"});
    std::vector<std::string> stayed;
    for (const auto& e : cycles[0]["explain"].GetArray())
        stayed.push_back(std::string(e["pod"].GetString()) + " " + e["reason"].GetString());
    CHECK(stayed == std::vector<std::string>{"shop/web-6d8f7c9b4-k2x4p WithinCap: node-a is down to the cap of 3",
                                             "shop/web-6d8f7c9b4-f4w9q WithinCap: node-a is down to the cap of 3",
                                             "shop/web-6d8f7c9b4-b8m2t WithinCap: node-a is down to the cap of 3"});
    // The replacements went to the emptier nodes: node-a is within the cap.
    CHECK(cycles[1]["evictions"].Size() == 0);
}
