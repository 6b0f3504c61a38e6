// The loader against real .so fixtures: one per failure mode, asserting the message.
#include "api_version.hpp"
#include "error.hpp"
#include "loader/plugin_catalog.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using kd::core::PluginCatalog;
namespace fs = std::filesystem;

static const fs::path kRoot = KDESCHED_FIXTURE_PLUGIN_ROOT;

static std::string load_error(const fs::path& dir) {
    PluginCatalog c;
    try {
        c.load({dir});
    } catch (const kd::core::Error& e) {
        return e.what();
    }
    return "";
}

TEST_CASE("a plugin with another ABI major is refused naming the file and both versions", "[loader]") {
    std::string msg = load_error(kRoot / "major_mismatch");
    CHECK_THAT(msg, Catch::Contains("major_mismatch/fixture_major_mismatch.so"));
    CHECK_THAT(
        msg, Catch::Contains("built against plugin API 2.0.0 but this kdesched implements " + kd_test::api_version()));
    CHECK_THAT(msg, Catch::Contains("major versions differ"));
}

TEST_CASE("a plugin built against a newer minor is refused", "[loader]") {
    std::string msg = load_error(kRoot / "minor_newer");
    CHECK_THAT(msg, Catch::Contains("fixture_minor_newer.so"));
    CHECK_THAT(msg, Catch::Contains("built against plugin API " +
                                    kd_test::api_version(KD_API_VERSION_MAJOR, KD_API_VERSION_MINOR + 1) +
                                    ", newer than this kdesched's " + kd_test::api_version()));
}

TEST_CASE("a plugin built against the same major and an older or equal minor loads", "[loader]") {
    PluginCatalog c;
    c.load({kRoot / "compatible"});
    REQUIRE(c.entries().size() == 1);
    const auto* e = c.find("Compatible");
    REQUIRE(e);
    CHECK(e->version == "0.0.1");
    CHECK(kd::core::version_text(e->api_version) == "1.0.0");
    CHECK(e->extension_points() == std::vector<std::string>{"balance"});
    // Its descriptor is the 1.0 size: the 1.1 periodic hook is read as absent, not past the end.
    CHECK(e->descriptor->struct_size < sizeof(kd_plugin_descriptor));
    CHECK(e->tick_hook() == nullptr);
    CHECK_THAT(e->file, Catch::EndsWith("fixture_minor_older_ok.so"));
}

TEST_CASE("a library without the entry point is refused", "[loader]") {
    std::string msg = load_error(kRoot / "no_entry_point");
    CHECK_THAT(msg, Catch::Contains("fixture_no_entry_point.so"));
    CHECK_THAT(msg, Catch::Contains("no entry point: the library does not export \"kdesched_module\""));
}

TEST_CASE("a file that is not an ELF shared library is refused", "[loader]") {
    std::string msg = load_error(kRoot / "not_elf");
    CHECK_THAT(msg, Catch::Contains("readme_not_a_plugin.so: not a shared library (no ELF header)"));
}

TEST_CASE("a descriptor with half a filter is refused", "[loader]") {
    std::string msg = load_error(kRoot / "bad_descriptor");
    CHECK_THAT(msg, Catch::Contains("plugin \"HalfFilter\" sets only one of filter/pre_eviction_filter"));
}

TEST_CASE("two libraries providing the same plugin name are refused", "[loader]") {
    std::string msg = load_error(kRoot / "duplicate");
    CHECK_THAT(msg, Catch::Contains("duplicate plugin name \"Twin\", already loaded from"));
    CHECK_THAT(msg, Catch::Contains("fixture_duplicate_a.so"));
    CHECK_THAT(msg, Catch::Contains("fixture_duplicate_b.so"));
}

TEST_CASE("problems of several files are reported together", "[loader]") {
    PluginCatalog c;
    std::string msg;
    try {
        c.load({kRoot / "major_mismatch", kRoot / "not_elf", kRoot / "does_not_exist"});
    } catch (const kd::core::Error& e) {
        msg = e.what();
    }
    CHECK_THAT(msg, Catch::StartsWith("3 plugin problem(s)"));
    CHECK_THAT(msg, Catch::Contains("major versions differ"));
    CHECK_THAT(msg, Catch::Contains("no ELF header"));
    CHECK_THAT(msg, Catch::Contains("does_not_exist: plugin directory does not exist"));
}

TEST_CASE("a module of several plugins exposes each with its extension points", "[loader]") {
    PluginCatalog c;
    c.load({kRoot / "behaviour"});
    CHECK(c.names() == "CreateFails, ThrowsInHook, FilterOnly, GoodBalance");
    CHECK(c.find("ThrowsInHook")->extension_points() == std::vector<std::string>{"deschedule", "balance", "filter"});
    CHECK(c.find("FilterOnly")->extension_points() == std::vector<std::string>{"filter"});
    CHECK(c.find("GoodBalance")->version == "1.2.3");
}
