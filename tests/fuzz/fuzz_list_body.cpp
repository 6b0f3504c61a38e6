// Fuzz target: a LIST response body as it streams in (JSON, or protobuf behind "k8s\0"), cut into
// chunks the input chooses; every item decoded into a cluster model as a relist does.
#include "cluster/cluster_model.hpp"
#include "kube/response_splitters.hpp"
#include "stream_input.hpp"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace kd::core;
    auto input = kd_fuzz::StreamInput::of(data, size);
    if (!input) return 0;
    ClusterModel model;
    ApiObjectDecoder decoder("LIST", std::string(input->resource->kind), input->resource->group_version(), model);
    kube::ListBodySplitter splitter(
        [&](std::string_view item, kube::Encoding encoding) { kd_fuzz::decode_object(decoder, item, encoding); });
    try {
        input->in_chunks([&](std::string_view chunk) { splitter.feed(chunk); });
    } catch (const std::runtime_error& e) {
        if (!kd_fuzz::is_splitter_error(e)) throw;
    }
    return 0;
}
