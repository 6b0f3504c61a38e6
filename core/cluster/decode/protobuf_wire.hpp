// The protobuf wire format, read in place: a field at a time (number, wire type, and its varint
// or bytes), nothing allocated. Kubernetes' protobuf objects are read with it: their field numbers
// are facts of the API (k8s.io/api generated.proto), the schema lives in protobuf_input.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kd::core::decode {

enum class WireType : uint8_t { varint = 0, fixed64 = 1, bytes = 2, fixed32 = 5 };

// A varint at the start of `p` (at most `n` bytes): its length, 0 when incomplete or longer
// than 10 bytes; its value in `out`.
inline size_t read_varint(const uint8_t* p, size_t n, uint64_t& out) {
    uint64_t v = 0;
    for (size_t i = 0; i < n && i < 10; ++i) {
        v |= static_cast<uint64_t>(p[i] & 0x7f) << (7 * i);
        if (!(p[i] & 0x80)) {
            out = v;
            return i + 1;
        }
    }
    return 0;
}

struct WireField {
    uint32_t number = 0;
    WireType type = WireType::varint;
    uint64_t varint = 0;     // varint, fixed32 and fixed64 values
    std::string_view bytes;  // length-delimited values (strings, messages, map entries)
};

class WireReader {
public:
    explicit WireReader(std::string_view data)
        : p_(reinterpret_cast<const uint8_t*>(data.data())), end_(p_ + data.size()) {}

    // The next field; false at the end of the data or at a malformed field (then malformed() says
    // what was wrong).
    bool next(WireField& f) {
        if (p_ == end_) return false;
        uint64_t tag;
        if (!varint(tag)) return bad("a truncated field tag");
        f.number = static_cast<uint32_t>(tag >> 3);
        if (f.number == 0 || (tag >> 3) > 0x1fffffff) return bad("field number 0 or out of range");
        switch (tag & 7) {
            case 0:
                f.type = WireType::varint;
                return varint(f.varint) || bad("a truncated varint");
            case 1:
                f.type = WireType::fixed64;
                return fixed(f.varint, 8);
            case 2: {
                f.type = WireType::bytes;
                uint64_t n;
                if (!varint(n)) return bad("a truncated length");
                if (n > static_cast<uint64_t>(end_ - p_)) return bad("a length past the end of the message");
                f.bytes = std::string_view(reinterpret_cast<const char*>(p_), static_cast<size_t>(n));
                p_ += n;
                return true;
            }
            case 5:
                f.type = WireType::fixed32;
                return fixed(f.varint, 4);
            default:
                return bad("wire type 3, 4, 6 or 7 (groups are not used by the Kubernetes API)");
        }
    }
    // Non-null after next() returned false for a malformed field.
    const char* malformed() const { return malformed_; }
    // Bytes not read yet.
    size_t remaining() const { return static_cast<size_t>(end_ - p_); }

private:
    bool varint(uint64_t& out) {
        size_t n = read_varint(p_, static_cast<size_t>(end_ - p_), out);
        p_ += n;
        return n != 0;
    }
    bool fixed(uint64_t& out, int n) {
        if (end_ - p_ < n) return bad("a truncated fixed-width value");
        out = 0;
        for (int i = 0; i < n; ++i) out |= static_cast<uint64_t>(p_[i]) << (8 * i);
        p_ += n;
        return true;
    }
    bool bad(const char* what) {
        malformed_ = what;
        p_ = end_;
        return false;
    }

    const uint8_t* p_;
    const uint8_t* end_;
    const char* malformed_ = nullptr;
};

// The last value of length-delimited field `number` of a message ("" when absent); `malformed`
// (optional) gets what is wrong with a message that does not parse, nullptr otherwise.
inline std::string_view bytes_field(std::string_view message, uint32_t number, const char** malformed = nullptr) {
    WireReader r(message);
    WireField f;
    std::string_view out;
    while (r.next(f))
        if (f.number == number && f.type == WireType::bytes) out = f.bytes;
    if (malformed) *malformed = r.malformed();
    return out;
}

// The envelope of a protobuf body or watch object: "k8s\0", then runtime.Unknown { typeMeta
// {apiVersion, kind} = 1, raw = 2, contentEncoding = 3, contentType = 4 }.
struct Envelope {
    std::string_view api_version, kind, raw;
};
inline constexpr std::string_view kProtobufMagic{"k8s\0", 4};

// The envelope's parts; false when `data` is not one (no magic, or a malformed Unknown).
inline bool unwrap_envelope(std::string_view data, Envelope& out) {
    if (data.substr(0, 4) != kProtobufMagic) return false;
    WireReader r(data.substr(4));
    WireField f;
    out = {};
    bool raw = false;
    while (r.next(f)) {
        if (f.type != WireType::bytes) continue;
        if (f.number == 1) {  // TypeMeta: apiVersion = 1, kind = 2
            const char* bad = nullptr;
            out.api_version = bytes_field(f.bytes, 1, &bad);
            out.kind = bytes_field(f.bytes, 2);
            if (bad) return false;
        } else if (f.number == 2) {
            out.raw = f.bytes;
            raw = true;
        }
    }
    return !r.malformed() && raw;
}

}  // namespace kd::core::decode
