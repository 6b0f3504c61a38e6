// API server responses in Kubernetes' protobuf encoding, split as they stream in, like their JSON
// counterparts in json_stream.hpp: a LIST body ("k8s\0" + runtime.Unknown whose raw is the List:
// metadata = 1, items = 2) hands over each item's message, and the list's resourceVersion and
// continue token; a watch stream (frames of a 4-byte big-endian length and a metav1.WatchEvent
// {type = 1, object = 2 (raw = 1: an enveloped object)}) hands over each event. Only framing is
// read here, on the network thread; the objects are decoded on the control thread.
#pragma once

#include "kube/client/api_status.hpp"
#include "kube/watch/json_stream.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace kd::core::kube {

class ProtobufListSplitter {
public:
    using OnItem = std::function<void(std::string_view message)>;
    explicit ProtobufListSplitter(OnItem on_item) : on_item_(std::move(on_item)) {}

    // Takes the next bytes of the body; throws std::runtime_error when they are not a protobuf List.
    void feed(std::string_view chunk);
    // The whole List was read and the body ended between two fields.
    bool complete() const;
    const std::string& kind() const { return kind_; }
    const std::string& resource_version() const { return resource_version_; }
    const std::string& continue_token() const { return continue_; }
    size_t items() const { return items_; }

private:
    // What the bytes after a field's header are for.
    enum class Body { none, type_meta, list_meta, item, skip };
    size_t take_header(const char* p, size_t n);
    size_t take_body(const char* p, size_t n);
    void field_started(uint32_t number, int wire_type, uint64_t length);
    void body_done(std::string_view bytes);
    [[noreturn]] void malformed(const std::string& what) const;

    OnItem on_item_;
    size_t magic_seen_ = 0;
    std::string header_;  // the field header being read (tag and length varints)
    Body body_ = Body::none;
    uint64_t body_left_ = 0;
    std::string body_bytes_;  // a field's bytes that came in earlier chunks
    bool in_raw_ = false, raw_done_ = false;
    uint64_t raw_left_ = 0;  // bytes of the List (the envelope's raw) not read yet
    std::string kind_, resource_version_, continue_;
    size_t items_ = 0;
    size_t offset_ = 0;  // bytes seen, for messages
};

class ProtobufWatchSplitter {
public:
    using OnEvent = std::function<void(const WatchEvent&)>;
    explicit ProtobufWatchSplitter(OnEvent on_event) : on_event_(std::move(on_event)) {}
    // Takes the next bytes of the stream; throws std::runtime_error for a frame that is not a
    // WatchEvent with a type and an enveloped object. The event's object is the object's message
    // without its envelope.
    void feed(std::string_view chunk);
    size_t events() const { return events_; }

private:
    void frame(std::string_view bytes);
    OnEvent on_event_;
    std::string partial_;  // a frame (with its length) split across chunks
    size_t events_ = 0;
};

}  // namespace kd::core::kube
