// A fresh temporary directory for a test, removed with everything in it when the object goes.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include <stdlib.h>

namespace kd_test {

struct TempDir {
    std::filesystem::path path;
    // mkdtemp: unique even among tests of one process and tests run in parallel.
    explicit TempDir(const std::string& name = "test") {
        std::string tmpl = (std::filesystem::temp_directory_path() / ("kdesched-" + name + "-XXXXXX")).string();
        path = mkdtemp(tmpl.data());
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    // Writes `text` to the file `name` in the directory; returns its path.
    std::string write(const std::string& name, const std::string& text) const {
        std::ofstream(path / name, std::ios::binary) << text;
        return (path / name).string();
    }
};

}  // namespace kd_test
