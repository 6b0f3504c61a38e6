// Cluster writes at the plugin boundary: who may write (least privilege), and what a write
// answers — the back end's code, message and new resourceVersion reach the plugin (API 1.2).
#include "config/configuration.hpp"
#include "loader/plugin_catalog.hpp"
#include "recording_backend.hpp"
#include "runtime/descheduler.hpp"

#include <kdesched/plugin.hpp>
#include <kdesched/testing.hpp>

#include <catch2/catch.hpp>

using namespace kd::core;

namespace {

std::vector<std::string> g_seen;  // what each plugin's writes answered, "<plugin> <code> <rv or message>"

void note(const char* plugin, const kd::WriteResult& r) {
    g_seen.push_back(std::string(plugin) + " " + kd::write_code_name(r.code) + " " +
                     (r.ok() ? r.resource_version : r.message));
}

const char* kJob = R"({"apiVersion":"scheduling.koordinator.sh/v1alpha1","kind":"PodMigrationJob",
  "metadata":{"name":"j","resourceVersion":"%s"},"spec":{"podRef":{"namespace":"ns1","name":"a"}}})";

std::string job(const char* rv) {
    char buf[256];
    std::snprintf(buf, sizeof buf, kJob, rv);
    return buf;
}

// A balance plugin that tries to write to the cluster itself instead of asking for evictions.
class SneakyBalance {
public:
    static constexpr const char* kName = "SneakyBalance";
    static constexpr const char* kVersion = "1.0.0";
    SneakyBalance(kd::Host&, kd::NoArgs) {}
    void balance(kd::Cycle& c) {
        auto pod = *c.snapshot().find_pod("ns1", "a");
        note(kName, c.create_object(job("")));
        note(kName, c.evict_pod(pod, "sneaky"));
        note(kName, c.annotate_pod(pod, "k", "v"));
        c.record_event("Pod", "ns1", "a", "Normal", "Sneaky", "Evicting", "not allowed");
        c.evict(pod, "asked properly");  // the way a balance plugin evicts
    }
};

// The profile's evict plugin: writes and looks at the answers.
class WritingEvict {
public:
    static constexpr const char* kName = "WritingEvict";
    static constexpr const char* kVersion = "1.0.0";
    WritingEvict(kd::Host&, kd::NoArgs) {}
    kd::EvictOutcome evict(kd::Cycle& c, const kd::Pod& pod, const kd::EvictRequest&) {
        kd::WriteResult created = c.create_object(job(""));
        note(kName, created);
        note(kName, c.update_object(job(created.resource_version.c_str())));
        note(kName, c.update_object_status(job("stale")));
        note(kName, c.evict_pod(pod, "moving it"));
        c.record_event("Pod", "ns1", "a", "Normal", "Evicting", "Evicting", "fine");
        return kd::EvictOutcome::accepted();
    }
};

// Not the evict plugin, but a controller with periodic work: it may write.
class Controller {
public:
    static constexpr const char* kName = "Controller";
    static constexpr const char* kVersion = "1.0.0";
    Controller(kd::Host&, kd::NoArgs) {}
    kd::Verdict filter(kd::Cycle&, const kd::Pod&) { return kd::Verdict::allow(); }
    kd::Verdict pre_eviction_filter(kd::Cycle&, const kd::Pod&) { return kd::Verdict::allow(); }
    int64_t tick(kd::Cycle& c) {
        note(kName, c.delete_object("Reservation", "", "r1"));
        return 0;
    }
};

const char* kProfile = R"(apiVersion: descheduler/v1alpha2
kind: DeschedulerConfiguration
profiles:
- name: p
  plugins:
    balance: {enabled: [{name: SneakyBalance}]}
    evict: {disabled: [{name: "*"}], enabled: [{name: WritingEvict}]}
    filter: {disabled: [{name: "*"}], enabled: [{name: Controller}]}
)";

}  // namespace

TEST_CASE("only the evict plugin and plugins with periodic work write — answers carry code and resourceVersion",
          "[runtime][writes]") {
    g_seen.clear();
    PluginCatalog catalog;
    catalog.add_in_process(kd::module<SneakyBalance, WritingEvict, Controller>("writes-test"));
    RecordingBackend backend;
    backend.answer = [&](const std::string& line) {
        if (line.find("\"resourceVersion\":\"stale\"") != std::string::npos)
            return WriteResult::failure(KD_WRITE_CONFLICT, "the object has been modified");
        return WriteResult::success("rv-" + std::to_string(backend.writes.size()));
    };
    Descheduler d(parse_configuration(kProfile, "writes.yaml"), catalog, &backend, nullptr);
    kd::testing::SnapshotBuilder b;
    b.node("n1");
    b.node("n2");
    b.pod("ns1", "a").on("n1");
    REQUIRE_FALSE(d.run_cycle(*b.build()));
    d.tick(*b.build());

    const std::string refused =
        "SneakyBalance forbidden plugin \"SneakyBalance\" may not write to the cluster: only the profile's evict "
        "plugin "
        "(WritingEvict) and plugins with periodic work do (ask for evictions with kd_host.evict)";
    CHECK(g_seen == std::vector<std::string>{refused, refused, refused, "WritingEvict ok rv-1", "WritingEvict ok rv-2",
                                             "WritingEvict conflict the object has been modified",
                                             "WritingEvict ok rv-4", "Controller ok rv-6"});
    // Nothing of the balance plugin's reached the back end, its Event neither.
    CHECK(backend.writes.size() == 6);
    CHECK(backend.writes[0].rfind("create ", 0) == 0);
    CHECK(backend.writes[1].find("\"resourceVersion\":\"rv-1\"") != std::string::npos);
    CHECK(backend.writes[4] == "event Pod a Evicting");
    CHECK(backend.writes[5] == "delete Reservation /r1");
    CHECK(backend.evicted == std::vector<std::string>{"ns1/a"});
}
