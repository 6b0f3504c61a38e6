// The JSON fast path: RapidJSON's SAX reader in situ, and a router in front of the ObjectDecoder.
//
// The router finds the objects in the event stream (a single object, the items of a List, the
// elements of a top-level array) and learns each one's kind. kubectl prints apiVersion and kind
// first, so usually the kind is known before any field and the object's events go straight to
// the decoder. When a field comes first, the object is recorded into a DOM and replayed once it
// has ended; PodMigrationJob and Reservation are always recorded (they are read from a DOM).
#include "cluster/decode/json_input.hpp"

#include "cluster/decode/dom_builder.hpp"
#include "cluster/decode/kinds.hpp"
#include "cluster/decode/usage_metrics_reader.hpp"
#include "error.hpp"

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <charconv>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>

namespace kd::core::decode {

namespace {

using rapidjson::SizeType;

// A number's value read from its text at `p` (where the reader is while it reports the number),
// correctly rounded; `fallback` (the reader's) when the text gives none (an underflow). The reader
// runs in normal precision, exact up to 15 digits and exponents of ±22: its full-precision mode
// reads a zero with a large exponent ("0e-40", "0e300") as garbage — clz(0) in RapidJSON 1.1's
// DiyFp::Normalize, found by fuzzing.
double exact_double(const char* p, double fallback) {
    const char* end = p;
    while ((*end >= '0' && *end <= '9') || *end == '-' || *end == '+' || *end == '.' || *end == 'e' || *end == 'E')
        ++end;
    double value;
    auto [stop, ec] = std::from_chars(p, end, value);
    return ec == std::errc() && stop == end ? value : fallback;
}

enum class Ev { scalar, key, start_object, start_array, end_object, end_array };

class Router {
public:
    Router(FileContext& ctx, const rapidjson::InsituStringStream& is, size_t base, std::string_view item_kind,
           std::string_view item_api)
        : ctx_(ctx), dec_(ctx.decoder()), is_(is), base_(base), item_kind_(item_kind), item_api_(item_api) {}

    bool Null() {
        return on(Ev::scalar, {}, "null", [](auto& h) { return h.Null(); });
    }
    bool Bool(bool b) {
        return on(Ev::scalar, {}, "a boolean", [b](auto& h) { return h.Bool(b); });
    }
    bool Int(int i) {
        return on(Ev::scalar, {}, "a number", [i](auto& h) { return h.Int(i); });
    }
    bool Uint(unsigned u) {
        return on(Ev::scalar, {}, "a number", [u](auto& h) { return h.Uint(u); });
    }
    bool Int64(int64_t i) {
        return on(Ev::scalar, {}, "a number", [i](auto& h) { return h.Int64(i); });
    }
    bool Uint64(uint64_t u) {
        return on(Ev::scalar, {}, "a number", [u](auto& h) { return h.Uint64(u); });
    }
    bool Double(double d) {
        d = exact_double(is_.src_, d);
        return on(Ev::scalar, {}, "a number", [d](auto& h) { return h.Double(d); });
    }
    bool RawNumber(const char* s, SizeType n, bool c) {
        return on(Ev::scalar, {}, "a number", [=](auto& h) { return h.RawNumber(s, n, c); });
    }
    bool String(const char* s, SizeType n, bool c) {
        return on(Ev::scalar, std::string_view(s, n), "a string", [=](auto& h) { return h.String(s, n, c); });
    }
    bool Key(const char* s, SizeType n, bool c) {
        return on(Ev::key, std::string_view(s, n), "", [=](auto& h) { return h.Key(s, n, c); });
    }
    bool StartObject() {
        return on(Ev::start_object, {}, "an object", [](auto& h) { return h.StartObject(); });
    }
    bool EndObject(SizeType n) {
        return on(Ev::end_object, {}, "", [n](auto& h) { return h.EndObject(n); });
    }
    bool StartArray() {
        return on(Ev::start_array, {}, "a list", [](auto& h) { return h.StartArray(); });
    }
    bool EndArray(SizeType n) {
        return on(Ev::end_array, {}, "", [n](auto& h) { return h.EndArray(n); });
    }

private:
    enum class Phase : unsigned char {
        start,      // before the document's value
        probe,      // in an object whose kind is not known yet, at its first level
        forward,    // in an object of a drafted kind: events go to the decoder
        record,     // in an object being recorded into a DOM
        skip,       // in an object of a kind kdesched does not read
        list_root,  // at the first level of a List object
        list_skip,  // in a List's field of no interest
        items,      // between the items of a List (or of a top-level array)
        done,
    };
    enum class Expect : unsigned char { none, api, kind, items, skip };

