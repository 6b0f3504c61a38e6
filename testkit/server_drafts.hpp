// Every object of every kind kdesched reads, LISTed once from a server (ClusterSync::list_once)
// and decoded into a RecordingSink in whichever encoding it came: for comparing what two
// encodings of the same server state give, draft by draft.
#pragma once

#include "kube/watch/cluster_sync.hpp"
#include "recording_sink.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kd_test {

struct ServerDrafts {
    std::vector<std::string> texts;                             // canonical texts, sorted
    std::map<std::string, kd::core::kube::Encoding> encodings;  // by kind, as they arrived
    std::vector<std::string> failures, problems;                // kinds not read, objects not decoded
};

inline ServerDrafts read_server_drafts(kd::core::kube::ApiClient& client) {
    using namespace kd::core;
    ServerDrafts out;
    kd::test::RecordingSink sink;
    std::map<ObjectKind, std::unique_ptr<ApiObjectDecoder>> decoders;
    kube::ClusterSync sync(client);
    out.failures = sync.list_once([&](std::vector<kube::Change>& changes) {
        for (auto& c : changes) {
            if (c.type != kube::Change::Type::list_items) continue;
            const auto& res = kube::resource_of(c.kind);
            auto& d = decoders[c.kind];
            if (!d) d = std::make_unique<ApiObjectDecoder>("LIST", std::string(res.kind), res.group_version(), sink);
            out.encodings[std::string(res.kind)] = c.encoding;
            c.for_each([&](char* data, size_t size) {
                auto problem =
                    c.encoding == kube::Encoding::protobuf ? d->decode_protobuf({data, size}) : d->decode(data, size);
                if (problem) out.problems.push_back(*problem);
            });
        }
    });
    out.texts = sink.texts;
    std::sort(out.texts.begin(), out.texts.end());
    return out;
}

}  // namespace kd_test
