#include "net/base64.hpp"

#include <cstdint>

namespace kd::core::net {

namespace {

int sextet(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

}  // namespace

std::optional<std::string> decode_base64(std::string_view text) {
    if (text.size() % 4 != 0) return std::nullopt;
    std::string out;
    out.reserve(text.size() / 4 * 3);
    for (size_t i = 0; i < text.size(); i += 4) {
        const bool last = i + 4 == text.size();
        // Padding only at the very end: "xx==" or "xxx=".
        int pad = last ? (text[i + 3] == '=') + (text[i + 2] == '=' && text[i + 3] == '=') : 0;
        uint32_t group = 0;
        for (int k = 0; k < 4 - pad; ++k) {
            int v = sextet(text[i + k]);
            if (v < 0) return std::nullopt;
            group = group << 6 | static_cast<uint32_t>(v);
        }
        group <<= 6 * pad;
        out += static_cast<char>(group >> 16 & 0xff);
        if (pad < 2) out += static_cast<char>(group >> 8 & 0xff);
        if (pad < 1) out += static_cast<char>(group & 0xff);
    }
    return out;
}

}  // namespace kd::core::net
