// Against a real kube-apiserver (../shared/envtest, when KDESCHED_ENVTEST names it; skipped
// otherwise): Koordinator's CRDs installed, the hotspot example's objects created, then
// `kdesched snapshot` and `kdesched simulate --kubeconfig` read them exactly — the same model and
// the same decisions as the snapshot file — and watch changes reach the model; in protobuf (what
// kdesched asks for first for built-in kinds) exactly as in JSON.
#include "api_loader.hpp"
#include "cluster/cluster_model.hpp"
#include "cluster/decode/snapshot_files.hpp"
#include "crd_installer.hpp"
#include "envtest.hpp"
#include "kube/watch/cluster_sync.hpp"
#include "run_command.hpp"
#include "server_drafts.hpp"

#include <kdesched/view.hpp>

#include <rapidjson/document.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <thread>

using namespace kd::core;

namespace {

const std::string kBin = KDESCHED_BINARY;
const std::string kHotspot = std::string(KDESCHED_EXAMPLES_DIR) + "/hotspot.json";

// The envtest server with the CRDs and the hotspot example loaded (once per program).
kd_test::Envtest* loaded(const std::string& not_checked) {
    kd_test::Envtest* env = kd_test::Envtest::get(not_checked);
    static std::optional<std::string> failure;  // of the one load: every test reports it
    if (env && !failure) {
        failure = "";
        try {
            auto client = env->client();
            kd_test::ApiLoader loader(*client);
            kd_test::install_crds(loader, kd_test::Envtest::crds());
            loader.load_file(kHotspot);
        } catch (const std::exception& e) {
            failure = e.what();
        }
    }
    if (env && !failure->empty()) FAIL("loading the hotspot example into the API server: " << *failure);
    return env;
}

// What a model holds that kdesched decides on, as sorted text lines.
std::vector<std::string> facts(const ClusterModel& m) {
    std::vector<std::string> out;
    for (const kd_pod* raw : m.pods()) {
        kd::Pod p(raw);
        std::string line = "pod " + p.key() + " on " + std::string(p.node_name()) + " phase " +
                           std::to_string(p.phase()) + " qos " + std::to_string(p.qos_class()) + " ready " +
                           std::to_string(p.ready()) + " cpu " + std::to_string(p.requests().milli("cpu")) + " mem " +
                           std::to_string(p.requests().milli("memory"));
        if (auto c = p.controller()) line += " owner " + std::string(c->kind()) + "/" + std::string(c->name());
        out.push_back(line);
    }
    for (const kd_node* raw : m.nodes()) {
        kd::Node n(raw);
        std::string line = "node " + std::string(n.name()) + " cpu " + std::to_string(n.allocatable().milli("cpu")) +
                           " taints " + std::to_string(n.taints().size());
        out.push_back(line);
        if (const kd_node_metric* metric = m.node_metric(n.name())) {
            kd::NodeMetric nm(metric);
            out.push_back("metric " + std::string(n.name()) + " pods " + std::to_string(nm.pods().size()) +
                          " system cpu " + std::to_string(nm.system_usage().milli("cpu")));
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

rapidjson::Document simulate(const std::string& source) {
    auto r = run_command(quote(kBin) + " simulate --output json --cycles 8 " + source);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    rapidjson::Document d;
    d.Parse(r.output.substr(r.output.find('{')).c_str());
    REQUIRE_FALSE(d.HasParseError());
    return d;
}

// The decisions of a simulation, without names the clock makes (job names, replacement pods).
std::vector<std::string> decisions(const rapidjson::Document& d) {
    std::vector<std::string> out;
    for (const auto& c : d["cycles"].GetArray()) {
        std::string n = std::to_string(c["cycle"].GetUint64());
        for (const auto& node : c["nodes"].GetArray())
            out.push_back(n + " node " + std::string(node["name"].GetString()) + " " +
                          (node["usage"]["cpu"].IsNull() ? "-" : std::to_string(node["usage"]["cpu"].GetDouble())));
        for (const auto& e : c["evictions"].GetArray())
            out.push_back(n + " evict " + std::string(e["pod"].GetString()) + " " + e["result"].GetString());
        for (const auto& m : c["moves"].GetArray())
            out.push_back(n + " move " + std::string(m["pod"].GetString()) + " " + m["from"].GetString() + "->" +
                          m["to"].GetString());
        for (const auto& j : c["migrationJobs"].GetArray())
            out.push_back(n + " job " + std::string(j["pod"].GetString()) + " " + j["phase"].GetString());
    }
    return out;
}

}  // namespace

TEST_CASE("kdesched snapshot reads a real API server's objects exactly", "[envtest]") {
    kd_test::Envtest* env = loaded("`kdesched snapshot` on a real API server");
    if (!env) return;
    std::string out = env->work() + "/snapshot.json";
    auto r = run_command(quote(kBin) + " snapshot --kubeconfig " + quote(env->kubeconfig()) + " -o " + quote(out));
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("17 Pod"));
    ClusterModel from_server, from_file;
    load_cluster_files({out}, from_server);
    load_cluster_files({kHotspot}, from_file);
    CHECK(facts(from_server) == facts(from_file));
}

TEST_CASE("simulate --kubeconfig decides on the live cluster as on its snapshot file", "[envtest]") {
    kd_test::Envtest* env = loaded("`kdesched simulate --kubeconfig` on a real API server");
    if (!env) return;
    auto live = simulate("--kubeconfig " + quote(env->kubeconfig()));
    auto file = simulate("--cluster " + quote(kHotspot));
    CHECK_THAT(std::string(live["config"].GetString()), Catch::Contains("on the cluster at https://127.0.0.1:"));
    CHECK(decisions(live) == decisions(file));
}

TEST_CASE("a protobuf LIST gives exactly the objects of a JSON LIST", "[envtest]") {
    kd_test::Envtest* env = loaded("protobuf vs JSON on a real API server");
    if (!env) return;
    auto read_all = [&](const std::string& accept) {
        auto client = env->client(accept);
        kd_test::ServerDrafts drafts = kd_test::read_server_drafts(*client);
        REQUIRE(drafts.failures.empty());
        CHECK(drafts.problems.empty());
        return drafts;
    };
    auto json = read_all("application/json");
    auto pb = read_all("application/vnd.kubernetes.protobuf,application/json");
    REQUIRE(json.texts.size() > 30);
    CHECK(pb.texts == json.texts);
    // Built-in kinds came as protobuf, Koordinator's CRDs as JSON.
    CHECK(pb.encodings.at("Pod") == kube::Encoding::protobuf);
    CHECK(pb.encodings.at("Node") == kube::Encoding::protobuf);
    CHECK(pb.encodings.at("NodeMetric") == kube::Encoding::json);
    CHECK(json.encodings.at("Pod") == kube::Encoding::json);
}

TEST_CASE("watched changes reach the model: added, modified, deleted", "[envtest]") {
    kd_test::Envtest* env = loaded("watching a real API server");
    if (!env) return;
    const std::string accept = GENERATE(as<std::string>{}, "application/json", "application/vnd.kubernetes.protobuf");
    INFO("Accept: " << accept);
    auto client = env->client(accept);
    kube::ReflectorOptions options;
    options.watch_timeout_min = options.watch_timeout_max = std::chrono::seconds(30);
    kube::ClusterSync sync(*client, options);
    ClusterModel model;
    kube::ModelFeeder feeder(model);
    sync.start();
    auto until = [&](const std::function<bool()>& done) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (std::chrono::steady_clock::now() < deadline) {
            sync.apply(feeder);
            if (done()) return true;
            sync.wait(std::chrono::steady_clock::now() + std::chrono::milliseconds(100));
        }
        return false;
    };
    REQUIRE(until([&] { return sync.not_synced(feeder).empty(); }));
    CHECK(model.pod_count() == 17);
    kd_test::ApiLoader api(*client);
    api.request(
        "POST", "/api/v1/namespaces/shop/pods",
        R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"watched","namespace":"shop","labels":{"v":"1"}},)"
        R"("spec":{"nodeName":"node-2","containers":[{"name":"c","image":"x"}]}})");
    REQUIRE(until([&] { return model.pod_by_name("shop", "watched") != nullptr; }));
    api.request("PATCH", "/api/v1/namespaces/shop/pods/watched", R"({"metadata":{"labels":{"v":"2"}}})");
    REQUIRE(until([&] {
        const kd_pod* p = model.pod_by_name("shop", "watched");
        return p && kd::Pod(p).labels().get("v") == "2";
    }));
    api.request("DELETE", "/api/v1/namespaces/shop/pods/watched?gracePeriodSeconds=0", "");
    REQUIRE(until([&] { return model.pod_by_name("shop", "watched") == nullptr; }));
    sync.stop();
    CHECK(feeder.counters(ObjectKind::pod).events >= 3);
}
