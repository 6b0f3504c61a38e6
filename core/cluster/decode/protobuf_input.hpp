// Kubernetes protobuf objects (application/vnd.kubernetes.protobuf) into the same drafts as JSON:
// a walk over the wire format, guided by a schema of the fields kdesched reads, that plays them to
// the ObjectDecoder as the JSON reader's events (key, string, number, object, list). So there is
// one decoding logic for every encoding, and the model cannot tell which one arrived. Every field
// the schema does not name (managedFields, images, env, volumes' details, …) is stepped over by its
// length, never decoded.
#pragma once

#include "cluster/decode/file_context.hpp"

#include <string_view>

namespace kd::core::decode {

// Decodes one object's message (an item of a protobuf List, or the raw message of a watch event's
// envelope) of kind `kind` ("Pod", "ReplicaSet", …; a built-in kind the ObjectDecoder drafts) into
// ctx's sink. Throws kd::core::Error naming ctx's origin and the object for a malformed message or
// a bad value, as decode_json does.
void decode_protobuf(std::string_view message, FileContext& ctx, std::string_view kind, std::string_view api_version);

}  // namespace kd::core::decode
