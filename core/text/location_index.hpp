// Where every node of a YAML document came from, keyed by the JSON path the decoder uses
// ("profiles[0].pluginConfig[1].args.nodePools[0]"), so decode and validation errors, which only
// know paths, can be reported as file:line:column.
#pragma once

#include "text/source_location.hpp"

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kd::core {

// A node's position: `key` is the mapping key that introduced it (the item itself for list items
// and the root), `value` the node. Null values have no reliable mark in yaml-cpp, so they use `key`.
struct NodeLocation {
    SourceLocation key;
    SourceLocation value;
    bool scalar = false;  // a scalar or null value (errors about it point at the value itself)
};

class LocationIndex {
public:
    // Records a path; a path recorded twice keeps its first location.
    void add(const std::string& path, NodeLocation where);
    const NodeLocation* exact(const std::string& path) const;
    // Where to report a problem at `path`: the node itself when recorded, else the nearest recorded
    // ancestor (a missing field is reported at its parent). `about_key` = the problem is the key
    // itself (unknown or duplicate field). Returns a file-only location when nothing matches.
    SourceLocation locate(const std::string& path, bool about_key = false) const;
    // Every recorded path in document order.
    const std::vector<std::pair<std::string, NodeLocation>>& in_order() const { return order_; }
    void set_origin(std::string origin) { origin_ = std::move(origin); }

private:
    std::vector<std::pair<std::string, NodeLocation>> order_;
    std::unordered_map<std::string, size_t> by_path_;
    std::string origin_;
};

// "a.b[2].c" → "a.b[2]" → "a.b" → "a" → "" (and "" stays ""). Keys containing dots are cut at a
// dot; that only makes the fallback less precise, since exact lookups come first.
std::string parent_path(const std::string& path);

// Best location for an error at `path`: scalars at their value, collections at their key line.
SourceLocation preferred_location(const NodeLocation& where, bool about_key);

}  // namespace kd::core