    struct Pending {
        std::unique_ptr<rapidjson::Document> doc;
        size_t index;
    };

    // Where the reader is: at the first byte of a string or number being reported, past `{`, `[`,
    // true, false or null (see ObjectDecoder::fail).
    size_t offset() const { return base_ + static_cast<size_t>(is_.src_ - is_.head_); }

    template <class F>
    bool on(Ev ev, std::string_view text, const char* type, F&& f) {
        if (ev == Ev::start_object || ev == Ev::start_array) {
            // RapidJSON's fastest reader recurses once per level: bound it.
            if (++nesting_ > kMaxNesting)
                throw Error(ctx_.position(offset() - 1),
                            "nested more than " + std::to_string(kMaxNesting) + " levels deep",
                            "a Kubernetes object is never that deep; is this a cluster snapshot?");
        } else if (ev == Ev::end_object || ev == Ev::end_array) {
            --nesting_;
        }
        return dispatch(ev, text, type, f);
    }

    template <class F>
    bool dispatch(Ev ev, std::string_view text, const char* type, F&& f) {
        switch (phase_) {
            case Phase::forward:
                f(dec_);
                if (track(ev)) {
                    ctx_.finish_decoded(index_);
                    object_done();
                }
                return true;
            case Phase::record:
                f(rec_);
                if (track(ev)) recorded();
                return true;
            case Phase::skip:
                if (track(ev)) {
                    ctx_.skipped(kind_);
                    object_done();
                }
                return true;
            case Phase::list_skip:
                if (track(ev)) phase_ = Phase::list_root;
                return true;
            case Phase::probe:
                return probe(ev, text, type, f);
            case Phase::items:
                return between_items(ev, type);
            case Phase::list_root:
                return list_root(ev, text, type);
            case Phase::start:
                return start(ev, type);
            case Phase::done:
                return true;
        }
        return true;
    }

    // Depth inside the current object (or skipped value); true when it has just ended.
    bool track(Ev ev) {
        if (ev == Ev::start_object || ev == Ev::start_array) {
            ++depth_;
        } else if (ev == Ev::end_object || ev == Ev::end_array) {
            return --depth_ == 0;
        }
        return false;
    }

    bool start(Ev ev, const char* type) {
        if (ev == Ev::start_object) {
            begin_object(true, 0);
            return true;
        }
        if (ev == Ev::start_array) {
            // A bare array of objects: a List whose items must carry their kind.
            in_list_ = list_kind_known_ = top_is_array_ = true;
            phase_ = Phase::items;
            return true;
        }
        ctx_.fail_object(ctx_.peek_index(), "", std::string("expected an object or a list of objects, got ") + type,
                         offset());
    }

    void begin_object(bool top, size_t index) {
        top_ = top;
        index_ = index;
        has_index_ = !top;
        api_ = kind_ = {};
        expect_ = Expect::none;
        depth_ = 1;
        if (!pending_.empty()) {
            // Earlier items wait for the List's kind; later ones wait too, to keep file order.
            start_record();
            return;
        }
        phase_ = Phase::probe;
    }

