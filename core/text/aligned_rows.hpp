// Rows of text with each column as wide as its widest cell: the simulator's report tables and the
// daemon's /debug/explain text share one look.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace kd::core {

void print_rows(std::ostream& out, const std::vector<std::vector<std::string>>& rows, const std::string& indent);

}  // namespace kd::core
