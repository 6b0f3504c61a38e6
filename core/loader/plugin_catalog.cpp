#include "loader/plugin_catalog.hpp"

#include "error.hpp"

#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <set>

namespace kd::core {

namespace fs = std::filesystem;

class PluginLibrary {
public:
    explicit PluginLibrary(boost::dll::shared_library lib) : lib_(std::move(lib)) {}
    boost::dll::shared_library& lib() { return lib_; }

private:
    boost::dll::shared_library lib_;
};

namespace {

// Smallest struct sizes a 1.x plugin can hand us: everything 1.0 defined.
constexpr size_t kMinModuleSize = offsetof(kd_module, plugin_count) + sizeof(size_t);
constexpr size_t kMinDescriptorSize = offsetof(kd_plugin_descriptor, evict) + sizeof(void*);

bool is_elf(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    char magic[4] = {};
    in.read(magic, 4);
    return in.gcount() == 4 && std::memcmp(magic,
                                           "\x7f"
                                           "ELF",
                                           4) == 0;
}

// Boost.DLL appends an unrelated errno text; keep the dlerror part, which says what happened.
std::string dl_message(const std::exception& e) {
    std::string m = e.what();
    auto open = m.find("(dlerror system message: ");
    if (open == std::string::npos) return m;
    auto start = open + std::strlen("(dlerror system message: ");
    auto close = m.find("):", start);
    return m.substr(start, close == std::string::npos ? std::string::npos : close - start);
}

std::string check_descriptor(const kd_plugin_descriptor* d, size_t index) {
    std::string at = "plugin #" + std::to_string(index);
    if (!d) return at + " descriptor is NULL";
    if (d->struct_size < kMinDescriptorSize)
        return at + " descriptor is " + std::to_string(d->struct_size) + " bytes, API 1.0 needs at least " +
               std::to_string(kMinDescriptorSize);
    if (!d->name || !*d->name) return at + " has no name";
    std::string name = d->name;
    if (!std::all_of(name.begin(), name.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
        }))
        return "plugin \"" + name + "\" has an invalid name (use letters, digits, '-', '_', '.')";
    if (!d->version || !*d->version) return "plugin \"" + name + "\" has no version";
    if (!d->create || !d->destroy) return "plugin \"" + name + "\" lacks the required create/destroy hooks";
    if ((d->filter == nullptr) != (d->pre_eviction_filter == nullptr))
        return "plugin \"" + name + "\" sets only one of filter/pre_eviction_filter; a filter plugin implements both";
    if (!d->deschedule && !d->balance && !d->filter && !d->evict)
        return "plugin \"" + name + "\" implements no extension point";
    return "";
}

}  // namespace

kd_version host_api_version() {
    return {KD_API_VERSION_MAJOR, KD_API_VERSION_MINOR, KD_API_VERSION_PATCH};
}

std::string version_text(const kd_version& v) {
    return std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
}

fs::path default_plugin_directory() {
    return fs::path(boost::dll::program_location().parent_path().string()) / ".." / "lib" / "kdesched" / "plugins";
}

std::string check_module(const kd_module* m, const kd_version& host) {
    if (!m) return "kdesched_module() returned NULL";
    if (m->struct_size < offsetof(kd_module, api_version) + sizeof(kd_version))
        return "module descriptor too small (" + std::to_string(m->struct_size) + " bytes) to carry an API version";
    if (m->api_version.major != host.major)
        return "built against plugin API " + version_text(m->api_version) + " but this kdesched implements " +
               version_text(host) + " (major versions differ; rebuild the plugin against the kdesched SDK " +
               std::to_string(host.major) + ".x)";
    if (m->api_version.minor > host.minor)
        return "built against plugin API " + version_text(m->api_version) + ", newer than this kdesched's " +
               version_text(host) + " (upgrade kdesched, or rebuild the plugin against SDK " + version_text(host) + ")";
    if (m->struct_size < kMinModuleSize)
        return "module descriptor is " + std::to_string(m->struct_size) + " bytes, API 1.0 needs at least " +
               std::to_string(kMinModuleSize);
    if (m->plugin_count == 0 || !m->plugins) return "module lists no plugins";
    for (size_t i = 0; i < m->plugin_count; ++i) {
        std::string p = check_descriptor(m->plugins[i], i);
        if (!p.empty()) return p;
    }
    return "";
}

std::vector<std::string> PluginEntry::extension_points() const {
    std::vector<std::string> out;
    if (descriptor->deschedule) out.push_back("deschedule");
    if (descriptor->balance) out.push_back("balance");
    if (descriptor->filter) out.push_back("filter");
    if (descriptor->evict) out.push_back("evict");
    return out;
}

