// Files and formats: which files a path stands for, reading them, picking JSON or YAML, timing.
#include "cluster/decode/snapshot_files.hpp"

#include "cluster/decode/file_context.hpp"
#include "cluster/decode/json_input.hpp"
#include "cluster/decode/yaml_input.hpp"
#include "error.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <system_error>
#include <utility>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace kd::core {

size_t LoadReport::total_objects() const {
    size_t n = 0;
    for (const auto& [kind, count] : objects) n += count;
    return n;
}

namespace {

namespace fs = std::filesystem;

// The in-situ reader needs a '\0' after the text; the padding keeps any wide read past it inside
// the allocation.
constexpr size_t kPadding = 64;

// A file's text, writable (the JSON reader works in place). Large buffers are anonymous mappings
// with transparent huge pages where the kernel offers them: filling 200 MB of fresh 4 KB pages
// costs about as much as reading it, with 2 MB pages a fraction of that.
class Buffer {
public:
    Buffer() = default;
    explicit Buffer(size_t capacity) : capacity_(capacity) {
#ifdef __linux__
        if (capacity + kPadding >= kMapThreshold) {
            void* p = ::mmap(nullptr, capacity + kPadding, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p != MAP_FAILED) {
                ::madvise(p, capacity + kPadding, MADV_HUGEPAGE);  // a hint: fine if refused
                data_ = static_cast<char*>(p);
                mapped_ = true;
                return;
            }
        }
#endif
        data_ = new char[capacity + kPadding];
    }
    Buffer(Buffer&& o) noexcept {
        swap(o);
    }
    Buffer& operator=(Buffer&& o) noexcept {
        swap(o);
        return *this;
    }
    ~Buffer() {
        if (!data_) return;
#ifdef __linux__
        if (mapped_) {
            ::munmap(data_, capacity_ + kPadding);
            return;
        }
#endif
        delete[] data_;
    }

    char* data() const {
        return data_;
    }
    size_t size = 0;
    size_t capacity() const {
        return capacity_;
    }
    // Zeroes the padding after the text.
    void terminate() {
        std::memset(data_ + size, 0, kPadding);
    }

private:
    static constexpr size_t kMapThreshold = 4 << 20;
    void swap(Buffer& o) noexcept {
        std::swap(data_, o.data_);
        std::swap(size, o.size);
        std::swap(capacity_, o.capacity_);
        std::swap(mapped_, o.mapped_);
    }
    char* data_ = nullptr;
    size_t capacity_ = 0;
    bool mapped_ = false;
};

Buffer read_file(const fs::path& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw Error(path.string(), std::string("cannot open: ") + std::strerror(errno));
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(f, &std::fclose);
    std::error_code ec;
    size_t expected = fs::is_regular_file(path, ec) ? static_cast<size_t>(fs::file_size(path, ec)) : 0;
    if (ec) expected = 0;
    // One byte more than expected, so that reading a file of the expected size ends short of
    // the capacity and needs no second round.
    Buffer buf(std::max<size_t>(expected + 1, 1 << 16));
    // Read to the end, growing if the file is not what its size said (a pipe, a file being written).
    for (;;) {
        size_t n = std::fread(buf.data() + buf.size, 1, buf.capacity() - buf.size, f);
        buf.size += n;
        if (buf.size < buf.capacity()) {
            if (std::ferror(f)) throw Error(path.string(), std::string("cannot read: ") + std::strerror(errno));
            break;
        }
        Buffer bigger(buf.capacity() * 2);
        std::memcpy(bigger.data(), buf.data(), buf.size);
        bigger.size = buf.size;
        buf = std::move(bigger);
    }
    buf.terminate();
    return buf;
}

bool is_json(std::string_view origin, const char* text, size_t size) {
    std::string ext = fs::path(origin).extension().string();
    if (ext == ".json") return true;
    if (ext == ".yaml" || ext == ".yml") return false;
    size_t start = size >= 3 && std::memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;  // a byte order mark
    for (size_t i = start; i < size; ++i) {
        char c = text[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
        return c == '{' || c == '[';
    }
    return false;
}

bool snapshot_extension(const fs::path& p) {
    std::string ext = p.extension().string();
    return ext == ".json" || ext == ".yaml" || ext == ".yml";
}

// Decodes one file's text (in `buf`, overwritten by the JSON reader).
void decode_buffer(Buffer& buf, const std::string& origin, std::function<std::string()> original, ObjectSink& sink,
                   LoadReport& report) {
    ++report.files;
    report.bytes += buf.size;
    decode::FileContext ctx(origin, sink, std::move(original));
    auto started = std::chrono::steady_clock::now();
    if (is_json(origin, buf.data(), buf.size))
        decode::decode_json(buf.data(), buf.size, ctx);
    else
        decode::decode_yaml(std::string_view(buf.data(), buf.size), ctx);
    report.decode_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    size_t notes_before = report.notes.size(), objects_before = report.total_objects();
    ctx.close(report);
    if (report.total_objects() == objects_before && report.notes.size() == notes_before)
        report.notes.push_back(origin + ": no objects");
}

void load_file(const fs::path& path, ObjectSink& sink, LoadReport& report) {
    Buffer buf = read_file(path);
    std::string origin = path.string();
    // Only for an error's line:column: the JSON reader has overwritten the buffer by then.
    auto original = [path] {
        Buffer again = read_file(path);
        return std::string(again.data(), again.size);
    };
    decode_buffer(buf, origin, original, sink, report);
}

}  // namespace

LoadReport load_cluster_files(const std::vector<fs::path>& files_or_dirs, ObjectSink& sink) {
    LoadReport report;
    for (const fs::path& p : files_or_dirs) {
        std::error_code ec;
        fs::file_status st = fs::status(p, ec);
        if (!fs::exists(st))
            throw Error(p.string(),
                        ec && ec != std::errc::no_such_file_or_directory ? ec.message() : "no such file or directory");
        if (!fs::is_directory(st)) {
            load_file(p, sink, report);
            continue;
        }
        std::vector<fs::path> files;
        for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code file_ec;
            if (snapshot_extension(it->path()) && it->is_regular_file(file_ec)) files.push_back(it->path());
        }
        if (ec) throw Error(p.string(), "cannot list the directory: " + ec.message());
        std::sort(files.begin(), files.end());
        if (files.empty()) report.notes.push_back(p.string() + ": no *.json, *.yaml or *.yml files");
        for (const fs::path& f : files) load_file(f, sink, report);
    }
    return report;
}

LoadReport load_cluster_text(std::string_view text, const std::string& origin, ObjectSink& sink) {
    LoadReport report;
    Buffer buf(text.size());
    std::memcpy(buf.data(), text.data(), text.size());
    buf.size = text.size();
    buf.terminate();
    decode_buffer(
        buf, origin, [text] { return std::string(text); }, sink, report);
    return report;
}

}  // namespace kd::core
