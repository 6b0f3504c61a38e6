// tools/new-plugin.sh: bad arguments are refused with a message and nothing written; a scaffolded
// plugin builds against the installed sdk component, passes its own test as generated, and the
// installed kdesched loads it and simulates its profile on its snapshot.
#include "plugin_project.hpp"
#include "run_command.hpp"
#include "temp_dir.hpp"

#include <rapidjson/document.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;

namespace {

const std::string kScript = KDESCHED_SOURCE_DIR "/tools/new-plugin.sh";

// Runs the script in `cwd` with `args` (already quoted).
CommandResult scaffold(const fs::path& cwd, const std::string& args) {
    return run_command("cd " + quote(cwd.string()) + " && " + quote(kScript) + " " + args);
}

// Every entry below `dir`, as paths relative to it.
std::vector<std::string> tree(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) out.push_back(fs::relative(e.path(), dir).string());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST_CASE("new-plugin.sh refuses bad arguments, says why and writes nothing", "[scaffold]") {
    kd_test::TempDir tmp("scaffold-bad");
    fs::create_directories(tmp.path / "full");
    std::ofstream(tmp.path / "full" / "keep.txt") << "mine\n";
    const std::vector<std::string> before = tree(tmp.path);
    struct Case {
        std::string args, message;
    };
    for (const Case& c : std::vector<Case>{
             {"", "missing the plugin NAME"},
             {"''", "the plugin name is empty"},
             {"1plugin", "\"1plugin\" is not a valid plugin name"},
             {"'my plugin'", "\"my plugin\" is not a valid plugin name"},
             {"my--plugin", "\"my--plugin\" is not a valid plugin name"},
             {"'../evil'", "\"../evil\" is not a valid plugin name"},
             {"Test", "a name CMake reserves"},
             {"MyPlugin full", "full exists and is not empty"},
             {"MyPlugin full/keep.txt", "full/keep.txt exists and is not a folder"},
             {"MyPlugin out extra", "too many arguments"},
         }) {
        INFO(c.args);
        auto r = scaffold(tmp.path, c.args);
        CHECK(r.exit_code != 0);
        CHECK_THAT(r.output, Catch::Contains(c.message));
        CHECK(tree(tmp.path) == before);
    }
}

TEST_CASE("new-plugin.sh names the folder, files and class after NAME", "[scaffold]") {
    kd_test::TempDir tmp("scaffold-names");
    fs::create_directories(tmp.path / "empty");
    REQUIRE(scaffold(tmp.path, "ingress-guard").exit_code == 0);
    CHECK(fs::exists(tmp.path / "ingress-guard" / "ingress_guard.hpp"));
    std::ifstream header(tmp.path / "ingress-guard" / "ingress_guard.hpp");
    std::string text((std::istreambuf_iterator<char>(header)), std::istreambuf_iterator<char>());
    CHECK_THAT(text, Catch::Contains("class IngressGuard {"));
    CHECK_THAT(text, Catch::Contains("kName = \"IngressGuard\""));
    // A CamelCase name is kept as written; an existing empty folder is used.
    REQUIRE(scaffold(tmp.path, "HTTPCheck empty").exit_code == 0);
    CHECK(tree(tmp.path / "empty") == std::vector<std::string>{"CMakeLists.txt", "README.md", "cluster.json",
                                                               "http_check.cpp", "http_check.hpp",
                                                               "http_check_test.cpp", "profile.yaml"});
    CHECK((fs::status(tmp.path / "empty").permissions() & fs::perms::others_read) != fs::perms::none);
}

TEST_CASE("a scaffolded plugin builds against the installed sdk, passes its test and runs in simulate",
          "[example][scaffold]") {
    kd_test::TempDir tmp("scaffold");
    const std::string sdk = (tmp.path / "sdk").string(), prefix = (tmp.path / "prefix").string(),
                      build = (tmp.path / "build").string();
    for (const auto& [where, component] : {std::pair{sdk, "sdk"}, std::pair{prefix, "runtime"}}) {
        auto r = run_command("cmake --install " + quote(KDESCHED_BUILD_DIR) + " --prefix " + quote(where) +
                             " --component " + component);
        INFO(r.output);
        REQUIRE(r.exit_code == 0);
    }
    auto made = scaffold(tmp.path, "RetireDemo");
    INFO(made.output);
    REQUIRE(made.exit_code == 0);
    const std::string src = (tmp.path / "retire-demo").string();

    CHECK_THAT(build_plugin_project(src, build, sdk, " -DCMAKE_CXX_FLAGS='-Wall -Wextra -Werror'"),
               Catch::Contains("100% tests passed, 0 tests failed out of 1"));

    const std::string bin = prefix + "/bin/kdesched";
    auto plugins = run_command(quote(bin) + " plugins --plugin-dir " + quote(build));
    INFO(plugins.output);
    CHECK_THAT(plugins.output, Catch::Contains("RetireDemo\t0.1.0\t1.0.0\tbalance\t" + build + "/retire_demo.so"));

    auto sim = run_command(quote(bin) + " simulate --output json --cycles 1 --plugin-dir " + quote(build) +
                           " --config " + quote(src + "/profile.yaml") + " --cluster " + quote(src + "/cluster.json"));
    INFO(sim.output);
    REQUIRE(sim.exit_code == 0);
    rapidjson::Document doc;
    doc.Parse(sim.output.c_str());
    REQUIRE_FALSE(doc.HasParseError());
    const auto& evictions = doc["cycles"][0]["evictions"];
    REQUIRE(evictions.Size() == 1);
    CHECK(std::string(evictions[0]["pod"].GetString()) == "default/demo-5d4c8b7f6-a1b2c");
    CHECK(std::string(evictions[0]["plugin"].GetString()) == "RetireDemo");
    CHECK(std::string(evictions[0]["result"].GetString()) == "accepted");
}
