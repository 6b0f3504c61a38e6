// Every YAML document of a text, parsed by yaml-cpp behind a guard. yaml-cpp 0.7 (Debian 12)
// loops forever in LoadAll when a document starts with a stray flow entry (",": upstream issue
// #1040, fixed in 0.8), returns a null node for such a document from Load, and has no depth limit
// of its own below 500. The guard walks the documents first, event by event, and refuses a
// document that makes no progress, a null document whose text is not empty or null, and nesting
// deeper than kMaxYamlDepth, each with its line and column; only then are the nodes built.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace kd::core {

// Deepest nesting of collections accepted in any YAML input (profiles, snapshots).
constexpr int kMaxYamlDepth = 200;

// The documents of `text` in order (an empty or comment-only text has none). Throws
// kd::core::Error "origin:line:column: invalid YAML: …" for a syntax error, a document that does
// not parse to anything although it has content, or nesting deeper than kMaxYamlDepth.
std::vector<YAML::Node> load_yaml_documents(const std::string& text, const std::string& origin);

}  // namespace kd::core
