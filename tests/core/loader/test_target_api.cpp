// A target API (issue 27): one plugin source built for API 1.0 loads on hosts claiming 1.0, 1.1,
// 1.2 and this one, and there the SDK's fallbacks for what each host lacks run; built for the
// SDK's own minor, an older host refuses it.
#include "api_version.hpp"
#include "error.hpp"
#include "loader/plugin_catalog.hpp"

#include <kdesched/testing.hpp>

#include <catch2/catch.hpp>

#include <filesystem>

using kd::core::PluginCatalog;
namespace fs = std::filesystem;

static const fs::path kTargetApiFixtures = KDESCHED_FIXTURE_PLUGIN_ROOT;

static kd_version host_of_minor(uint32_t minor) {
    return {KD_API_VERSION_MAJOR, minor, 0};
}

// The probe's log line after one balance on a fake host of API 1.<minor>, loaded by a catalog
// that checks modules as that host would.
static std::string probe_on_host(uint32_t minor) {
    PluginCatalog catalog(host_of_minor(minor));
    catalog.load({kTargetApiFixtures / "target_api_1_0"});
    const auto* e = catalog.find("TargetApiProbe");
    REQUIRE(e);
    CHECK(kd::core::version_text(e->api_version) == "1.0.0");
    kd::testing::FakeHost host(minor);
    kd::testing::SnapshotBuilder b;
    b.as_api_minor(minor);
    b.node("n1");
    b.pod("default", "p").on("n1").with_status_reason("Evicted").container_status("app", 2, KD_CONTAINER_STATE_RUNNING);
    auto plugin = host.instantiate(e->descriptor, "{}", "test");
    plugin.balance(b.build());
    REQUIRE(host.logs().size() == 1);
    return host.logs()[0];
}

TEST_CASE("a plugin targeting API 1.0 claims 1.0.0 and loads on hosts of 1.0, 1.1, 1.2 and this one",
          "[loader][target-api]") {
    for (uint32_t minor : {0u, 1u, 2u, uint32_t(KD_API_VERSION_MINOR)}) {
        INFO("host minor " << minor);
        PluginCatalog c(host_of_minor(minor));
        c.load({kTargetApiFixtures / "target_api_1_0"});
        REQUIRE(c.find("TargetApiProbe"));
        CHECK(kd::core::version_text(c.find("TargetApiProbe")->api_version) == "1.0.0");
    }
}

TEST_CASE("the same source built for the SDK's own minor loads here and is refused by an older host",
          "[loader][target-api]") {
    PluginCatalog here;
    here.load({kTargetApiFixtures / "target_api_sdk"});
    CHECK(kd::core::version_text(here.find("TargetApiProbe")->api_version) ==
          kd_test::api_version(KD_API_VERSION_MAJOR, KD_API_VERSION_MINOR, 0));
    PluginCatalog older(host_of_minor(KD_API_VERSION_MINOR - 1));
    std::string msg;
    try {
        older.load({kTargetApiFixtures / "target_api_sdk"});
    } catch (const kd::core::Error& e) {
        msg = e.what();
    }
    CHECK_THAT(msg, Catch::Contains("plugin refused: built against plugin API " +
                                    kd_test::api_version(KD_API_VERSION_MAJOR, KD_API_VERSION_MINOR, 0) +
                                    ", newer than this kdesched's " +
                                    kd_test::api_version(KD_API_VERSION_MAJOR, KD_API_VERSION_MINOR - 1, 0)));
}

TEST_CASE("the host's version check: same major, plugin minor not newer than the host's", "[loader][target-api]") {
    PluginCatalog probe;
    probe.load({kTargetApiFixtures / "target_api_1_0"});
    kd_module m{sizeof(kd_module), {1, 0, 0}, "m", &probe.find("TargetApiProbe")->descriptor, 1};
    CHECK(kd::core::check_module(&m, host_of_minor(0)) == "");
    CHECK(kd::core::check_module(&m, host_of_minor(2)) == "");
    m.api_version = {1, 2, 0};
    CHECK_THAT(kd::core::check_module(&m, host_of_minor(0)), Catch::Contains("newer than this kdesched's 1.0.0"));
    CHECK(kd::core::check_module(&m, host_of_minor(2)) == "");
    m.api_version = {2, 0, 0};
    CHECK_THAT(kd::core::check_module(&m, host_of_minor(2)), Catch::Contains("major versions differ"));
}

TEST_CASE("a plugin targeting 1.0 on older hosts: the SDK's fallbacks answer for what each lacks",
          "[loader][target-api]") {
    const std::string refused =
        "status_write=failed:this host has no status writes (kd_host.update_object_status, "
        "API 1.2)";
    CHECK(probe_on_host(0) == "instance_id= revision=0 default/p:reason=,containers=0 " + refused);
    CHECK(probe_on_host(1) == "instance_id=test-instance revision=0 default/p:reason=,containers=0 " + refused);
    CHECK(probe_on_host(2) == "instance_id=test-instance revision=1 default/p:reason=,containers=0 status_write=ok:");
    CHECK(probe_on_host(KD_API_VERSION_MINOR) ==
          "instance_id=test-instance revision=1 default/p:reason=Evicted,containers=1 status_write=ok:");
}
