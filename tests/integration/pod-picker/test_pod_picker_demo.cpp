// The Pod Picker demo end to end: the example picker service (python3) on a port of its own, the
// real kdesched binary simulating examples/clusters/pod-picker.json with its profile. The
// picker's choice differs from LowNodeLoad's built-in order, and every failure falls back to it.
#include "picker_service.hpp"
#include "run_command.hpp"

#include <rapidjson/document.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace {

const std::string kExamples = KDESCHED_EXAMPLES_DIR;
const std::string kPickerDir = KDESCHED_POD_PICKER_DIR;
const std::string kBuiltIn = "jobs/worker-6f7d9c8b5-w5n2c";  // usage closest above node-1's excess
const std::string kIdle = "jobs/worker-6f7d9c8b5-8bq4t";     // no session, says the picker

std::string read_file(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A scratch directory for one test, removed afterwards.
struct Scratch {
    fs::path dir = fs::temp_directory_path() / ("kdesched-picker-demo-" + std::to_string(::getpid()));
    Scratch() {
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~Scratch() { fs::remove_all(dir); }
};

// The example profile with the picker on `port` instead of the documented 18080.
std::string profile_on_port(const Scratch& s, uint16_t port, const std::string& token = "demo-token") {
    std::string text = read_file(kExamples + "/pod-picker.profile.yaml");
    auto replace = [&](const std::string& from, const std::string& to) {
        size_t at = text.find(from);
        REQUIRE(at != std::string::npos);
        text.replace(at, from.size(), to);
    };
    replace("port: 18080", "port: " + std::to_string(port));
    replace("value: Bearer demo-token", "value: Bearer " + token);
    fs::path out = s.dir / "profile.yaml";
    std::ofstream(out) << text;
    return out.string();
}

struct Simulation {
    rapidjson::Document report;
    std::string log;  // kdesched's log lines
};

Simulation simulate(const std::string& profile) {
    auto r = run_command(quote(KDESCHED_BINARY) + " simulate --output json --cycles 2 --config " + quote(profile) +
                         " --cluster " + quote(kExamples + "/pod-picker.json"));
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    // kdesched logs on stdout while the cycles run; the report comes last.
    size_t report = r.output.rfind("{\n", 0) == 0 ? 0 : r.output.find("\n{\n");
    REQUIRE(report != std::string::npos);
    Simulation sim;
    sim.log = r.output.substr(0, report);
    sim.report.Parse(r.output.c_str() + report);
    REQUIRE_FALSE(sim.report.HasParseError());
    return sim;
}

// "pod" of every eviction of `cycle` (0-based).
std::vector<std::string> evicted(const Simulation& sim, unsigned cycle) {
    std::vector<std::string> out;
    for (const auto& e : sim.report["cycles"][cycle]["evictions"].GetArray()) {
        CHECK(std::string(e["result"].GetString()) == "accepted");
        CHECK(std::string(e["plugin"].GetString()) == "LowNodeLoad");
        out.emplace_back(e["pod"].GetString());
    }
    return out;
}

}  // namespace

TEST_CASE("pod picker demo: the picker's choice leaves node-1, not the built-in one", "[picker][simulate]") {
    Scratch s;
    PickerService picker(kPickerDir + "/pod_picker.py",
                         {"--sessions", kPickerDir + "/sessions.json", "--token", "demo-token"},
                         (s.dir / "picker.log").string());
    Simulation sim = simulate(profile_on_port(s, picker.port()));
    INFO(sim.log << picker.log());
    CHECK(evicted(sim, 0) == std::vector<std::string>{kIdle});
    CHECK(evicted(sim, 1).empty());  // node-1 is at 61 % after it
    const auto& moves = sim.report["cycles"][0]["moves"];
    REQUIRE(moves.Size() == 1);
    CHECK(std::string(moves[0]["from"].GetString()) == "node-1");
    // The picker was asked once, for 1 pod, with the candidates in the built-in order.
    CHECK(picker.log().find("asked for 1 of ['jobs/worker-6f7d9c8b5-w5n2c', 'jobs/worker-6f7d9c8b5-k3m7v', "
                            "'jobs/worker-6f7d9c8b5-8bq4t', 'jobs/worker-6f7d9c8b5-2xk9p']: chosen "
                            "['jobs/worker-6f7d9c8b5-8bq4t'], tied []") != std::string::npos);
    CHECK(sim.log.find("Pod picker failed") == std::string::npos);
    // The request is counted in the run's metrics.
    const auto& metric = sim.report["summary"]["podPickerMetric"];
    REQUIRE(metric.Size() == 1);
    CHECK(std::string(metric[0]["plugin"].GetString()) == "LowNodeLoad");
    CHECK(std::string(metric[0]["result"].GetString()) == "success");
    CHECK(metric[0]["value"].GetUint() == 1);
}

TEST_CASE("pod picker demo: without an answer the built-in order decides, and the reason is logged",
          "[picker][simulate]") {
    Scratch s;
    SECTION("nothing listens on the port") {
        Simulation sim = simulate(profile_on_port(s, closed_port()));
        CHECK(evicted(sim, 0) == std::vector<std::string>{kBuiltIn});
        CHECK(sim.log.find("Pod picker failed, evicting in the built-in order node=\"node-1\" reason=\"Pod Picker "
                           "http://127.0.0.1:") != std::string::npos);
        CHECK(sim.log.find("no connection: ") != std::string::npos);
        const auto& metric = sim.report["summary"]["podPickerMetric"];
        REQUIRE(metric.Size() == 1);
        CHECK(std::string(metric[0]["result"].GetString()) != "success");
    }
    SECTION("the picker refuses the token: HTTP 401") {
        PickerService picker(kPickerDir + "/pod_picker.py",
                             {"--sessions", kPickerDir + "/sessions.json", "--token", "demo-token"},
                             (s.dir / "picker.log").string());
        Simulation sim = simulate(profile_on_port(s, picker.port(), "wrong-token"));
        CHECK(evicted(sim, 0) == std::vector<std::string>{kBuiltIn});
        CHECK(sim.log.find("answered HTTP 401 Unauthorized (check podPicker.http.path and headers") !=
              std::string::npos);
    }
}
