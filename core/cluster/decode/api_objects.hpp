// Objects as the API server sends them (a watch event's object, the items of a LIST, in JSON or
// protobuf) decoded into an ObjectSink, by the same decoders as snapshot files.
#pragma once

#include "cluster/drafts.hpp"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace kd::core {

// Decodes objects the API server sent — a watch event's object, the items of a LIST — one call at
// a time into one sink, keeping its buffers between calls. JSON is decoded in place (the text is
// overwritten; text[size] must be '\0'); objects without kind and apiVersion (a LIST's items) are
// `item_kind` / `item_api`. Protobuf messages (the object without its envelope) are always of
// `item_kind`. Never throws for bad input: decode() returns the first problem (naming `origin`
// and the object) after handing the good objects before it to the sink, so one bad object is
// logged and skipped, never fatal.
namespace decode {
class FileContext;
}
class ApiObjectDecoder {
public:
    ApiObjectDecoder(std::string origin, std::string item_kind, std::string item_api, ObjectSink& sink);
    ~ApiObjectDecoder();
    std::optional<std::string> decode(char* text, size_t size);
    std::optional<std::string> decode_protobuf(std::string_view message);

private:
    std::string item_kind_, item_api_;
    std::unique_ptr<decode::FileContext> ctx_;
};

// The same for one call.
std::optional<std::string> decode_api_objects(char* text, size_t size, const std::string& origin,
                                              std::string_view item_kind, std::string_view item_api, ObjectSink& sink);

}  // namespace kd::core
