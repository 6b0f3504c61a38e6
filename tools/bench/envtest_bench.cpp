#include "envtest_bench.hpp"

#include "process_figures.hpp"

#include "cluster/kind_table.hpp"

#include "api_loader.hpp"
#include "crd_installer.hpp"
#include "envtest.hpp"
#include "generate/cluster_generator.hpp"
#include "list_transfer.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

namespace kd::tools {

namespace {

// Every LIST the daemon starts with, at once (one connection each, as its reflectors do),
// protobuf where the server serves it when `protobuf`: the server's side of start-up, to set
// beside the daemon's start → first cycle.
Transfer list_every_kind(const kd_test::Envtest& server, bool protobuf) {
    std::vector<std::thread> threads;
    std::vector<Transfer> got(core::kKindTable.size());
    std::vector<std::string> failures(core::kKindTable.size());
    auto t0 = Clock::now();
    for (size_t i = 0; i < core::kKindTable.size(); ++i) {
        const core::KindInfo& k = core::kKindTable[i];
        if (!k.listed) continue;
        std::string path = k.group.empty() ? fmt::format("/api/{}/{}", k.version, k.plural)
                                           : fmt::format("/apis/{}/{}/{}", k.group, k.version, k.plural);
        const char* accept = protobuf && !k.custom ? kProtobuf : kJson;
        threads.emplace_back([&, i, path, accept] {
            try {
                got[i] = list_transfer(*server.client(), path, accept);
            } catch (const std::exception& e) {
                failures[i] = e.what();
            }
        });
    }
    for (auto& t : threads) t.join();
    for (const auto& f : failures)
        if (!f.empty()) throw std::runtime_error("LIST: " + f);
    Transfer all{0, seconds_since(t0)};
    for (const auto& t : got) all.mb += t.mb;
    return all;
}

}  // namespace

int run_envtest_bench(const EnvtestBenchOptions& o) {
    kd_test::Envtest server(o.envtest_dir);
    auto client = server.client();  // the loader plays the cluster's controllers
    kd_test::ApiLoader loader(*client);
    if (!o.crds_dir.empty() && std::filesystem::is_directory(o.crds_dir)) kd_test::install_crds(loader, o.crds_dir);
    // The leader-election Lease's namespace (Koordinator's).
    loader.request("POST", "/api/v1/namespaces",
                   R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"koordinator-system"}})", {201, 409});

    std::stringstream generated;
    std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    generate_cluster(generated, {o.nodes, o.pods, 1, o.hot_share, false, stamp});
    rapidjson::Document doc;
    doc.Parse(generated.str().c_str());
    auto& a = doc.GetAllocator();
    // Everything but pods first (owners before what they own), then pods from several clients —
    // each with a document of its own: a RapidJSON allocator is not thread-safe, and the loader
    // edits the objects it sends.
    rapidjson::Value others(rapidjson::kArrayType);
    std::vector<std::unique_ptr<rapidjson::Document>> pods;
    for (int i = 0; i < std::max(1, o.loaders); ++i) {
        pods.push_back(std::make_unique<rapidjson::Document>());
        pods.back()->SetArray();
    }
    size_t n = 0;
    for (auto& item : doc["items"].GetArray()) {
        if (std::string(item["kind"].GetString()) == "Pod") {
            rapidjson::Document& mine = *pods[n++ % pods.size()];
            mine.PushBack(rapidjson::Value(item, mine.GetAllocator()), mine.GetAllocator());
        } else {
            others.PushBack(item, a);
        }
    }
    auto t_load = Clock::now();
    loader.load(others, a);
    std::vector<std::thread> threads;
    std::vector<std::string> failures(pods.size());
    for (size_t i = 0; i < pods.size(); ++i)
        threads.emplace_back([&, i] {
            try {
                kd_test::ApiLoader mine = loader;  // with the owners' new UIDs
                mine.load(*pods[i], pods[i]->GetAllocator());
            } catch (const std::exception& e) {
                failures[i] = e.what();
            }
        });
    for (auto& t : threads) t.join();
    for (const auto& f : failures)
        if (!f.empty()) throw std::runtime_error("loading pods: " + f);
    std::cout << fmt::format("real kube-apiserver ({}) loaded with {} nodes and {} pods in {:.0f} s\n", o.envtest_dir,
                             o.nodes, n, seconds_since(t_load));

    for (const char* accept : {kJson, kProtobuf}) {
        const bool json = std::string(accept) == kJson;
        Transfer t = list_transfer(*client, "/api/v1/pods", accept, json ? std::string() : o.save_pod_list);
        std::cout << fmt::format("pod LIST ({:8}), received and dropped: {:.0f} MB in {:.1f} s ({:.0f} MB/s)\n",
                                 json ? "JSON" : "protobuf", t.mb, t.seconds, t.mb / t.seconds);
    }

    for (bool protobuf : {false, true}) {
        Transfer t = list_every_kind(server, protobuf);
        std::cout << fmt::format(
            "every kind's LIST at once ({:8}), received and dropped: {:.0f} MB in {:.2f} s — the server's "
            "share of start-up\n",
            protobuf ? "protobuf" : "JSON", t.mb, t.seconds);
    }

    DaemonRun run = o.daemon;
    run.kubeconfig = server.kubeconfig();
    run.seconds = 0;
    run.accept = kJson;
    if (int rc = measure_daemon(run)) return rc;
    run.accept = kProtobuf;
    return measure_daemon(run);
}

}  // namespace kd::tools
