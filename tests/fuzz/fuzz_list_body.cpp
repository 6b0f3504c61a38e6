// Fuzz target: a LIST response body as it streams in (JSON, or protobuf behind "k8s\0"), cut into
// chunks the input chooses; every item decoded into a cluster model as a relist does. A JSON body
// must also split exactly as the byte-by-byte loop splits it (the 64-byte block scan is a shortcut
// of it, not a second reading), whatever the bytes.
#include "cluster/cluster_model.hpp"
#include "kube/watch/json_stream.hpp"
#include "kube/watch/response_splitters.hpp"
#include "stream_input.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

// The items a ListSplitter hands over for the body fed in the given pieces, then its end state.
template <class InPieces>
std::string json_split(InPieces&& in_pieces) {
    std::string seen;
    kd::core::kube::ListSplitter splitter([&](std::string_view item) { seen.append(item).push_back('\n'); });
    try {
        in_pieces([&](std::string_view piece) { splitter.feed(piece); });
    } catch (const std::runtime_error& e) {
        seen += std::string("error: ") + e.what();
    }
    return seen + (splitter.complete() ? " complete " : " open ") + std::to_string(splitter.items());
}

}  // namespace

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
    if (!input->body.empty() && input->body.front() != 'k') {
        const std::string_view body = input->body;
        const std::string chunked = json_split([&](auto feed) { input->in_chunks(feed); });
        const std::string by_byte = json_split([&](auto feed) {
            for (size_t i = 0; i < body.size(); ++i) feed(body.substr(i, 1));
        });
        if (chunked != by_byte) {
            std::fprintf(stderr, "the JSON LIST splits differently in chunks:\n%s\nand byte by byte:\n%s\n",
                         chunked.c_str(), by_byte.c_str());
            std::abort();
        }
    }
    return 0;
}
