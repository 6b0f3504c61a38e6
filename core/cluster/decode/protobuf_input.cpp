#include "cluster/decode/protobuf_input.hpp"

#include "cluster/decode/protobuf_wire.hpp"
#include "cluster/schema/object_schema.hpp"

#include <algorithm>
#include <span>
#include <string>

namespace kd::core::decode {

namespace {

using schema::FieldRow;
using schema::Slot;
using schema::Wire;

// A malformed message, with the JSON path of where (filled in while unwinding).
struct Malformed {
    std::string path, what;
};

// Plays a message's fields to the ObjectDecoder as JSON events.
class Player {
public:
    explicit Player(ObjectDecoder& d) : d_(d) {}

    // The fields of `data` as members of the object open in the decoder, whose rows are `rows`
    // (`via`: the number of the inlined message `data` is, 0 for the object's own).
    void members(std::string_view data, std::span<const FieldRow> rows, uint32_t via = 0) {
        if (rows.empty()) return;  // an object whose presence is all that counts
        // Only a context with inlined messages (Volume) looks twice at a field it has no row for.
        const bool has_inlined =
            via == 0 && std::any_of(rows.begin(), rows.end(), [](const FieldRow& row) { return row.via != 0; });
        WireReader r(data);
        WireField f;
        while (r.next(f)) {
            const FieldRow* row = find(rows, f.number, via);
            if (!row) {
                if (has_inlined && inlined(rows, f.number)) {
                    expect(f, WireType::bytes);
                    members(f.bytes, rows, f.number);
                }
                continue;
            }
            try {
                member(*row, f, r);
            } catch (Malformed& e) {
                e.path = join(row->json, e.path);
                throw;
            }
        }
        if (r.malformed()) throw Malformed{"", r.malformed()};
    }

private:
    static const FieldRow* find(std::span<const FieldRow> rows, uint32_t number, uint32_t via) {
        for (const FieldRow& row : rows)
            if (row.proto == number && row.via == via) return &row;
        return nullptr;
    }
    static bool inlined(std::span<const FieldRow> rows, uint32_t number) {
        for (const FieldRow& row : rows)
            if (row.via == number) return true;
        return false;
    }
    static std::string join(std::string_view a, const std::string& b) {
        if (b.empty()) return std::string(a);
        return std::string(a) + (b.front() == '[' ? "" : ".") + b;
    }
    void key(const FieldRow& row) { d_.field(row.json, row.slot, &row.bind); }
    void string(std::string_view s) { d_.String(s.data(), static_cast<rapidjson::SizeType>(s.size()), false); }
    static void expect(const WireField& f, WireType t) {
        if (f.type != t)
            throw Malformed{"", t == WireType::bytes ? "expected a length-delimited field, got a number"
                                                     : "expected a varint, got another wire type"};
    }
    void object(std::string_view data, std::span<const FieldRow> rows) {
        d_.StartObject();
        members(data, rows);
        d_.EndObject(0);
    }

    void member(const FieldRow& row, const WireField& f, WireReader& r) {
        switch (row.wire) {
            case Wire::string:
                expect(f, WireType::bytes);
                key(row);
                return string(f.bytes);
            case Wire::boolean:
                expect(f, WireType::varint);
                key(row);
                d_.Bool(f.varint != 0);
                return;
            case Wire::int32:
                expect(f, WireType::varint);
                key(row);
                d_.Int64(static_cast<int32_t>(f.varint));  // negative int32s are sign-extended varints
                return;
            case Wire::time:
                expect(f, WireType::bytes);
                key(row);
                return time(f.bytes);
            case Wire::int_or_string:
                expect(f, WireType::bytes);
                key(row);
                return int_or_string(f.bytes);
            case Wire::message:
                expect(f, WireType::bytes);
                key(row);
                return object(f.bytes, schema::rows_inside(row));
            case Wire::none:
                return;
            default:
                return repeated(row, f, r);
        }
    }

