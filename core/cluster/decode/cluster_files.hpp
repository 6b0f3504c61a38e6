// Loading cluster snapshots: what `kubectl get nodes,pods,… -A -o json` (or `-o yaml`) prints,
// or a generated file, into an ObjectSink (the cluster model).
//
// A file holds one object, a List (any kind ending in "List" with `items`), several concatenated
// JSON documents or multi-document YAML (`---`). JSON is read in place by a SAX handler at several
// hundred MB/s; YAML goes through yaml-cpp (about 4 MB/s) and the same decoding logic.
#pragma once

#include "cluster/drafts.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kd::core {

struct LoadReport {
    size_t files = 0;
    uint64_t bytes = 0;                     // bytes read
    std::map<std::string, size_t> objects;  // objects handed to the sink, by kind
    double decode_seconds = 0;              // parsing and decoding, sink included, reading excluded
    // For the user, one line each: "cluster.json: skipped 12 objects of kind Service (not used by
    // kdesched)" (one per file and kind), empty files, directories without snapshot files.
    std::vector<std::string> notes;

    size_t total_objects() const;
};

// Loads every file in order; a directory stands for its *.json, *.yaml and *.yml files, sorted by
// name (not recursive). The format comes from the extension (.json, .yaml, .yml), else from the
// first non-blank byte ('{' or '[' = JSON). Objects reach the sink in file order.
//
// Throws kd::core::Error at the first problem: a missing or unreadable file, a syntax error
// ("cluster.json:12:5: invalid JSON: …"), or a malformed object ("cluster.json:57:31: object #3
// (Pod default/web-1): spec.containers[0].resources.requests.cpu: invalid quantity \"12x\" (…)").
// Objects before it have reached the sink already.
LoadReport load_cluster_files(const std::vector<std::filesystem::path>& files_or_dirs, ObjectSink& sink);

// The same for one snapshot already in memory; `origin` names it in messages, and its extension,
// if any, picks the format.
LoadReport load_cluster_text(std::string_view text, const std::string& origin, ObjectSink& sink);

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
