// The small member functions of the configuration types.
#include "config/configuration.hpp"

namespace kd::core {

namespace {

// `prefix` is a whole-segment prefix of `path`: "a.b" of "a.b.c" and "a.b[0]", not of "a.bc".
bool segment_prefix(const std::string& prefix, const std::string& path) {
    if (prefix.empty() || prefix.size() > path.size() || path.compare(0, prefix.size(), prefix) != 0) return false;
    return prefix.size() == path.size() || path[prefix.size()] == '.' || path[prefix.size()] == '[';
}

}  // namespace

SourceLocation PluginConfig::locate(const std::string& argPath) const {
    const SourceLocation* best = nullptr;
    size_t best_len = 0;
    for (const auto& [path, at] : argLocations) {
        if (path == argPath) return at;
        if (segment_prefix(path, argPath) && path.size() > best_len) {
            best = &at;
            best_len = path.size();
        }
    }
    return best ? *best : where;
}

const PluginConfig* Profile::configFor(const std::string& plugin) const {
    for (const auto& pc : pluginConfig)
        if (pc.name == plugin) return &pc;
    return nullptr;
}

}  // namespace kd::core