    // A repeated field: this entry and the ones right after it with the same number.
    void repeated(const FieldRow& row, WireField f, WireReader& r) {
        const bool map = row.wire == Wire::string_map || row.wire == Wire::quantity_map;
        key(row);
        map ? d_.StartObject() : d_.StartArray();
        for (size_t i = 0;; ++i) {
            expect(f, WireType::bytes);
            try {
                element(row, f.bytes);
            } catch (Malformed& e) {
                if (!map) e.path = "[" + std::to_string(i) + "]" + (e.path.empty() ? "" : "." + e.path);
                throw;
            }
            WireReader ahead = r;
            if (!ahead.next(f) || f.number != row.proto) break;
            r = ahead;
        }
        map ? d_.EndObject(0) : d_.EndArray(0);
    }

    void element(const FieldRow& row, std::string_view bytes) {
        switch (row.wire) {
            case Wire::strings:
                return string(bytes);
            case Wire::messages:
                return object(bytes, schema::rows_inside(row));
            default:
                return map_entry(bytes, row.wire == Wire::quantity_map);
        }
    }

    // A map entry {key = 1, value = 2}; a Quantity value is {string = 1}.
    void map_entry(std::string_view entry, bool quantity) {
        std::string_view k, v;
        WireReader r(entry);
        WireField f;
        while (r.next(f)) {
            if (f.type != WireType::bytes) continue;
            if (f.number == 1) k = f.bytes;
            if (f.number == 2) v = quantity ? quantity_string(f.bytes) : f.bytes;
        }
        if (r.malformed()) throw Malformed{"", r.malformed()};
        d_.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()), false);
        string(v);
    }
    static std::string_view quantity_string(std::string_view q) {
        const char* malformed = nullptr;
        std::string_view s = bytes_field(q, 1, &malformed);  // resource.Quantity {string = 1}
        if (malformed) throw Malformed{"", malformed};
        return s;
    }

    void time(std::string_view t) {
        WireReader r(t);
        WireField f;
        int64_t seconds = 0;
        while (r.next(f))
            if (f.number == 1 && f.type == WireType::varint) seconds = static_cast<int64_t>(f.varint);
        if (r.malformed()) throw Malformed{"", r.malformed()};
        // JSON carries whole seconds (metav1.Time marshals RFC 3339 without a fraction): so do we.
        d_.Timestamp(seconds * 1000);
    }

    void int_or_string(std::string_view v) {
        WireReader r(v);
        WireField f;
        uint64_t type = 0;
        int32_t i = 0;
        std::string_view s;
        while (r.next(f)) {
            if (f.number == 1 && f.type == WireType::varint) type = f.varint;
            if (f.number == 2 && f.type == WireType::varint) i = static_cast<int32_t>(f.varint);
            if (f.number == 3 && f.type == WireType::bytes) s = f.bytes;
        }
        if (r.malformed()) throw Malformed{"", r.malformed()};
        if (type == 1)
            string(s);
        else
            d_.Int64(i);
    }

    ObjectDecoder& d_;
};

}  // namespace

void decode_protobuf(std::string_view data, FileContext& ctx, std::string_view kind, std::string_view api_version) {
    const size_t index = ctx.next_index();
    const schema::RootRow* root = schema::root_of(kind);
    if (!root || !root->protobuf)
        ctx.fail_object(index, kind, "kdesched does not read " + std::string(kind) + " objects from protobuf");
    ObjectDecoder& d = ctx.decoder();
    d.begin(classify_kind(kind), kind, api_version);
    d.StartObject();
    try {
        Player(d).members(data, schema::rows_of(root->root));
    } catch (const Malformed& e) {
        // Named with whatever of its metadata came before the damage.
        ctx.fail(index, kind, d.meta().ns, d.meta().name,
                 FieldProblem{e.path, "malformed protobuf: " + e.what,
                              "the body is not the Kubernetes protobuf encoding of a " + std::string(kind) +
                                  "; set clientConnection.contentType: application/json to read JSON instead",
                              FieldProblem::kNoOffset});
    }
    d.EndObject(0);
    ctx.finish_decoded(index);
}

}  // namespace kd::core::decode
