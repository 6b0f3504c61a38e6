// The plugins this host can instantiate: loaded from shared libraries (Boost.DLL) after a strict
// ABI check, or registered in-process (tests). Libraries stay loaded while any instance lives.
#pragma once

#include <kdesched/abi.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace kd::core {

// The host's own API version.
kd_version host_api_version();

// Keeps a plugin library mapped; shared by its catalog entries and every instance created from them.
class PluginLibrary;

struct PluginEntry {
    std::string name;
    std::string version;     // the plugin's own version
    kd_version api_version;  // the API the module targets (the SDK's unless built for older hosts)
    std::string file;        // library path, or "<in-process>"
    const kd_plugin_descriptor* descriptor = nullptr;
    std::shared_ptr<PluginLibrary> library;  // null for in-process plugins
    // Extension points this plugin implements ("deschedule", "balance", "filter", "evict").
    std::vector<std::string> extension_points() const;
    bool implements(const std::string& point) const;
    // The periodic hook (API 1.1), or nullptr when the plugin has none or predates it.
    kd_status (*tick_hook() const)(kd_plugin_instance*, const kd_call*, int64_t*, kd_error_sink*);
};

class PluginCatalog {
public:
    PluginCatalog() = default;
    // A catalog that checks modules as a host of API `host` would (tests: an older host's view of
    // a plugin built for an older target).
    explicit PluginCatalog(kd_version host) : host_(host) {}
    // Loads every *.so in each directory (sorted by name) and every file given. Collects every
    // problem (not a plugin library, no entry point, ABI mismatch, bad descriptor, duplicate
    // name) and throws one Error listing them all: a bad plugin file is never half-loaded.
    void load(const std::vector<std::filesystem::path>& directories,
              const std::vector<std::filesystem::path>& files = {});
    // Loads one library; throws Error naming the file on any problem.
    void load_library(const std::filesystem::path& file);
    // Registers descriptors compiled into the host (tests, embedding).
    void add_in_process(const kd_module* module);

    const PluginEntry* find(const std::string& name) const;
    const std::vector<PluginEntry>& entries() const { return entries_; }
    std::string names() const;  // "A, B, C" for messages

private:
    void add(PluginEntry entry);
    kd_version host_ = host_api_version();
    std::vector<PluginEntry> entries_;
};

std::string version_text(const kd_version& v);

// The default plugin directory: <dir of the running binary>/../lib/kdesched/plugins.
std::filesystem::path default_plugin_directory();

// Checks a module descriptor against the ABI of a host of API `host` (default: this one's);
// returns "" or the problem.
std::string check_module(const kd_module* module, const kd_version& host = host_api_version());

}  // namespace kd::core
