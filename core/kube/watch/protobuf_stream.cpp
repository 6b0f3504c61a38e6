#include "kube/watch/protobuf_stream.hpp"

#include "cluster/decode/protobuf_wire.hpp"

#include <stdexcept>

namespace kd::core::kube {

using decode::WireField;
using decode::WireReader;
using decode::WireType;

namespace {

constexpr size_t kMaxSmallField = 1u << 20;  // typeMeta, ListMeta: a few dozen bytes in practice

// A varint at the start of `s`: its length (0 when incomplete) and value.
size_t varint(std::string_view s, uint64_t& out) {
    return decode::read_varint(reinterpret_cast<const uint8_t*>(s.data()), s.size(), out);
}

}  // namespace

void ProtobufListSplitter::malformed(const std::string& what) const {
    throw std::runtime_error("the protobuf LIST body is not a Kubernetes list: " + what + " at byte " +
                             std::to_string(offset_));
}

bool ProtobufListSplitter::complete() const {
    return raw_done_ && body_ == Body::none && header_.empty();
}

void ProtobufListSplitter::feed(std::string_view chunk) {
    const char* p = chunk.data();
    size_t n = chunk.size();
    while (n > 0) {
        size_t used;
        const bool in_raw = in_raw_;  // a header that opens the List is not part of it
        if (magic_seen_ < 4) {
            if (*p != decode::kProtobufMagic[magic_seen_]) malformed("no \"k8s\\0\" envelope");
            ++magic_seen_;
            used = 1;
        } else if (body_ != Body::none) {
            used = take_body(p, n);
        } else {
            used = take_header(p, n);
        }
        if (in_raw) {
            raw_left_ -= used;  // bodies and headers inside the List are bounded by it
            if (raw_left_ == 0 && body_ == Body::none && header_.empty()) {
                in_raw_ = false;
                raw_done_ = true;
            }
        }
        p += used;
        n -= used;
        offset_ += used;
    }
}

// Reads a field's header byte by byte (a header is a few bytes; bodies are taken in bulk).
size_t ProtobufListSplitter::take_header(const char* p, size_t) {
    if (in_raw_ && raw_left_ == 0) malformed("a field past the end of the List");
    header_ += *p;
    uint64_t tag, length = 0;
    size_t t = varint(header_, tag);
    if (t == 0) {
        if (header_.size() > 10) malformed("a field tag longer than 10 bytes");
        return 1;
    }
    int wire = static_cast<int>(tag & 7);
    if (wire == 2) {
        size_t l = varint(std::string_view(header_).substr(t), length);
        if (l == 0) {
            if (header_.size() - t > 10) malformed("a length longer than 10 bytes");
            return 1;
        }
    } else if (wire == 0) {
        uint64_t ignored;
        if (t == header_.size() || varint(std::string_view(header_).substr(t), ignored) == 0) {
            if (header_.size() - t > 10) malformed("a varint longer than 10 bytes");
            return 1;
        }
    } else if (wire == 1 || wire == 5) {
        length = wire == 1 ? 8 : 4;
    } else {
        malformed("wire type " + std::to_string(wire));
    }
    header_.clear();
    field_started(static_cast<uint32_t>(tag >> 3), wire, length);
    return 1;
}

void ProtobufListSplitter::field_started(uint32_t number, int wire, uint64_t length) {
    // raw_left_ still counts this header's last byte.
    if (in_raw_ && length > raw_left_ - 1) malformed("a field longer than the List");
    if (!in_raw_ && !raw_done_ && number == 2 && wire == 2) {
        // The envelope's raw: the List itself, whose fields come next.
        in_raw_ = true;
        raw_left_ = length;
        if (length == 0) {
            in_raw_ = false;
            raw_done_ = true;
        }
        return;
    }
    if (wire == 0 || length == 0) {
        if (in_raw_ && wire == 2 && number == 2) {  // an empty item: a default object
            body_ = Body::item;
            body_done({});
        }
        return;
    }
    if (in_raw_ && wire == 2 && number == 1)
        body_ = Body::list_meta;
    else if (in_raw_ && wire == 2 && number == 2)
        body_ = Body::item;
    else if (!in_raw_ && !raw_done_ && wire == 2 && number == 1)
        body_ = Body::type_meta;
    else
        body_ = Body::skip;
    if (body_ != Body::item && body_ != Body::skip && length > kMaxSmallField)
        malformed("a metadata field of " + std::to_string(length) + " bytes");
    if (body_ == Body::item && length > kMaxObjectBytes) malformed("an item of " + std::to_string(length) + " bytes");
    body_left_ = length;
    body_bytes_.clear();
}

size_t ProtobufListSplitter::take_body(const char* p, size_t n) {
    size_t take = static_cast<size_t>(std::min<uint64_t>(body_left_, n));
    body_left_ -= take;
    if (body_ == Body::skip) {
        if (body_left_ == 0) body_ = Body::none;
        return take;
    }
    if (body_left_ == 0 && body_bytes_.empty()) {
        body_done(std::string_view(p, take));  // whole in this chunk: no copy
    } else {
        body_bytes_.append(p, take);
        if (body_left_ == 0) body_done(body_bytes_);
    }
    return take;
}

void ProtobufListSplitter::body_done(std::string_view bytes) {
    switch (body_) {
        case Body::type_meta:
            kind_ = std::string(decode::bytes_field(bytes, 2));
            break;
        case Body::list_meta:  // ListMeta: resourceVersion = 2, continue = 3
            resource_version_ = std::string(decode::bytes_field(bytes, 2));
            continue_ = std::string(decode::bytes_field(bytes, 3));
            break;
        case Body::item:
            ++items_;
            on_item_(bytes);
            break;
        default:
            break;
    }
    body_ = Body::none;
    body_bytes_.clear();
}

// ---------------------------------------------------------------------------------------------

namespace {

// One frame's WatchEvent {type = 1, object = 2 (RawExtension: raw = 1)}, its object unwrapped.
WatchEvent split_protobuf_watch_event(std::string_view event) {
    WatchEvent out;
    std::string_view raw;
    WireReader r(event);
    WireField f;
    while (r.next(f)) {
        if (f.type != WireType::bytes) continue;
        if (f.number == 1) out.type = f.bytes;
        if (f.number == 2) raw = decode::bytes_field(f.bytes, 1);  // RawExtension.raw
    }
    if (r.malformed()) throw std::runtime_error(std::string("a malformed watch event: ") + r.malformed());
    if (out.type.empty()) throw std::runtime_error("a watch event without a type");
    decode::Envelope envelope;
    if (!decode::unwrap_envelope(raw, envelope))
        throw std::runtime_error("a " + std::string(out.type) + " watch event without a \"k8s\\0\" enveloped object");
    out.object = envelope.raw;
    // ObjectMeta (1).resourceVersion (6); a Status (ERROR) has a ListMeta there, and no version.
    if (out.type != "ERROR") out.resource_version = decode::bytes_field(decode::bytes_field(out.object, 1), 6);
    return out;
}

}  // namespace

void ProtobufWatchSplitter::feed(std::string_view chunk) {
    // Frames wholly inside the chunk are handed over in place; a split one is gathered first.
    auto length_of = [](std::string_view s) {
        const auto* b = reinterpret_cast<const uint8_t*>(s.data());
        size_t n = (size_t(b[0]) << 24) | (size_t(b[1]) << 16) | (size_t(b[2]) << 8) | size_t(b[3]);
        if (n > kMaxObjectBytes)
            throw std::runtime_error("a watch frame of " + std::to_string(n) + " bytes (more than " +
                                     std::to_string(kMaxObjectBytes) + ")");
        return n;
    };
    if (!partial_.empty()) {
        size_t want = partial_.size() < 4 ? 4 - partial_.size() : 0;
        size_t take = std::min(want, chunk.size());
        partial_.append(chunk.data(), take);
        chunk.remove_prefix(take);
        if (partial_.size() < 4) return;
        size_t total = 4 + length_of(partial_);
        take = std::min(total - partial_.size(), chunk.size());
        partial_.append(chunk.data(), take);
        chunk.remove_prefix(take);
        if (partial_.size() < total) return;
        frame(std::string_view(partial_).substr(4));
        partial_.clear();
    }
    while (chunk.size() >= 4) {
        size_t n = length_of(chunk);
        if (chunk.size() < 4 + n) break;
        frame(chunk.substr(4, n));
        chunk.remove_prefix(4 + n);
    }
    partial_.assign(chunk.data(), chunk.size());
}

void ProtobufWatchSplitter::frame(std::string_view bytes) {
    ++events_;
    on_event_(split_protobuf_watch_event(bytes));
}

}  // namespace kd::core::kube