kd_status (*PluginEntry::tick_hook() const)(kd_plugin_instance*, const kd_call*, int64_t*, kd_error_sink*) {
    // A 1.0 descriptor ends before the field.
    if (descriptor->struct_size < offsetof(kd_plugin_descriptor, tick) + sizeof(descriptor->tick)) return nullptr;
    return descriptor->tick;
}

bool PluginEntry::implements(const std::string& point) const {
    auto pts = extension_points();
    return std::find(pts.begin(), pts.end(), point) != pts.end();
}

void PluginCatalog::load_library(const fs::path& file) {
    std::string where = file.string();
    if (!fs::exists(file)) throw Error(where, "plugin file does not exist", "check --plugin-dir");
    if (fs::is_directory(file))
        throw Error(where, "a directory, not a plugin library", "rename or remove it from the plugin directory");
    if (!is_elf(file))
        throw Error(where, "not a shared library (no ELF header)", "remove it from the plugin directory");
    boost::dll::shared_library lib;
    try {
        lib.load(boost::dll::fs::path(fs::absolute(file).string()), boost::dll::load_mode::rtld_now);
    } catch (const std::exception& e) {
        throw Error(where, "cannot load plugin library: " + dl_message(e),
                    "it must be a kdesched plugin built for this platform with all its dependencies installed");
    }
    if (!lib.has(KD_MODULE_ENTRY_SYMBOL))
        throw Error(where, "no entry point: the library does not export \"" KD_MODULE_ENTRY_SYMBOL "\"",
                    "build it with KDESCHED_PLUGIN or KDESCHED_MODULE from the kdesched SDK");
    auto entry = lib.get<const kd_module*()>(KD_MODULE_ENTRY_SYMBOL);
    const kd_module* module = entry();
    std::string problem = check_module(module, host_);
    if (!problem.empty()) throw Error(where, "plugin refused: " + problem);
    auto shared = std::make_shared<PluginLibrary>(std::move(lib));
    for (size_t i = 0; i < module->plugin_count; ++i) {
        const kd_plugin_descriptor* d = module->plugins[i];
        add({d->name, d->version, module->api_version, where, d, shared});
    }
}

void PluginCatalog::load(const std::vector<fs::path>& directories, const std::vector<fs::path>& files) {
    std::vector<fs::path> all = files;
    std::vector<std::string> problems;
    for (const auto& dir : directories) {
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) {
            problems.push_back(dir.string() + ": plugin directory does not exist or is not a directory");
            continue;
        }
        std::vector<fs::path> found;
        for (const auto& e : fs::directory_iterator(dir, ec))
            if (e.path().extension() == ".so") found.push_back(e.path());
        std::sort(found.begin(), found.end());
        all.insert(all.end(), found.begin(), found.end());
    }
    // A file reached twice (a directory named again, a symlink, "a/../a") is one library: load it once.
    std::set<fs::path> seen;
    for (const auto& f : all) {
        std::error_code ec;
        fs::path real = fs::canonical(f, ec);
        if (!ec && !seen.insert(real).second) continue;
        try {
            load_library(f);
        } catch (const Error& e) {
            problems.push_back(e.what());
        }
    }
    if (!problems.empty())
        throw Error(std::to_string(problems.size()) + " plugin problem(s); fix or remove these files:", problems);
}

void PluginCatalog::add_in_process(const kd_module* module) {
    std::string problem = check_module(module, host_);
    if (!problem.empty()) throw Error("<in-process>", "plugin refused: " + problem);
    for (size_t i = 0; i < module->plugin_count; ++i) {
        const kd_plugin_descriptor* d = module->plugins[i];
        add({d->name, d->version, module->api_version, "<in-process>", d, nullptr});
    }
}

void PluginCatalog::add(PluginEntry entry) {
    if (const PluginEntry* prev = find(entry.name))
        throw Error(entry.file, "duplicate plugin name \"" + entry.name + "\", already loaded from " + prev->file,
                    "keep only one library providing it");
    entries_.push_back(std::move(entry));
}

const PluginEntry* PluginCatalog::find(const std::string& name) const {
    for (const auto& e : entries_)
        if (e.name == name) return &e;
    return nullptr;
}

std::string PluginCatalog::names() const {
    std::string out;
    for (const auto& e : entries_) out += (out.empty() ? "" : ", ") + e.name;
    return out.empty() ? "none" : out;
}

}  // namespace kd::core
