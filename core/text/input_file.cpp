#include "text/input_file.hpp"

#include "error.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace kd::core {

namespace {

std::string mebibytes(size_t bytes) {
    return std::to_string(bytes >> 20) + " MiB";
}

}  // namespace

void check_input_file(const std::filesystem::path& path, std::string_view what) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw Error(path.string(), "cannot read " + std::string(what) + ": " + std::strerror(errno));
    if (S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)) return;
    const char* is = S_ISDIR(st.st_mode)                          ? "a directory"
                     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                     : S_ISSOCK(st.st_mode)                       ? "a socket"
                                                                  : "not a regular file";
    throw Error(path.string(), std::string(what) + " is " + is, "give the path of a regular file or a pipe");
}

std::string read_small_file(const std::filesystem::path& path, size_t limit, std::string_view what) {
    check_input_file(path, what);
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    auto fail = [&] { return Error(path.string(), "cannot read " + std::string(what) + ": " + std::strerror(errno)); };
    if (!f) throw fail();
    std::string text;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) {
        text.append(buf, n);
        if (text.size() > limit)
            throw Error(path.string(), std::string(what) + " is larger than " + mebibytes(limit) + " (the limit)",
                        "is it the right file?");
    }
    if (std::ferror(f.get())) throw fail();
    return text;
}

}  // namespace kd::core
