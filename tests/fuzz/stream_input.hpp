// The input of the stream targets (watch_stream, list_body): a header, then the bytes the API server
// would send. The header's first bytes are chunk sizes (each plus one, used in turn), so where the
// network cuts the stream is fuzzed along with what it carries; its last byte picks the kind the
// objects are decoded as (a LIST's items and protobuf objects carry none of their own).
#pragma once

#include "cluster/decode/api_objects.hpp"
#include "kube/client/resources.hpp"
#include "kube/watch/change_queue.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeinfo>

namespace kd_fuzz {

struct StreamInput {
    std::array<size_t, 4> chunk_sizes;
    const kd::core::kube::ApiResource* resource;
    std::string_view body;

    // nullopt when the input is shorter than the header.
    static std::optional<StreamInput> of(const uint8_t* data, size_t size) {
        constexpr size_t kHeader = 5;
        if (size < kHeader) return std::nullopt;
        const auto& kinds = kd::core::kube::watched_resources();
        StreamInput in{{size_t(data[0]) + 1, size_t(data[1]) + 1, size_t(data[2]) + 1, size_t(data[3]) + 1},
                       &kinds[data[4] % kinds.size()],
                       {reinterpret_cast<const char*>(data) + kHeader, size - kHeader}};
        return in;
    }

    // feed(chunk) for each chunk of the body, in order.
    template <class Feed>
    void in_chunks(Feed&& feed) const {
        std::string_view rest = body;
        for (size_t i = 0; !rest.empty(); ++i) {
            size_t n = std::min(chunk_sizes[i % chunk_sizes.size()], rest.size());
            feed(rest.substr(0, n));
            rest.remove_prefix(n);
        }
    }
};

// One object decoded into the model as the model feeder does it: JSON in place (so a copy, ending
// in '\0'), protobuf as it is. A bad object is a problem returned, never thrown.
inline void decode_object(kd::core::ApiObjectDecoder& decoder, std::string_view object,
                          kd::core::kube::Encoding encoding) {
    if (encoding == kd::core::kube::Encoding::protobuf) {
        decoder.decode_protobuf(object);
        return;
    }
    std::string copy(object);
    decoder.decode(copy.data(), copy.size());
}

// The splitters refuse a malformed body or stream with a plain std::runtime_error (the reflector
// logs it and lists or watches again); anything else — a type derived from it included — is a finding.
inline bool is_splitter_error(const std::runtime_error& e) {
    return typeid(e) == typeid(std::runtime_error);
}

}  // namespace kd_fuzz
