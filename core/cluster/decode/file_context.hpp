// What decoding one file needs whatever its format: numbering objects, dispatching an object by
// kind, handing drafts to the sink, counting and noting skipped kinds, and composing errors.
#pragma once

#include "cluster/decode/field_problem.hpp"
#include "cluster/decode/load_report.hpp"
#include "cluster/decode/object_decoder.hpp"

#include <rapidjson/document.h>

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kd::core {
class LocationIndex;
}

namespace kd::core::decode {

class FileContext {
public:
    // `original` gives the file's text as it was, to turn a byte offset into line:column for an
    // error (the in-situ reader overwrites the buffer); it is only called on that path.
    FileContext(std::string origin, ObjectSink& sink, std::function<std::string()> original);

    const std::string& origin() const { return origin_; }
    ObjectSink& sink() { return sink_; }
    ObjectDecoder& decoder() { return decoder_; }
    // Objects are numbered in file order from 0: every List item and every non-List document.
    size_t next_index() { return next_index_++; }
    size_t peek_index() const { return next_index_; }

    // Decodes one document held as a DOM: an object, a List, an array of objects, or null (an
    // empty YAML document). `where` maps field paths to YAML positions (null for JSON).
    void decode_document(const rapidjson::Value& doc, const LocationIndex* where = nullptr);
    // Decodes one object held as a DOM; `default_kind`/`default_api` come from a typed list
    // (items of a PodList carry no kind). `path` is the object's path in `where`'s document.
    void decode_object(const rapidjson::Value& obj, size_t index, std::string_view default_kind,
                       std::string_view default_api, const LocationIndex* where = nullptr,
                       const std::string& path = "");
    // A NodeMetrics or PodMetrics object (metrics.k8s.io/v1beta1) to the sink's usage.
    void decode_usage_metrics(const rapidjson::Value& obj, size_t index, std::string_view kind, std::string_view api,
                              const LocationIndex* where, const std::string& path);
    // After the decoder saw the end of object `index`: raises its problem, or hands it over.
    void finish_decoded(size_t index, const LocationIndex* where = nullptr, const std::string& path = "");
    // An object of a kind kdesched does not read (counted for one note per kind).
    void skipped(std::string_view kind, std::string_view api_version = "", std::string_view wanted_api = "");

    // Errors. "object #3 (Pod default/web-1)", with whatever of kind and name is known.
    std::string object_label(size_t index, std::string_view kind, std::string_view ns, std::string_view name) const;
    [[noreturn]] void fail(size_t index, std::string_view kind, std::string_view ns, std::string_view name,
                           const FieldProblem& problem, const LocationIndex* where = nullptr,
                           const std::string& path = "") const;
    // A problem with an object as a whole (no kind, not an object, …) at byte `offset` if known.
    [[noreturn]] void fail_object(size_t index, std::string_view kind, std::string message,
                                  size_t offset = FieldProblem::kNoOffset, std::string hint = "") const;
    // "file:line:column" of a byte offset in the original text.
    std::string position(size_t offset) const;

    // Adds this file's counts and notes to the report.
    void close(LoadReport& report);

private:
    // Hands an object to the sink (a sink's Error is relabelled with the object), then counts it.
    template <class Deliver>
    void hand_over(size_t index, std::string_view kind, std::string_view ns, std::string_view name, Deliver&& deliver);

    std::string origin_;
    ObjectSink& sink_;
    std::function<std::string()> original_;
    ObjectDecoder decoder_;
    size_t next_index_ = 0;
    std::vector<std::pair<std::string, size_t>> counts_;  // delivered, by kind, in first-seen order
    struct Skip {
        std::string kind, api_version, wanted_api;
        size_t count;
    };
    std::vector<Skip> skipped_;
};

}  // namespace kd::core::decode
