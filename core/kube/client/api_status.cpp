#include "kube/client/api_status.hpp"

#include "cluster/decode/protobuf_wire.hpp"

#include <kdesched/decode.hpp>

#include <rapidjson/document.h>

namespace kd::core::kube {

ProtobufStatus read_protobuf_status(std::string_view message) {
    // metav1.Status: metadata = 1, status = 2, message = 3, reason = 4, details = 5, code = 6.
    using decode::WireType;
    ProtobufStatus out;
    decode::WireReader r(message);
    decode::WireField f;
    while (r.next(f)) {
        if (f.number == 3 && f.type == WireType::bytes) out.status.message = std::string(f.bytes);
        if (f.number == 4 && f.type == WireType::bytes) out.status.reason = std::string(f.bytes);
        if (f.number == 6 && f.type == WireType::varint) out.code = static_cast<int32_t>(f.varint);
    }
    return out;
}

ApiStatus parse_status(const std::string& body) {
    ApiStatus s;
    decode::Envelope envelope;  // a protobuf Status (an answer to Accept: …protobuf)
    if (decode::unwrap_envelope(body, envelope))
        return envelope.kind == "Status" ? read_protobuf_status(envelope.raw).status : s;
    if (kd::json_too_deep(body)) return s;
    rapidjson::Document d;
    d.Parse(body.data(), body.size());
    if (d.HasParseError() || !d.IsObject()) return s;
    auto str = [&](const char* k) {
        auto it = d.FindMember(k);
        return it != d.MemberEnd() && it->value.IsString() ? std::string(it->value.GetString()) : std::string();
    };
    if (str("kind") != "Status") return s;
    s.reason = str("reason");
    s.message = str("message");
    return s;
}

}  // namespace kd::core::kube
