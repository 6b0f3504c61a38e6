// A Status object (metav1.Status), what the API server answers a failed request with — in JSON,
// or in protobuf to a client that asked for it — and the ERROR events of a watch carry.
#pragma once

#include <string>
#include <string_view>

namespace kd::core::kube {

// A Status object's parts, from an error response.
struct ApiStatus {
    std::string reason;   // NotFound, Conflict, AlreadyExists, Forbidden, Expired, TooManyRequests, …
    std::string message;  // the server's words
};

// A protobuf metav1.Status (its message, without the envelope): code, reason, message.
struct ProtobufStatus {
    int code = 0;
    ApiStatus status;
};
ProtobufStatus read_protobuf_status(std::string_view message);

// The parts of a Status body, JSON or protobuf (in its envelope); empty parts when it is not one.
ApiStatus parse_status(const std::string& body);

}  // namespace kd::core::kube
