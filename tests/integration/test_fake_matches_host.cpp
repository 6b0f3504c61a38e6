// The fake host a plugin author tests on decides as the real one: the guide's example balance
// plugin (examples/pods-per-node-cap), with DefaultEvictor's nodeFit on and the eviction limits
// set, evicts the same pods, in the same order, for the same reasons, on the SDK's FakeHost (the
// DefaultEvictor library loaded into it) and in `kdesched simulate` on the same cluster file.
#include "cluster/cluster_model.hpp"
#include "cluster/cluster_snapshot.hpp"
#include "cluster/decode/snapshot_files.hpp"
#include "run_command.hpp"
#include "simulator/simulation.hpp"
#include "temp_dir.hpp"

#include <kdesched/testing.hpp>

#include <rapidjson/document.h>
#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/writer.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kExample = KDESCHED_GUIDE_EXAMPLE_DIR;

void json_out(const rapidjson::Document& d, const fs::path& path) {
    std::ofstream out(path);
    rapidjson::OStreamWrapper os(out);
    rapidjson::Writer<rapidjson::OStreamWrapper> w(os);
    d.Accept(w);
}

// The example's profile with nodeFit on and a per-node limit, as YAML for `kdesched simulate`.
std::string profile_yaml(const std::string& plugin_args, uint32_t per_node) {
    return "apiVersion: descheduler/v1alpha2\n"
           "kind: DeschedulerConfiguration\n"
           "maxNoOfPodsToEvictPerNode: " +
           std::to_string(per_node) +
           "\n"
           "profiles:\n"
           "- name: cap\n"
           "  plugins:\n"
           "    balance: {enabled: [{name: PodsPerNodeCap}]}\n"
           "    evict: {disabled: [{name: \"*\"}], enabled: [{name: DefaultEvictor}]}\n"
           "    filter: {disabled: [{name: \"*\"}], enabled: [{name: DefaultEvictor}]}\n"
           "  pluginConfig:\n"
           "  - {name: PodsPerNodeCap, args: " +
           plugin_args +
           "}\n"
           "  - {name: DefaultEvictor, args: {nodeFit: true}}\n";
}

// The example's cluster, with node-a labelled disk=ssd and its youngest web pod (the first the
// plugin asks for) selecting that label: no other node takes it, so nodeFit must keep it.
fs::path pinned_cluster(const fs::path& dir) {
    std::ifstream in(kExample / "cluster.json");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    rapidjson::Document d;
    d.Parse(text.c_str());
    REQUIRE_FALSE(d.HasParseError());
    auto& a = d.GetAllocator();
    for (auto& item : d["items"].GetArray()) {
        std::string name = item["metadata"]["name"].GetString();
        if (name == "node-a") {
            auto& meta = item["metadata"];
            if (!meta.HasMember("labels")) meta.AddMember("labels", rapidjson::Value(rapidjson::kObjectType), a);
            meta["labels"].AddMember("disk", "ssd", a);
        }
        if (name == "web-6d8f7c9b4-t3v8z") {
            rapidjson::Value selector(rapidjson::kObjectType);
            selector.AddMember("disk", "ssd", a);
            item["spec"].AddMember("nodeSelector", selector, a);
        }
    }
    json_out(d, dir / "cluster.json");
    return dir / "cluster.json";
}

// "ns/name result" of every eviction request `kdesched simulate` made in its first cycle, in order.
std::vector<std::string> simulated(const fs::path& dir, const fs::path& cluster, const std::string& yaml) {
    std::ofstream(dir / "profile.yaml") << yaml;
    auto r = run_command(quote(KDESCHED_BINARY) + " simulate --cycles 1 --output json --no-default-plugin-dir" +
                         " --plugin-dir " + quote(KDESCHED_PLUGIN_DIR) + " --plugin-dir " +
                         quote(KDESCHED_GUIDE_EXAMPLE_PLUGIN_DIR) + " --config " +
                         quote((dir / "profile.yaml").string()) + " --cluster " + quote(cluster.string()));
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    rapidjson::Document d;
    d.Parse(r.output.c_str());
    REQUIRE_FALSE(d.HasParseError());
    std::vector<std::string> out;
    for (const auto& e : d["cycles"][0]["evictions"].GetArray())
        out.push_back(std::string(e["pod"].GetString()) + " " + e["result"].GetString());
    return out;
}

// The same on the fake host: the example and DefaultEvictor from their libraries, on a snapshot
// of the same file at the simulation's start time.
struct FakeRun {
    std::vector<std::string> requests;  // "ns/name result", as simulate's JSON has them
    std::vector<std::string> node_fit;  // pods DefaultEvictor refused at eviction
};
FakeRun faked(const fs::path& cluster, const std::string& plugin_args, uint32_t per_node) {
    kd::core::ClusterModel model;
    kd::core::load_cluster_files({cluster}, model);
    kd::core::ClusterSnapshot snapshot(model, kd::core::simulation_start_ms(model));

    kd::testing::PluginLibrary evictor_lib(std::string(KDESCHED_PLUGIN_DIR) + "/kdesched_defaultevictor.so");
    kd::testing::PluginLibrary example_lib(std::string(KDESCHED_GUIDE_EXAMPLE_PLUGIN_DIR) + "/pods_per_node_cap.so");
    kd::testing::FakeHost host;
    host.limits.per_node = per_node;
    auto evictor = host.instantiate(evictor_lib.descriptor("DefaultEvictor"), R"({"nodeFit": true})", "cap");
    host.add_filter_plugin(evictor);
    // JSON, as the host hands args to a plugin (the YAML flow maps above are JSON too).
    auto plugin = host.instantiate(example_lib.descriptor("PodsPerNodeCap"), plugin_args, "cap");
    plugin.balance(&snapshot.raw());
    FakeRun run;
    for (const auto& e : host.evictions()) {
        run.requests.push_back(e.pod + " " + kd::evict_code_name(e.outcome.code));
        if (e.outcome.code == KD_EVICT_FILTERED && e.outcome.plugin == "DefaultEvictor" &&
            e.outcome.reason == "NodeFit")
            run.node_fit.push_back(e.pod);
    }
    return run;
}

}  // namespace

TEST_CASE(
    "the fake host and kdesched simulate make the same requests with the same outcomes: the guide's example, "
    "nodeFit on, limits set",
    "[example][fake-host]") {
    kd_test::TempDir tmp("fake-matches-host");
    const fs::path cluster = pinned_cluster(tmp.path);
    for (uint32_t per_node : {1u, 10u}) {
        for (const std::string args :
             {R"({"maxPodsPerNode": 3, "namespaces": {"include": ["shop"]}})", R"({"maxPodsPerNode": 1})"}) {
            INFO("args " << args << ", maxNoOfPodsToEvictPerNode " << per_node);
            FakeRun fake = faked(cluster, args, per_node);
            std::vector<std::string> real = simulated(tmp.path, cluster, profile_yaml(args, per_node));
            CHECK(fake.requests == real);
            // nodeFit held for the plugin: the pinned pod was asked for and kept, a pod evicted instead.
            CHECK(fake.node_fit == std::vector<std::string>{"shop/web-6d8f7c9b4-t3v8z"});
            CHECK(std::count(real.begin(), real.end(), "shop/web-6d8f7c9b4-t3v8z filtered") == 1);
            CHECK(std::count_if(real.begin(), real.end(), [](const std::string& r) {
                      return r.size() > 9 && r.compare(r.size() - 9, 9, " accepted") == 0;
                  }) >= 1);
        }
    }
}
