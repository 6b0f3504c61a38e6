#include "text/reporter.hpp"

#include "error.hpp"

#include <algorithm>
#include <tuple>

namespace kd::core {

std::string Problem::text() const {
    std::string out = where.text() + ": ";
    if (!path.empty()) out += path + ": ";
    return out + message;
}

void Reporter::at(const std::string& path, std::string message) {
    problems_.push_back({index_.locate(path), path, std::move(message)});
}

void Reporter::at_key(const std::string& path, std::string message) {
    problems_.push_back({index_.locate(path, true), path, std::move(message)});
}

void Reporter::at_location(SourceLocation where, std::string path, std::string message) {
    problems_.push_back({std::move(where), std::move(path), std::move(message)});
}

namespace {

bool starts_with(const std::string& s, std::string_view prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

bool ends_with(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

void Reporter::add(const kd::Errors& errors) {
    for (const auto& e : errors.items()) {
        bool about_key = starts_with(e.message, "unknown field") || starts_with(e.message, "duplicate field") ||
                         starts_with(e.message, "duplicate key");
        std::string message = e.message;
        // Koordinator users coming from upstream descheduler configs look for a preEvictionFilter
        // extension point; say where that hook actually lives.
        if (starts_with(message, "unknown field") && ends_with(e.path, "plugins.preEvictionFilter"))
            message =
                "unknown field: there is no preEvictionFilter extension point; PreEvictionFilter belongs to "
                "filter plugins, so enable the plugin under plugins.filter (known fields: deschedule, "
                "balance, evict, filter)";
        if (about_key)
            at_key(e.path, std::move(message));
        else
            at(e.path, std::move(message));
    }
}

bool Reporter::has_problem_under(const std::string& path) const {
    return std::any_of(problems_.begin(), problems_.end(), [&](const Problem& p) {
        if (path.empty()) return true;
        if (!starts_with(p.path, path)) return false;
        return p.path.size() == path.size() || p.path[path.size()] == '.' || p.path[path.size()] == '[';
    });
}

void Reporter::raise_if_any() const {
    if (problems_.empty()) return;
    std::vector<Problem> sorted = problems_;
    std::stable_sort(sorted.begin(), sorted.end(), [](const Problem& a, const Problem& b) {
        return std::tie(a.where.line, a.where.column) < std::tie(b.where.line, b.where.column);
    });
    std::vector<std::string> lines;
    for (const auto& p : sorted) {
        std::string line = p.text();
        if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(std::move(line));
    }
    std::string heading = origin_ + ": invalid " + subject_ + ", " + std::to_string(lines.size()) +
                          (lines.size() == 1 ? " problem:" : " problems:");
    throw Error(heading, lines);
}

}  // namespace kd::core
