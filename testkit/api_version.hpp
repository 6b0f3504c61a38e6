// The plugin API version this build implements, as kdesched prints it ("1.3.0"), so tests follow
// a minor bump of sdk/include/kdesched/abi.h instead of naming one.
#pragma once

#include <kdesched/abi.h>

#include <string>

namespace kd_test {

inline std::string api_version(int major = KD_API_VERSION_MAJOR, int minor = KD_API_VERSION_MINOR,
                               int patch = KD_API_VERSION_PATCH) {
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

// The same with its dots escaped for a regular expression.
inline std::string api_version_pattern() {
    std::string out;
    for (char c : api_version()) out += c == '.' ? std::string("\\.") : std::string(1, c);
    return out;
}

}  // namespace kd_test
