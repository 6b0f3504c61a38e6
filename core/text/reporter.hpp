// Collects every problem found while loading one configuration and throws them together as one
// kd::core::Error, each line "file:line:column: path: message", sorted by position.
#pragma once

#include "text/location_index.hpp"
#include "text/source_location.hpp"

#include <kdesched/decode.hpp>

#include <string>
#include <vector>

namespace kd::core {

struct Problem {
    SourceLocation where;
    std::string path;  // JSON path of the offending node, "" = the document
    std::string message;
    std::string text() const;  // "file:line:column: path: message"
};

class Reporter {
public:
    Reporter(std::string origin, const LocationIndex& index) : origin_(std::move(origin)), index_(index) {}

    // A problem with the node at `path` (or, when absent, its nearest ancestor).
    void at(const std::string& path, std::string message);
    // A problem with the key at `path` itself (unknown or duplicate).
    void at_key(const std::string& path, std::string message);
    void at_location(SourceLocation where, std::string path, std::string message);
    // Decoder errors: "unknown field"/"duplicate field" point at the key, the rest at the value.
    void add(const kd::Errors& errors);

    // True when a problem was already reported at `path` or below it; later checks skip such
    // fields so one mistake is not reported twice (e.g. a wrongly typed name as "missing").
    bool has_problem_under(const std::string& path) const;
    bool empty() const { return problems_.empty(); }
    const std::string& origin() const { return origin_; }
    const LocationIndex& index() const { return index_; }

    // What the file holds, for the heading of the error ("invalid <subject>, 2 problems:").
    void set_subject(std::string subject) { subject_ = std::move(subject); }
    // Throws kd::core::Error when anything was reported.
    void raise_if_any() const;

private:
    std::string origin_;
    std::string subject_ = "DeschedulerConfiguration";
    const LocationIndex& index_;
    std::vector<Problem> problems_;
};

}  // namespace kd::core
