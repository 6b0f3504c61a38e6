// API server responses split as they stream in, without parsing them: the items of a LIST — each
// handed over as the bytes of one complete object, for the snapshot decoder to decode in place —
// with the list's resourceVersion and continue token; the events of a WATCH (one JSON document
// per line) with their type, object and resourceVersion. Only structure is scanned (strings,
// nesting), at memory speed, on the network thread.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace kd::core::kube {

// The largest object accepted from the API server in either encoding, a watch event (a JSON line,
// a protobuf frame) or a LIST item: a pod is a few KB, a big node some hundreds, etcd keeps at most
// 1.5 MB. A stream past it is refused instead of buffered without end.
constexpr size_t kMaxObjectBytes = 64u << 20;

class ListSplitter {
public:
    using OnItem = std::function<void(std::string_view object)>;
    explicit ListSplitter(OnItem on_item) : on_item_(std::move(on_item)) {}

    // Takes the next bytes of the body; throws std::runtime_error when it is not a JSON object
    // with an `items` list of objects.
    void feed(std::string_view chunk);
    // The whole body was seen (the top-level object closed).
    bool complete() const { return complete_; }
    const std::string& kind() const { return kind_; }
    const std::string& resource_version() const { return resource_version_; }
    const std::string& continue_token() const { return continue_; }
    size_t items() const { return items_; }

private:
    void string_done();
    // `at`: the byte's position in the current chunk.
    [[noreturn]] void malformed(const char* what, size_t at) const;

    OnItem on_item_;
    int depth_ = 0;
    // escape_: the next byte is escaped by a backslash (in a string; inside an item, anywhere, as
    // the 64-byte block scan counts it).
    bool in_string_ = false, escape_ = false, expect_key_ = false, complete_ = false;
    bool item_ = false;       // inside an element of `items`
    std::string item_bytes_;  // the part of the current item from earlier chunks
    size_t item_start_ = 0;   // in the current chunk
    std::string text_;        // the string being read (keys, and values at depths 1-2)
    bool text_wanted_ = false;
    std::string key1_, key2_;  // current keys at depth 1 and 2
    std::string kind_, resource_version_, continue_;
    size_t items_ = 0;
    size_t offset_ = 0;  // bytes of the body before the current chunk, for messages
};

// One event of a watch stream.
struct WatchEvent {
    std::string_view type;              // ADDED, MODIFIED, DELETED, BOOKMARK, ERROR
    std::string_view object;            // the object's JSON bytes
    std::string_view resource_version;  // object.metadata.resourceVersion ("" for ERROR)
};

class WatchSplitter {
public:
    using OnEvent = std::function<void(const WatchEvent&)>;
    explicit WatchSplitter(OnEvent on_event) : on_event_(std::move(on_event)) {}
    // Takes the next bytes of the stream; throws std::runtime_error for an event that is not a
    // JSON object with a type and an object.
    void feed(std::string_view chunk);
    size_t events() const { return events_; }

private:
    void line(std::string_view text);
    OnEvent on_event_;
    std::string partial_;  // an event split across chunks
    size_t events_ = 0;
};

// Splits one watch event document (for tests and the line handler).
WatchEvent split_watch_event(std::string_view text);

// An object as two pieces of its bytes, `before` and `after` a member cut out of it.
struct ObjectPieces {
    std::string_view before, after;
};

// The object without metadata.managedFields — half of a pod's bytes, which the model never reads —
// cut out on the network thread so the control thread does not parse it; the object whole in
// `before` when it has none or is not an object.
ObjectPieces without_managed_fields(std::string_view object);

}  // namespace kd::core::kube
