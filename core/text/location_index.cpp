#include "text/location_index.hpp"

namespace kd::core {

void LocationIndex::add(const std::string& path, NodeLocation where) {
    if (by_path_.count(path)) return;
    by_path_.emplace(path, order_.size());
    order_.emplace_back(path, std::move(where));
}

const NodeLocation* LocationIndex::exact(const std::string& path) const {
    auto it = by_path_.find(path);
    return it == by_path_.end() ? nullptr : &order_[it->second].second;
}

SourceLocation LocationIndex::locate(const std::string& path, bool about_key) const {
    if (const NodeLocation* n = exact(path)) return preferred_location(*n, about_key);
    std::string p = path;
    while (!p.empty()) {
        p = parent_path(p);
        // An ancestor stands in for a missing child: point at the line that introduces it.
        if (const NodeLocation* n = exact(p)) return preferred_location(*n, false);
    }
    return SourceLocation{origin_, 0, 0};
}

std::string parent_path(const std::string& path) {
    auto cut = path.find_last_of(".[");
    return cut == std::string::npos ? std::string() : path.substr(0, cut);
}

SourceLocation preferred_location(const NodeLocation& where, bool about_key) {
    return about_key || !where.scalar ? where.key : where.value;
}

}  // namespace kd::core
