#include "text/aligned_rows.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace kd::core {

void print_rows(std::ostream& out, const std::vector<std::vector<std::string>>& rows, const std::string& indent) {
    std::vector<size_t> width;
    for (const auto& r : rows)
        for (size_t i = 0; i < r.size(); ++i) {
            if (width.size() <= i) width.push_back(0);
            width[i] = std::max(width[i], r[i].size());
        }
    for (const auto& r : rows) {
        std::string line = indent;
        for (size_t i = 0; i < r.size(); ++i)
            line += i + 1 == r.size() ? r[i] : fmt::format("{:<{}}  ", r[i], width[i]);
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out << line << "\n";
    }
}

}  // namespace kd::core
