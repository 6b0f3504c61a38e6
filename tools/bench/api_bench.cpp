#include "api_bench.hpp"

#include "cluster/cluster_model.hpp"
#include "daemon_bench.hpp"
#include "fake_apiserver.hpp"
#include "generate/cluster_generator.hpp"
#include "kube/watch/cluster_sync.hpp"
#include "kube/watch/json_stream.hpp"
#include "list_transfer.hpp"
#include "process_figures.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

namespace kd::tools {

namespace {

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

// A client reading every kind into a model, asking for `accept`.
struct LiveSync {
    core::kube::ApiClient client;
    core::ClusterModel model;
    core::kube::ModelFeeder feeder{model};
    core::kube::ClusterSync sync{client};
    LiveSync(const core::kube::Connection& connection, const char* accept)
        : client(connection, [&] {
              core::kube::ClientOptions c;
              c.qps = 0;  // the client-side rate limit would measure itself, not the client
              c.accept = accept;
              return c;
          }()) {}
};

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

std::string now_rfc3339() {
    std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

}  // namespace

int run_api_bench(const ApiBenchOptions& o) {
    auto file = std::filesystem::temp_directory_path() /
                fmt::format("kdesched-bench-api-{}-{}-{}.json", o.nodes, o.pods, ::getpid());
    {
        std::ofstream out(file, std::ios::binary);
        generate_cluster(out, {o.nodes, o.pods, 1, o.hot_share, true, now_rfc3339()});
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
    // The server encodes each object in protobuf once, on the first protobuf LIST: done here, so
    // that what is measured is serving, not encoding (a real server keeps its objects encoded).
    core::kube::ClientOptions transfer_options;
    transfer_options.qps = 0;
    transfer_options.stream_timeout = std::chrono::minutes(30);  // the first protobuf LIST waits for the encoding
    core::kube::ApiClient transfer_client(connection, transfer_options);
    {
        auto t_encode = Clock::now();
        list_transfer(transfer_client, "/api/v1/pods", kProtobuf);
        std::cout << fmt::format("test API server encoded its objects in protobuf in {:.0f} s\n",
                                 seconds_since(t_encode));
    }

    // 1. Every kind listed and decoded into the model, the watches open: JSON, then protobuf.
    std::unique_ptr<LiveSync> live;
    // (JSON last: its sync takes the watch burst below, which the test server serves far faster in JSON
    // than it re-encodes in protobuf — a figure of the client, not of the test server.)
    for (const char* accept : {kProtobuf, kJson}) {
        live.reset();
        const bool protobuf = accept == kProtobuf;
        // The test server keeps the last body of each LIST: built here, so that what is measured is
        // the client (a real server serves from its watch cache; this one builds a list in Python).
        for (const char* path : {"/api/v1/nodes", "/apis/slo.koordinator.sh/v1alpha1/nodemetrics",
                                 "/apis/apps/v1/replicasets", "/apis/apps/v1/deployments", "/api/v1/pods"})
            list_transfer(transfer_client, path, accept);
        live = std::make_unique<LiveSync>(connection, accept);
        CpuClock cpu;
        ThreadCpuClock control;  // this thread applies what the network threads receive and split
        auto t_list = Clock::now();
        live->sync.start();
        if (!apply_until(
                live->sync, live->feeder, [&] { return live->sync.not_synced(live->feeder).empty(); },
                std::chrono::seconds(600))) {
            std::cerr << "the kinds did not sync within 10 minutes:\n";
            for (const auto& k : live->sync.not_synced(live->feeder)) std::cerr << "  " << k << "\n";
            return 1;
        }
        double list_s = seconds_since(t_list), list_cpu = cpu.seconds(), list_control = control.seconds();
        double list_mb = double(received_bytes(live->sync)) / 1e6;
        // The pod LIST alone, received and dropped: what the server and the network take.
        Transfer pods_alone =
            list_transfer(transfer_client, "/api/v1/pods", accept, protobuf ? o.save_pod_list : std::string());
        std::cout << fmt::format(
            "LIST + decode ({}): {:.0f} MB of response bodies, {} pods in the model in {:.2f} s: {:.0f} MB/s end to "
            "end (the pod LIST alone, {:.0f} MB received and dropped: {:.2f} s, so the client adds {:.0f}%); "
            "decode into the model on the control thread {:.2f} s: {:.0f} MB/s; client CPU {:.2f} s ({:.2f} s "
            "receiving and splitting on the network threads)\n",
            protobuf ? "protobuf" : "JSON", list_mb, live->model.pod_count(), list_s, list_mb / list_s, pods_alone.mb,
            pods_alone.seconds, 100.0 * (list_s - pods_alone.seconds) / pods_alone.seconds, list_control,
            list_mb / list_control, list_cpu, list_cpu - list_control);
    }
    std::cout << fmt::format("RSS after sync: {:.0f} MB (whole process; {:.0f} MB at start, before the client)\n",
                             double(resident_bytes()) / 1e6, double(rss_start) / 1e6);
    auto& sync = live->sync;
    auto& feeder = live->feeder;
    CpuClock cpu;
    ThreadCpuClock control;

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
    live.reset();
    if (o.daemon_binary.empty()) return 0;
    // koordlet: every NodeMetric reported now, so LowNodeLoad sees fresh usage.
    server.control("POST", "touch",
                   fmt::format(R"({{"kind":"NodeMetric","apiVersion":"slo.koordinator.sh/v1alpha1",)"
                               R"("count":1000000,"update_time":"{}"}})",
                               now_rfc3339()));
    DaemonRun run{o.daemon_binary, o.default_profile, o.plugin_dir, "", kProtobuf, o.daemon_seconds, "warn"};
    auto dir = std::filesystem::temp_directory_path() / fmt::format("kdesched-bench-kubeconfig-{}", ::getpid());
    std::ofstream(dir) << "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: " << server.url()
                       << "\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: x\n  context: {cluster: c, "
                          "user: u}\ncurrent-context: x\n";
    run.kubeconfig = dir.string();
    int rc = measure_daemon(run);
    std::filesystem::remove(dir);
    return rc;
}

}  // namespace kd::tools
