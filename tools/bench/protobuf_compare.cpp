// kdesched-bench-protobuf BODY: kdesched's protobuf reader against libprotobuf on the same body — a
// pod LIST in the API server's protobuf (`kdesched-bench --api --save-pod-list BODY`, or curl with
// Accept: application/vnd.kubernetes.protobuf). Prints MB/s of body for:
//   kdesched: split the List + decode each pod into drafts (the wire reader and the ObjectDecoder)
//   kdesched: the same into the cluster model (what a reflector's LIST costs the control thread)
//   libprotobuf: ParseFromArray of a PodList declaring only the fields kdesched reads, on an arena
//                (parsing alone: the drafts would still have to be filled from it)
#include "cluster/cluster_model.hpp"
#include "cluster/decode/api_objects.hpp"
#include "cluster/decode/protobuf_wire.hpp"
#include "kube/watch/protobuf_stream.hpp"

#include "k8s_pod_subset.pb.h"

#include <fmt/format.h>
#include <google/protobuf/arena.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

namespace {

using Clock = std::chrono::steady_clock;

// Counts drafts, keeps nothing.
struct CountingSink : kd::core::ObjectSink {
    size_t pods = 0;
    void on_pod(const kd::core::PodDraft&) override { ++pods; }
    void on_node(const kd::core::NodeDraft&) override {}
    void on_node_metric(const kd::core::NodeMetricDraft&) override {}
    void on_workload(const kd::core::WorkloadDraft&) override {}
    void on_pdb(const kd::core::PodDisruptionBudgetDraft&) override {}
    void on_namespace(const kd::core::NamespaceDraft&) override {}
    void on_priority_class(const kd::core::PriorityClassDraft&) override {}
    void on_pvc(const kd::core::PersistentVolumeClaimDraft&) override {}
    void on_secret(const kd::core::SecretDraft&) override {}
    void on_migration_job(kd::core::PodMigrationJob) override {}
    void on_reservation(kd::core::Reservation) override {}
};

// The best of `runs` timings of f, in seconds.
double best_of(int runs, const std::function<void()>& f) {
    double best = 1e300;
    for (int i = 0; i < runs; ++i) {
        auto t0 = Clock::now();
        f();
        best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
    }
    return best;
}

size_t decode_into(const std::string& body, kd::core::ObjectSink& sink) {
    kd::core::ApiObjectDecoder decoder("LIST pods", "Pod", "v1", sink);
    size_t problems = 0;
    kd::core::kube::ProtobufListSplitter splitter([&](std::string_view item) {
        if (decoder.decode_protobuf(item)) ++problems;
    });
    splitter.feed(body);
    if (!splitter.complete() || problems) throw std::runtime_error("the body did not decode cleanly");
    return splitter.items();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: kdesched-bench-protobuf POD_LIST_BODY (protobuf, as the API server sends it)\n";
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const std::string body = text.str();
    kd::core::decode::Envelope envelope;
    if (!in || !kd::core::decode::unwrap_envelope(body, envelope) || envelope.kind != "PodList") {
        std::cerr << argv[1] << ": not a protobuf PodList (\"k8s\\0\" envelope)\n";
        return 1;
    }
    const double mb = double(body.size()) / 1e6;
    size_t pods = 0;
    double drafts_s = best_of(3, [&] {
        CountingSink sink;
        pods = decode_into(body, sink);
    });
    double model_s = best_of(3, [&] {
        kd::core::ClusterModel model;
        decode_into(body, model);
    });
    size_t parsed = 0;
    double libprotobuf_s = best_of(3, [&] {
        google::protobuf::Arena arena;
        auto* list = google::protobuf::Arena::CreateMessage<k8s_subset::PodList>(&arena);
        if (!list->ParseFromArray(envelope.raw.data(), int(envelope.raw.size())))
            throw std::runtime_error("libprotobuf could not parse the body");
        parsed = size_t(list->items_size());
    });
    std::cout << fmt::format("{:.0f} MB, {} pods (~{:.2f} KB a pod); best of 3 runs each\n", mb, pods,
                             mb * 1e3 / double(pods));
    std::cout << fmt::format("kdesched wire reader, into drafts:       {:.3f} s  {:5.0f} MB/s\n", drafts_s,
                             mb / drafts_s);
    std::cout << fmt::format("kdesched wire reader, into the model:    {:.3f} s  {:5.0f} MB/s\n", model_s,
                             mb / model_s);
    std::cout << fmt::format("libprotobuf {}, parse only ({} pods): {:.3f} s  {:5.0f} MB/s\n", GOOGLE_PROTOBUF_VERSION,
                             parsed, libprotobuf_s, mb / libprotobuf_s);
    return 0;
}
