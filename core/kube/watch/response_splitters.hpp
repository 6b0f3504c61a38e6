// A LIST body or a watch stream in whichever encoding the server answered with — JSON, or the
// protobuf that kdesched asks for first for built-in kinds — told by its first byte, as the
// Content-Type would: a protobuf body starts with the envelope's "k8s\0", a protobuf watch frame
// with its big-endian length (0x00 for any frame under 16 MB), JSON with '{'.
#pragma once

#include "kube/watch/change_queue.hpp"
#include "kube/watch/json_stream.hpp"
#include "kube/watch/protobuf_stream.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <variant>

namespace kd::core::kube {

class ListBodySplitter {
public:
    using OnItem = std::function<void(std::string_view object, Encoding encoding)>;
    explicit ListBodySplitter(OnItem on_item) : on_item_(std::move(on_item)) {}
    // As ListSplitter::feed / ProtobufListSplitter::feed.
    void feed(std::string_view chunk);
    bool complete() const;
    std::string resource_version() const;
    std::string continue_token() const;

private:
    OnItem on_item_;
    std::variant<std::monostate, ListSplitter, ProtobufListSplitter> splitter_;
};

class WatchStreamSplitter {
public:
    using OnEvent = std::function<void(const WatchEvent& event, Encoding encoding)>;
    explicit WatchStreamSplitter(OnEvent on_event) : on_event_(std::move(on_event)) {}
    void feed(std::string_view chunk);

private:
    OnEvent on_event_;
    std::variant<std::monostate, WatchSplitter, ProtobufWatchSplitter> splitter_;
};

// A watch ERROR event's Status object: its code (0 when it has none) and, for a message, the
// object's JSON or the protobuf Status's message.
struct ErrorEvent {
    int code;
    std::string text;
};
ErrorEvent read_error_event(std::string_view object, Encoding encoding);

}  // namespace kd::core::kube
