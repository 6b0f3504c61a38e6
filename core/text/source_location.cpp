#include "text/source_location.hpp"

namespace kd::core {

std::string SourceLocation::text() const {
    if (line <= 0) return file;
    return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

SourceLocation location_of(const YAML::Mark& mark, const std::string& origin) {
    if (mark.line < 0) return SourceLocation{origin, 0, 0};
    return SourceLocation{origin, mark.line + 1, mark.column + 1};
}

}  // namespace kd::core
