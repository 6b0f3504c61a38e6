#include "api_bench.hpp"

#include "cluster/cluster_model.hpp"
#include "fake_apiserver.hpp"
#include "generate/cluster_generator.hpp"
#include "kube/cluster_sync.hpp"
#include "kube/json_stream.hpp"
#include "process_figures.hpp"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace kd::tools {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// Loads a generated List into the server in batches of ~16 MB; returns the pods loaded.
uint64_t load_server(kd_test::FakeApiServer& server, const std::filesystem::path& file) {
    std::string batch;
    uint64_t pods = 0;
    auto flush = [&] {
        if (batch.empty()) return;
        server.load("[" + batch + "]");
        batch.clear();
    };
    core::kube::ListSplitter splitter([&](std::string_view item) {
        if (item.find("\"kind\":\"Pod\"") != std::string_view::npos) ++pods;
        if (!batch.empty()) batch += ',';
        batch.append(item);
        if (batch.size() > (16u << 20)) flush();
    });
    std::ifstream in(file, std::ios::binary);
    std::string chunk(4u << 20, '\0');
    while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0)
        splitter.feed(std::string_view(chunk.data(), static_cast<size_t>(in.gcount())));
    flush();
    return pods;
}

uint64_t received_bytes(const core::kube::ClusterSync& sync) {
    uint64_t bytes = 0;
    for (const auto& r : sync.reflectors()) bytes += r->stats().bytes.load();
    return bytes;
}

// Applies what arrives until `done` holds; false after `limit`.
template <class Done>
bool apply_until(core::kube::ClusterSync& sync, core::kube::ModelFeeder& feeder, Done done,
                 std::chrono::seconds limit) {
    auto deadline = Clock::now() + limit;
    while (!done()) {
        if (Clock::now() > deadline) return false;
        sync.apply(feeder);
        if (!done()) sync.wait(Clock::now() + std::chrono::milliseconds(20));
    }
    return true;
}

}  // namespace

int run_api_bench(const ApiBenchOptions& o) {
    auto file = std::filesystem::temp_directory_path() /
                fmt::format("kdesched-bench-api-{}-{}-{}.json", o.nodes, o.pods, ::getpid());
    {
        std::ofstream out(file, std::ios::binary);
        generate_cluster(out, {o.nodes, o.pods, 1, o.hot_share, true});
    }
    double file_mb = double(std::filesystem::file_size(file)) / 1e6;
    kd_test::FakeApiServer server(
        kd_test::FakeApiServer::Options{{"--history", std::to_string(2 * o.events + 1000)}, false});
    // A v1.32 server answers resourceVersion=0 from its watch cache, whole, whatever the limit.
    server.settings(R"({"rv0_ignores_limit": true})");
    auto t_load = Clock::now();
    uint64_t pods = load_server(server, file);
    std::filesystem::remove(file);
    std::cout << fmt::format("test API server {} loaded: {:.0f} MB of objects, {} pods (~{:.1f} KB a pod), {:.0f} s\n",
                             server.url(), file_mb, pods, file_mb * 1e3 / double(std::max<uint64_t>(pods, 1)),
                             seconds_since(t_load));

    long rss_start = resident_bytes();
    core::kube::Connection connection;
    connection.server = server.url();
    connection.source = "benchmark";
    core::kube::ClientOptions client_options;
    client_options.qps = 0;  // the client-side rate limit would measure itself, not the client
    core::kube::ApiClient client(connection, client_options);
    core::ClusterModel model;
    core::kube::ModelFeeder feeder(model);
    core::kube::ClusterSync sync(client);

    // 1. Every kind listed and decoded into the model, the watches open.
    CpuClock cpu;
    ThreadCpuClock control;  // this thread applies what the network threads receive and split
    auto t_list = Clock::now();
    sync.start();
    if (!apply_until(
            sync, feeder, [&] { return sync.not_synced(feeder).empty(); }, std::chrono::seconds(600))) {
        std::cerr << "the kinds did not sync within 10 minutes:\n";
        for (const auto& k : sync.not_synced(feeder)) std::cerr << "  " << k << "\n";
        return 1;
    }
    double list_s = seconds_since(t_list), list_cpu = cpu.seconds(), list_control = control.seconds();
    double list_mb = double(received_bytes(sync)) / 1e6;
    long rss_synced = resident_bytes();
    std::cout << fmt::format(
        "LIST + decode: {:.0f} MB of response bodies, {} pods in the model in {:.2f} s: {:.0f} MB/s end to end; "
        "client CPU {:.2f} s: {:.0f} MB per CPU-second (decode into the model on the control thread {:.2f} s: {:.0f} "
        "MB/s; receive and split on the network threads {:.2f} s)\n",
        list_mb, model.pod_count(), list_s, list_mb / list_s, list_cpu, list_mb / list_cpu, list_control,
        list_mb / list_control, list_cpu - list_control);
    std::cout << fmt::format("RSS after sync: {:.0f} MB (whole process; {:.0f} MB at start, before the client)\n",
                             double(rss_synced) / 1e6, double(rss_start) / 1e6);

    // 2. A burst of pod MODIFIED events: made on the server before the watch sees the first.
    uint64_t before = feeder.counters(core::ObjectKind::pod).events;
    uint64_t bytes_before = received_bytes(sync);
    server.control("POST", "touch", fmt::format(R"({{"kind":"Pod","apiVersion":"v1","count":{}}})", o.events));
    cpu = CpuClock();
    control = ThreadCpuClock();
    auto t_watch = Clock::now();
    uint64_t want = before + std::min<uint64_t>(o.events, pods);
    if (!apply_until(
            sync, feeder, [&] { return feeder.counters(core::ObjectKind::pod).events >= want; },
            std::chrono::seconds(300))) {
        std::cerr << "the watch delivered " << feeder.counters(core::ObjectKind::pod).events - before << " of "
                  << want - before << " events within 5 minutes\n";
        return 1;
    }
    double watch_s = seconds_since(t_watch), watch_cpu = cpu.seconds(), watch_control = control.seconds();
    double events = double(want - before), watch_mb = double(received_bytes(sync) - bytes_before) / 1e6;
    std::cout << fmt::format(
        "watch: {:.0f} pod events ({:.0f} MB) applied to the model in {:.2f} s: {:.0f} events/s; client CPU "
        "{:.2f} s: {:.0f} events per CPU-second (applying on the control thread {:.2f} s: {:.0f} events/s)\n",
        events, watch_mb, watch_s, events / watch_s, watch_cpu, events / watch_cpu, watch_control,
        events / watch_control);
    std::cout << fmt::format("RSS after the burst: {:.0f} MB\n", double(resident_bytes()) / 1e6);
    sync.stop();
    return 0;
}

}  // namespace kd::tools
