#include "net/query_string.hpp"

#include <cctype>

namespace kd::core::net {

std::string query_escape(std::string_view s) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : s) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += char(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::string query_value(std::string_view query, std::string_view name) {
    while (!query.empty()) {
        size_t amp = query.find('&');
        std::string_view part = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        size_t eq = part.find('=');
        if (eq == std::string_view::npos || part.substr(0, eq) != name) continue;
        std::string out;
        std::string_view v = part.substr(eq + 1);
        for (size_t i = 0; i < v.size(); ++i) {
            if (v[i] == '%' && i + 2 < v.size() && std::isxdigit(static_cast<unsigned char>(v[i + 1])) &&
                std::isxdigit(static_cast<unsigned char>(v[i + 2]))) {
                out += char(std::stoi(std::string(v.substr(i + 1, 2)), nullptr, 16));
                i += 2;
            } else {
                out += v[i] == '+' ? ' ' : v[i];
            }
        }
        return out;
    }
    return "";
}

}  // namespace kd::core::net
