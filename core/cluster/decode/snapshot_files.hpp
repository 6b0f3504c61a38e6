// Loading cluster snapshots: what `kubectl get nodes,pods,… -A -o json` (or `-o yaml`) prints,
// or a generated file, into an ObjectSink (the cluster model).
//
// A file holds one object, a List (any kind ending in "List" with `items`), several concatenated
// JSON documents or multi-document YAML (`---`). JSON is read in place by a SAX handler at several
// hundred MB/s; YAML goes through yaml-cpp (about 4 MB/s) and the same decoding logic.
#pragma once

#include "cluster/decode/load_report.hpp"
#include "cluster/drafts.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kd::core {

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

}  // namespace kd::core