    template <class F>
    bool probe(Ev ev, std::string_view text, const char* type, F&& f) {
        if (ev == Ev::key) {
            if (text == "apiVersion") {
                expect_ = Expect::api;
            } else if (text == "kind") {
                expect_ = Expect::kind;
            } else if (text == "items" && top_) {
                expect_ = Expect::items;
            } else {
                // A field before the kind.
                start_default_kind();
                dispatch(ev, text, type, f);  // the key, now to the decoder or the recorder
            }
            return true;
        }
        if (ev == Ev::end_object) {
            // An object of nothing but apiVersion, or nothing at all.
            start_default_kind();
            dispatch(ev, text, type, f);
            return true;
        }
        if (expect_ == Expect::items && ev == Ev::start_array) {
            // items before kind (kubectl's order for `kind: List`): a List.
            in_list_ = true;
            list_api_ = api_;
            phase_ = Phase::items;
            return true;
        }
        if (type == std::string_view("null")) {  // `"kind": null` is no kind, as in the DOM path
            expect_ = Expect::none;
            return true;
        }
        size_t index = top_ ? ctx_.peek_index() : index_;
        const char* field = expect_ == Expect::api ? "apiVersion" : expect_ == Expect::kind ? "kind" : "items";
        if (ev != Ev::scalar || type != std::string_view("a string") || expect_ == Expect::items) {
            const char* want = expect_ == Expect::items ? "a list" : "a string";
            ctx_.fail(index, "", "", "",
                      FieldProblem{field, std::string("must be ") + want + ", got " + type, "", offset()});
        }
        if (expect_ == Expect::api) {
            api_ = text;
        } else {
            kind_ = text;
            if (top_ && is_list_kind(kind_)) {
                in_list_ = list_kind_known_ = true;
                list_kind_ = kind_;
                list_api_ = api_;
                phase_ = Phase::list_root;
            } else {
                start_kind();
            }
        }
        expect_ = Expect::none;
        return true;
    }

    // The kind is known (kind_): decode, record or skip the rest of the object.
    void start_kind() {
        if (!has_index_) {
            index_ = ctx_.next_index();
            has_index_ = true;
        }
        Kind k = classify_kind(kind_);
        if (is_usage_metrics_kind(kind_)) {
            start_record();  // metrics.k8s.io usage: read from a DOM (usage_metrics_reader.hpp)
        } else if (is_drafted(k)) {
            std::string_view api = !api_.empty() ? api_ : in_list_ ? list_api_ : item_api_;
            dec_.begin(k, kind_, api, &is_, base_);
            dec_.StartObject();
            phase_ = Phase::forward;
        } else if (k == Kind::other) {
            phase_ = Phase::skip;
        } else {
            start_record();
        }
    }

    // No kind before the first field: the List's item kind if there is one, else recorded.
    void start_default_kind() {
        std::string_view dflt = default_kind();
        if (dflt.empty()) return start_record();
        kind_ = dflt;
        start_kind();
    }

    void start_record() {
        rec_.begin();
        rec_.StartObject();
        if (!api_.empty()) {
            rec_.key("apiVersion");
            rec_.string(api_);
        }
        if (!kind_.empty()) {
            rec_.key("kind");
            rec_.string(kind_);
        }
        phase_ = Phase::record;
    }

    void recorded() {
        std::unique_ptr<rapidjson::Document> doc = rec_.take();
        if (top_) {
            if (has_index_)
                ctx_.decode_object(*doc, index_, item_kind_, item_api_);
            else
                ctx_.decode_document(*doc);  // a List, perhaps, whose kind came after other fields
        } else {
            auto kind = doc->FindMember("kind");
            bool has_kind = kind != doc->MemberEnd() && !kind->value.IsNull();
            if (!pending_.empty() || (!has_kind && !list_kind_known_))
                pending_.push_back(Pending{std::move(doc), index_});
            else
                ctx_.decode_object(*doc, index_, default_kind(), list_api_);
        }
        object_done();
    }

    void object_done() { phase_ = top_ ? Phase::done : Phase::items; }

    bool between_items(Ev ev, const char* type) {
        if (ev == Ev::start_object) {
            begin_object(false, ctx_.next_index());
            return true;
        }
        if (ev == Ev::end_array) {
            phase_ = top_is_array_ ? Phase::done : Phase::list_root;
            return true;
        }
        ctx_.fail_object(ctx_.next_index(), "", std::string("expected an object, got ") + type, offset());
    }

