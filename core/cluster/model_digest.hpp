// A digest of what the model holds, kind by kind: the number of objects and a 128-bit sum of a
// digest of each object's every kept field. Two models that read the same objects have equal
// digests whatever the order the objects arrived in, so a daemon's model (GET /debug/model) can
// be compared with a fresh read of the server (`kdesched snapshot --digest`): a watch that missed
// a change shows as a different digest of that kind.
#pragma once

#include <cstddef>
#include <map>
#include <string>

namespace kd::core {

class ClusterModel;

struct KindDigest {
    size_t count = 0;
    std::string digest;  // 32 hex digits; of nothing when count is 0
    bool operator==(const KindDigest&) const = default;
};

// By kind name ("Pod", "Node", …, as in object_kind.hpp), every kind the model keeps but Secrets
// (read on demand, never listed).
std::map<std::string, KindDigest> digest_model(const ClusterModel& model);

// {"kinds":{"Pod":{"count":N,"digest":"…"},…}}: what /debug/model and `snapshot --digest` print.
std::string digest_json(const std::map<std::string, KindDigest>& digests);

}  // namespace kd::core
