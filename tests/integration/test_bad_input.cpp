// Bad input found by probing the real binary: each gets a clear error naming the file and, where
// there is one, the line and column, with exit code 1 — never a hang or memory that keeps growing.
#include "binary_paths.hpp"
#include "run_command.hpp"
#include "temp_dir.hpp"

#include <catch2/catch.hpp>

#include <stdlib.h>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

const std::string kPlugins = KDESCHED_PLUGIN_DIR;
// Generous bounds for a loaded 2-core machine under ASan; the failures they catch (reading
// /dev/zero, yaml-cpp's LoadAll loop) grow by about 1 GB a second and never end.
constexpr double kTimeoutSeconds = 30;
constexpr long kMaxRssKb = 500 * 1024;

struct TempDir : kd_test::TempDir {
    TempDir() : kd_test::TempDir("bad-input") {}
};

BoundedResult kdesched(std::vector<std::string> args) {
    args.insert(args.begin(), kBin);
    auto r = run_bounded(args, kTimeoutSeconds);
    INFO(r.output);
    CHECK_FALSE(r.timed_out);
    CHECK(r.max_rss_kb < kMaxRssKb);
    return r;
}

}  // namespace

TEST_CASE("a profile that is a device or a directory is refused by name, not read", "[cli][input]") {
    auto r = kdesched({"validate", "--config", "/dev/zero"});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("/dev/zero: the configuration file is a device"));
    TempDir dir;
    r = kdesched({"validate", "--config", dir.path.string()});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains(dir.path.string() + ": the configuration file is a directory"));
}

TEST_CASE("a profile larger than the limit is refused, naming the limit", "[cli][input]") {
    TempDir dir;
    std::string big(5u << 20, '#');
    for (size_t i = 80; i < big.size(); i += 81) big[i] = '\n';
    auto r = kdesched({"validate", "--config", dir.write("big.yaml", big)});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("big.yaml: the configuration file is larger than 4 MiB (the limit)"));
}

TEST_CASE("YAML nested deeper than the limit is refused at its line, naming the limit", "[cli][input]") {
    TempDir dir;
    std::string flow = std::string(100000, '[') + std::string(100000, ']');
    auto r = kdesched({"validate", "--config", dir.write("flow.yaml", flow)});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("flow.yaml:1:201: invalid YAML: nesting too deep: more than 200 levels"));
    std::string block;
    for (int i = 0; i < 1000; ++i) block += std::string(size_t(i), ' ') + "a:\n";
    r = kdesched({"validate", "--config", dir.write("block.yaml", block)});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("block.yaml:201:201: invalid YAML: nesting too deep"));
    r = kdesched({"simulate", "--cycles", "1", "--cluster", dir.write("block.yml", block)});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("block.yml:201:201: invalid YAML: nesting too deep"));
}

// yaml-cpp 0.7's LoadAll never returns on these (issue 17); Load takes "," for an empty document.
TEST_CASE("a stray flow indicator ends at once with an error and its position, as profile and snapshot",
          "[cli][input]") {
    struct Case {
        std::string text, position;
    };
    // A snapshot's first document must be an object for the error to come from the second.
    const std::string ns = "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n";
    for (const auto& [profile, snapshot] : std::vector<std::pair<Case, Case>>{
             {{",", ":1:1: invalid YAML"}, {",", ":1:1: invalid YAML"}},
             {{", ", ":1:1: invalid YAML"}, {", ", ":1:1: invalid YAML"}},
             {{",\n,", ":1:1: invalid YAML"}, {",\n,", ":1:1: invalid YAML"}},
             {{"a: 1\n---\n,", ":3:1: invalid YAML"}, {ns + "---\n,", ":5:1: invalid YAML"}},
             {{"- ,", ":1:3: invalid YAML"}, {"- ,", ":1:3: invalid YAML"}},
             {{"[:", ":1:2: invalid YAML"}, {"[:", ":1:2: invalid YAML"}},
             {{"{:", ":1:2: invalid YAML"}, {"{:", ":1:2: invalid YAML"}}}) {
        TempDir dir;
        INFO("profile: " << profile.text);
        auto r = kdesched({"validate", "--config", dir.write("p.yaml", profile.text)});
        CHECK(r.exit_code == 1);
        CHECK_THAT(r.output, Catch::Contains("p.yaml" + profile.position));
        INFO("snapshot: " << snapshot.text);
        r = kdesched({"simulate", "--cycles", "1", "--cluster", dir.write("s.yaml", snapshot.text)});
        CHECK(r.exit_code == 1);
        CHECK_THAT(r.output, Catch::Contains("s.yaml" + snapshot.position));
    }
}

TEST_CASE("valid YAML that is no configuration or cluster is refused with its position", "[cli][input]") {
    TempDir dir;
    std::string file = dir.write("p.yaml", "[:]");
    auto r = kdesched({"validate", "--config", file});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("p.yaml:1:1"));
    r = kdesched({"simulate", "--cycles", "1", "--cluster", file});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("p.yaml:1:"));
}

TEST_CASE("the default plugin folder named again, or a plugin reached through a symlink, loads once",
          "[cli][plugins]") {
    auto r = kdesched({"plugins", "--plugin-dir", kPlugins});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("DefaultEvictor\t"));
    CHECK(r.output.find("DefaultEvictor\t") == r.output.rfind("DefaultEvictor\t"));

    TempDir dir;
    fs::create_directory_symlink(kPlugins, dir.path / "again");
    fs::create_symlink(fs::path(kPlugins) / "kdesched_lownodeload.so", dir.path / "link.so");
    r = kdesched({"plugins", "--plugin-dir", (dir.path / "again").string(), "--plugin-dir", dir.path.string(),
                  "--plugin-dir", kPlugins + "/../plugins"});
    CHECK(r.exit_code == 0);
    CHECK(r.output.find("LowNodeLoad\t") == r.output.rfind("LowNodeLoad\t"));
}

TEST_CASE("two different files providing one plugin stay an error", "[cli][plugins]") {
    TempDir dir;
    fs::copy_file(fs::path(kPlugins) / "kdesched_lownodeload.so", dir.path / "copy.so");
    auto r = kdesched({"plugins", "--plugin-dir", dir.path.string()});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("duplicate plugin name \"LowNodeLoad\""));
}

TEST_CASE("a directory named like a plugin is reported as a directory", "[cli][plugins]") {
    TempDir dir;
    fs::create_directory(dir.path / "y.so");
    auto r = kdesched({"plugins", "--plugin-dir", dir.path.string()});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("y.so: a directory, not a plugin library"));
}

TEST_CASE("kdesched-bench runs from anywhere: its profile is compiled in", "[cli][bench]") {
    TempDir dir;
    fs::copy_file(KDESCHED_BENCH_BINARY, dir.path / "kdesched-bench");
    fs::permissions(dir.path / "kdesched-bench", fs::perms::owner_exec, fs::perm_options::add);
    auto r = run_bounded(
        {(dir.path / "kdesched-bench").string(), "--plugin-dir", kPlugins, "--sizes", "20x200", "--cycles", "1"}, 120);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("decode MB/s"));
    CHECK_THAT(r.output, Catch::Contains("    20      200"));
}