    bool list_root(Ev ev, std::string_view text, const char* type) {
        switch (ev) {
            case Ev::key:
                expect_ = text == "items"        ? Expect::items
                          : text == "kind"       ? Expect::kind
                          : text == "apiVersion" ? Expect::api
                                                 : Expect::skip;
                return true;
            case Ev::end_object:
                list_kind_known_ = true;  // a List with no kind at all: items need their own
                flush_pending();
                phase_ = Phase::done;
                return true;
            case Ev::start_array:
                if (expect_ == Expect::items) {
                    phase_ = Phase::items;
                    return true;
                }
                break;
            case Ev::scalar:
                if (expect_ == Expect::skip || (expect_ == Expect::items && type == std::string_view("null")))
                    return true;
                if (expect_ == Expect::kind && type == std::string_view("a string")) {
                    if (!is_list_kind(text))
                        ctx_.fail_object(ctx_.peek_index(), text,
                                         "\"items\" come before the kind, which is not a List kind", offset(),
                                         "a file with items must be a List (kind List, PodList, …)");
                    list_kind_ = text;
                    list_kind_known_ = true;
                    flush_pending();
                    return true;
                }
                if (expect_ == Expect::api && type == std::string_view("a string")) {
                    list_api_ = text;
                    return true;
                }
                break;
            default:
                break;
        }
        if (expect_ == Expect::skip && (ev == Ev::start_object || ev == Ev::start_array)) {
            depth_ = 1;
            phase_ = Phase::list_skip;
            return true;
        }
        const char* field = expect_ == Expect::items ? "items" : expect_ == Expect::kind ? "kind" : "apiVersion";
        const char* want = expect_ == Expect::items ? "a list" : "a string";
        ctx_.fail_object(ctx_.peek_index(), list_kind_, std::string(field) + ": must be " + want + ", got " + type,
                         offset());
    }

    std::string_view default_kind() const {
        return in_list_ && list_kind_known_ ? item_kind_of_list(list_kind_) : item_kind_;
    }

    void flush_pending() {
        for (auto& p : pending_) ctx_.decode_object(*p.doc, p.index, default_kind(), list_api_);
        pending_.clear();
    }

    FileContext& ctx_;
    ObjectDecoder& dec_;
    const rapidjson::InsituStringStream& is_;
    size_t base_;
    std::string_view item_kind_, item_api_;  // for objects without kind and apiVersion (a LIST's items)
    DomBuilder rec_;

    static constexpr uint32_t kMaxNesting = 512;
    uint32_t nesting_ = 0;  // open objects and lists in the document

    Phase phase_ = Phase::start;
    Expect expect_ = Expect::none;
    uint32_t depth_ = 0;  // inside the current object or skipped value

    // The current object.
    bool top_ = false;
    bool has_index_ = false;
    size_t index_ = 0;
    std::string_view api_, kind_;

    // The List around it, if any.
    bool in_list_ = false, list_kind_known_ = false, top_is_array_ = false;
    std::string_view list_kind_, list_api_;
    std::deque<Pending> pending_;  // items without a kind, read before the List's kind
};

bool json_space(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

}  // namespace

void decode_json(char* text, size_t size, FileContext& ctx, std::string_view item_kind, std::string_view item_api) {
    size_t pos = 0;
    if (size >= 3 && static_cast<unsigned char>(text[0]) == 0xEF && static_cast<unsigned char>(text[1]) == 0xBB &&
        static_cast<unsigned char>(text[2]) == 0xBF)
        pos = 3;  // a UTF-8 byte order mark, as some editors write
    rapidjson::Reader reader;
    // Concatenated documents: each Parse stops after one value; the loop starts the next.
    for (;;) {
        while (pos < size && json_space(text[pos])) ++pos;
        if (pos >= size) break;
        rapidjson::InsituStringStream is(text + pos);
        Router router(ctx, is, pos, item_kind, item_api);
        // The recursive reader (faster than kParseIterativeFlag); the router bounds its depth.
        // Normal precision: Router::Double reads the exact value from the text (exact_double).
        constexpr unsigned kFlags = rapidjson::kParseInsituFlag | rapidjson::kParseStopWhenDoneFlag;
        reader.Parse<kFlags>(is, router);
        if (reader.HasParseError()) {
            size_t at = pos + reader.GetErrorOffset();
            throw Error(ctx.position(at), "invalid JSON (byte " + std::to_string(at) +
                                              "): " + rapidjson::GetParseError_En(reader.GetParseErrorCode()));
        }
        pos += is.Tell();
    }
}

}  // namespace kd::core::decode
