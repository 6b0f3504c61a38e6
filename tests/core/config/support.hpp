// Helpers shared by the config tests: load something that must fail and return its message lines.
#pragma once

#include "config/configuration.hpp"
#include "error.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace kd::core::test {

inline const std::string kProfilesDir = KD_PROFILES_DIR;

// Replaces every occurrence of `from` in `s`.
inline std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

// Splits an Error's message into lines, with the test data directory removed from paths, so that
// "…/tests/data/profiles/invalid/x.yaml:3:1: …" reads "invalid/x.yaml:3:1: …". Element 0 is the
// heading (or the single-problem message); the problems' two-space indent is dropped.
inline std::vector<std::string> lines_of(const std::string& what) {
    std::string text = replace_all(what, kProfilesDir + "/", "");
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (line.rfind("  ", 0) == 0) line = line.substr(2);
        out.push_back(line);
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return out;
}

// The message lines of the kd::core::Error thrown by `load`; fails the test when nothing is thrown.
template <class F>
std::vector<std::string> error_lines(F&& load) {
    try {
        load();
    } catch (const kd::core::Error& e) {
        return lines_of(e.what());
    }
    FAIL("expected a kd::core::Error");
    return {};
}

inline std::vector<std::string> file_errors(const std::string& relative) {
    return error_lines([&] { load_configuration(kProfilesDir + "/" + relative); });
}

inline std::vector<std::string> text_errors(const std::string& yaml) {
    return error_lines([&] { parse_configuration(yaml, "test.yaml"); });
}

inline std::vector<std::string> names(const std::vector<PluginRef>& refs) {
    std::vector<std::string> out;
    for (const auto& r : refs) out.push_back(r.name);
    return out;
}

inline const std::string kHeader = "apiVersion: descheduler/v1alpha2\nkind: DeschedulerConfiguration\n";

}  // namespace kd::core::test
