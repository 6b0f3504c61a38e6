// A position in a source file, and yaml-cpp's marks turned into one.
#pragma once

#include <yaml-cpp/mark.h>

#include <string>

namespace kd::core {

// Position in a source file, 1-based; line 0 = unknown.
struct SourceLocation {
    std::string file;
    int line = 0;
    int column = 0;
    std::string text() const;  // "file:line:column" (or just "file" when line is 0)
};

// yaml-cpp Marks are 0-based; SourceLocation is 1-based.
SourceLocation location_of(const YAML::Mark& mark, const std::string& origin);

}  // namespace kd::core
