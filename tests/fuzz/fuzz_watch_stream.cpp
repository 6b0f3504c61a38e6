// Fuzz target: a watch response as it streams in (JSON lines or protobuf frames, told by the first
// byte), cut into chunks the input chooses; every event's object decoded into a cluster model, an
// ERROR event's Status read, as the reflector and the model feeder do.
#include "cluster/cluster_model.hpp"
#include "kube/watch/response_splitters.hpp"
#include "stream_input.hpp"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace kd::core;
    auto input = kd_fuzz::StreamInput::of(data, size);
    if (!input) return 0;
    ClusterModel model;
    ApiObjectDecoder decoder("watch", std::string(input->resource->kind), input->resource->group_version(), model);
    kube::WatchStreamSplitter splitter([&](const kube::WatchEvent& event, kube::Encoding encoding) {
        if (event.type == "ERROR")
            kube::read_error_event(event.object, encoding);
        else
            kd_fuzz::decode_object(decoder, event.object, encoding);
    });
    try {
        input->in_chunks([&](std::string_view chunk) { splitter.feed(chunk); });
    } catch (const std::runtime_error& e) {
        if (!kd_fuzz::is_splitter_error(e)) throw;
    }
    return 0;
}
