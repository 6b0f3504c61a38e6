// YAML goes through yaml-cpp and the configuration's YAML→JSON converter (go-yaml v2 scalar
// typing, as Kubernetes reads YAML), then the DOM is replayed through the ObjectDecoder.
//
// Two choices keep memory bounded: the text is cut into documents at `---` lines and each is
// loaded on its own (yaml-cpp holds about 40 times the text of what it has loaded), and the items
// of a List are converted one at a time (the converter also caps a document at a million nodes,
// which a large List would pass).
#include "cluster/decode/yaml_input.hpp"

#include "error.hpp"
#include "text/location_index.hpp"
#include "text/reporter.hpp"
#include "text/yaml_documents.hpp"
#include "text/yaml_to_json.hpp"

#include <kdesched/decode.hpp>

#include <rapidjson/document.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace kd::core::decode {

namespace {

struct Chunk {
    size_t begin, end;
    int first_line;  // 0-based line of `begin` in the file
};

// Lines with nothing for a document: blank, comments, directives, document end markers.
bool no_content(std::string_view line) {
    size_t i = line.find_first_not_of(" \t\r");
    if (i == std::string_view::npos) return true;
    if (line[i] == '#') return true;
    if (i == 0 && line[0] == '%') return true;
    return line.substr(0, 3) == "..." && (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
}

// Cuts before every `---` line but the first, when only comments and directives precede it. A
// `---` at column 0 always starts a document in YAML (even within what looks like a block
// scalar), so cutting there never changes the meaning; the marker line stays with the document
// it opens, and an empty document loads as null.
std::vector<Chunk> split_documents(std::string_view text) {
    std::vector<Chunk> out;
    size_t chunk_begin = 0, pos = 0;
    int line = 0, chunk_line = 0;
    bool content = false, marker_seen = false;
    while (pos < text.size()) {
        size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos) eol = text.size();
        std::string_view l = text.substr(pos, eol - pos);
        bool marker = l.substr(0, 3) == "---" && (l.size() == 3 || l[3] == ' ' || l[3] == '\t' || l[3] == '\r');
        if (marker && (content || marker_seen)) {
            out.push_back(Chunk{chunk_begin, pos, chunk_line});
            chunk_begin = pos;
            chunk_line = line;
            content = false;
        }
        marker_seen |= marker;
        if (!(marker ? no_content(l.substr(3)) : no_content(l))) content = true;
        pos = eol + 1;
        ++line;
    }
    out.push_back(Chunk{chunk_begin, text.size(), chunk_line});
    return out;
}

// The converter's problems (duplicate keys, merge keys, unsupported tags, …) as one Error. Its
// Reporter words them for a configuration, so only the problem lines are kept.
void raise_conversion_problems(const Reporter& report, const std::string& origin) {
    if (report.empty()) return;
    std::vector<std::string> lines;
    try {
        report.raise_if_any();
    } catch (const Error& e) {
        std::string text = e.what();
        size_t pos = text.find('\n');
        while (pos != std::string::npos) {
            size_t next = text.find('\n', pos + 1);
            std::string line = text.substr(pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1);
            if (line.rfind("  ", 0) == 0) line.erase(0, 2);
            lines.push_back(line);
            pos = next;
        }
    }
    if (lines.size() == 1) throw Error("", lines[0]);
    throw Error(origin + ": " + std::to_string(lines.size()) + " problems in the YAML:", lines);
}

class YamlDocument {
public:
    YamlDocument(FileContext& ctx) : ctx_(ctx) {}

    void decode(const YAML::Node& root) {
        if (!root.IsDefined() || root.IsNull()) return;
        if (root.IsSequence()) {
            for (const YAML::Node& item : root) object(item, "", "");
            return;
        }
        if (root.IsMap()) {
            const YAML::Node items = root["items"];
            const YAML::Node kind = root["kind"];
            // A missing key gives an invalid node, on which anything but IsDefined() throws.
            bool kind_given = kind.IsDefined() && !kind.IsNull();
            std::string kind_text = kind_given && kind.IsScalar() ? kind.Scalar() : "";
            if (items.IsDefined() && items.IsSequence() && (!kind_given || is_list_kind(kind_text))) {
                const YAML::Node api = root["apiVersion"];
                std::string api_text = api.IsDefined() && api.IsScalar() ? api.Scalar() : "";
                std::string item_kind(item_kind_of_list(kind_text));
                for (const YAML::Node& item : items) object(item, item_kind, api_text);
                return;
            }
        }
        // A single object, or anything odd: the generic path has the messages.
        rapidjson::Document doc;
        LocationIndex where;
        convert(root, doc, where);
        ctx_.decode_document(doc, &where);
    }

private:
    void object(const YAML::Node& node, const std::string& default_kind, const std::string& default_api) {
        rapidjson::Document doc;
        LocationIndex where;
        convert(node, doc, where);
        ctx_.decode_object(doc, ctx_.next_index(), default_kind, default_api, &where, "");
    }

    void convert(const YAML::Node& node, rapidjson::Document& doc, LocationIndex& where) {
        Reporter report(ctx_.origin(), where);
        yaml_to_json(node, ctx_.origin(), doc, where, report);
        raise_conversion_problems(report, ctx_.origin());
    }

    FileContext& ctx_;
};

}  // namespace

void decode_yaml(std::string_view text, FileContext& ctx) {
    for (const Chunk& chunk : split_documents(text)) {
        // Blank lines in front keep yaml-cpp's line numbers those of the file.
        std::string doc_text(static_cast<size_t>(chunk.first_line), '\n');
        doc_text.append(text.substr(chunk.begin, chunk.end - chunk.begin));
        for (const YAML::Node& root : load_yaml_documents(doc_text, ctx.origin())) YamlDocument(ctx).decode(root);
    }
}

}  // namespace kd::core::decode
