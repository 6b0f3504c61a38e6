#include "text/yaml_documents.hpp"

#include "error.hpp"
#include "text/source_location.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <sstream>
#include <string_view>

namespace kd::core {

namespace {

// Far more documents than any profile or snapshot file holds; a second bound on the loop.
constexpr size_t kMaxDocuments = 1'000'000;

struct GuardError {
    YAML::Mark mark;
    std::string message;
};

// Sees each document's events without building nodes: where it starts, whether its root is null
// and where, how deep it nests.
class Guard : public YAML::EventHandler {
public:
    YAML::Mark start;
    bool root_null = false;
    YAML::Mark null_mark;

    void OnDocumentStart(const YAML::Mark& mark) override {
        start = mark;
        root_null = false;
        first_ = true;
        depth_ = 0;
    }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t) override {
        if (first_) root_null = true, null_mark = mark;
        first_ = false;
    }
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override { first_ = false; }
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {
        first_ = false;
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {
        open(mark);
    }
    void OnSequenceEnd() override { --depth_; }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
        open(mark);
    }
    void OnMapEnd() override { --depth_; }

private:
    void open(const YAML::Mark& mark) {
        first_ = false;
        if (++depth_ > kMaxYamlDepth)
            throw GuardError{mark, "nesting too deep: more than " + std::to_string(kMaxYamlDepth) +
                                       " levels of mappings and sequences (the limit)"};
    }
    bool first_ = true;
    int depth_ = 0;
};

bool starts_with(std::string_view text, size_t pos, std::string_view prefix) {
    return text.substr(pos, prefix.size()) == prefix;
}

// Whether a null root at `pos` is what the text says (nothing, a comment, ~, null, a tag or an
// anchor on nothing, a document marker) rather than something yaml-cpp could not read.
bool null_is_written(std::string_view text, size_t pos) {
    if (pos >= text.size()) return true;
    char c = text[pos];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '#' || c == '~' || c == '!' || c == '&') return true;
    for (std::string_view word : {"null", "Null", "NULL", "---", "..."})
        if (starts_with(text, pos, word)) return true;
    return false;
}

Error invalid(const YAML::Mark& mark, const std::string& origin, const std::string& what) {
    return Error(location_of(mark, origin).text(), "invalid YAML: " + what);
}

// What is at `pos`, for a message: the character, or the rest of its line if short.
std::string shown_at(std::string_view text, size_t pos) {
    size_t end = text.find('\n', pos);
    std::string_view rest = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    if (rest.size() > 20) rest = rest.substr(0, 1);
    return "\"" + std::string(rest) + "\"";
}

void guard(const std::string& text, const std::string& origin) {
    std::istringstream in(text);
    YAML::Parser parser(in);
    Guard g;
    long long previous = -1;
    size_t documents = 0;
    try {
        while (parser.HandleNextDocument(g)) {
            if (g.start.pos == previous || (g.root_null && !null_is_written(text, size_t(g.null_mark.pos)))) {
                const YAML::Mark& at = g.root_null ? g.null_mark : g.start;
                throw invalid(at, origin,
                              "cannot read a value at " + shown_at(text, size_t(at.pos)) +
                                  " (a stray ',', ']' or '}' outside a flow collection?)");
            }
            previous = g.start.pos;
            if (++documents > kMaxDocuments)
                throw invalid(g.start, origin,
                              "more than " + std::to_string(kMaxDocuments) + " documents in one file (the limit)");
        }
    } catch (const GuardError& e) {
        throw invalid(e.mark, origin, e.message);
    } catch (const YAML::DeepRecursion& e) {
        throw invalid(e.mark, origin,
                      "nesting too deep: more than " + std::to_string(kMaxYamlDepth) +
                          " levels of mappings and sequences (the limit)");
    } catch (const YAML::Exception& e) {
        throw invalid(e.mark, origin, e.msg);
    }
}

}  // namespace

std::vector<YAML::Node> load_yaml_documents(const std::string& text, const std::string& origin) {
    guard(text, origin);
    // The guard saw every document end and make progress; the same parser now builds the nodes.
    try {
        return YAML::LoadAll(text);
    } catch (const YAML::Exception& e) {
        throw invalid(e.mark, origin, e.msg);
    }
}

}  // namespace kd::core
