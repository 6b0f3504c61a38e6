// One descheduling run in dry run against a real API server, by kdesched or by the real upstream
// kubernetes-sigs/descheduler (../shared/sig-descheduler, a test tool only: never shipped or
// linked), each given one plugin with the same args: the pods each would have evicted, read from
// the "Evicted pod in dry run mode pod=ns/name … node=…" lines both print, and the wall time.
#pragma once

#include "daemon_harness.hpp"
#include "run_command.hpp"
#include "temp_dir.hpp"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>

namespace kd_test::sigs {

struct DryRun {
    std::set<std::string> pods;           // "ns/name" of every would-be eviction
    std::map<std::string, int> per_node;  // node → would-be evictions there
    double seconds = 0;                   // the process's wall time
    int exit_code = -1;
    std::string output;
};

// The value of `key=` in a log line, quoted ("…") or bare (up to a space).
inline std::string field(const std::string& line, const std::string& key) {
    size_t at = line.find(" " + key + "=");
    if (at == std::string::npos) return "";
    at += key.size() + 2;
    if (at < line.size() && line[at] == '"') {
        size_t end = line.find('"', at + 1);
        return line.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
    }
    return line.substr(at, line.find(' ', at) - at);
}

inline DryRun parse_dry_run(BoundedResult r, double seconds) {
    DryRun d;
    d.seconds = seconds;
    d.exit_code = r.exit_code;
    std::istringstream lines(r.output);
    for (std::string line; std::getline(lines, line);) {
        if (line.find("Evicted pod in dry run mode") == std::string::npos) continue;
        d.pods.insert(field(line, "pod"));
        ++d.per_node[field(line, "node")];
    }
    d.output = std::move(r.output);
    return d;
}

inline DryRun timed(const std::vector<std::string>& argv) {
    auto start = std::chrono::steady_clock::now();
    BoundedResult r = run_bounded(argv, 60);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return parse_dry_run(std::move(r), s);
}

// One plugin of a profile as both formats say it.
struct Policy {
    Policy(std::string plugin_, std::string extension_, std::string args_, std::string top_ = "",
           std::string evictor_args_ = "")
        : plugin(std::move(plugin_)),
          extension(std::move(extension_)),
          args(std::move(args_)),
          top(std::move(top_)),
          evictor_args(std::move(evictor_args_)) {}
    std::string plugin, extension;  // extension: "deschedule" or "balance"
    std::string args;               // the plugin's args, JSON
    std::string top;                // top-level lines both formats share ("maxNoOfPodsToEvictPerNode: 1\n")
    std::string evictor_args;       // DefaultEvictor's args, JSON ("": its defaults)

    std::string plugin_config() const {
        std::string out = "  pluginConfig:\n  - name: " + plugin + "\n    args: " + args + "\n";
        if (!evictor_args.empty()) out += "  - name: DefaultEvictor\n    args: " + evictor_args + "\n";
        return out;
    }
};

// kdesched reads upstream's DeschedulerPolicy, but a policy has no dryRun (upstream's is a flag,
// --dry-run, which `kdesched run` lacks): the same plugin and args in the koord-descheduler format,
// with DefaultEvictor as the filter and evict plugin (upstream adds it), one cycle, dry run.
inline std::string kdesched_config(const Policy& p, int port) {
    std::string bind = "127.0.0.1:" + std::to_string(port);
    // Each extension point without koord's defaults, the plugin's own with the plugin.
    auto point = [&](const std::string& name) {
        return "    " + name + ":\n      disabled:\n        - name: \"*\"\n" +
               (name == p.extension ? "      enabled:\n        - name: " + p.plugin + "\n" : std::string());
    };
    return "apiVersion: descheduler/v1alpha2\nkind: DeschedulerConfiguration\ndeschedulingInterval: 0s\n"
           "dryRun: true\nleaderElection:\n  leaderElect: false\n" +
           p.top + "healthzBindAddress: " + bind + "\nmetricsBindAddress: " + bind +
           "\nprofiles:\n- name: sigs\n  plugins:\n" + point("deschedule") + point("balance") +
           "    evict:\n      disabled:\n        - name: \"*\"\n      enabled:\n        - name: DefaultEvictor\n"
           "    filter:\n      disabled:\n        - name: \"*\"\n      enabled:\n        - name: DefaultEvictor\n" +
           p.plugin_config();
}

// Upstream's policy: only the plugin (DefaultEvictor is added by upstream itself).
inline std::string upstream_policy(const Policy& p) {
    return "apiVersion: descheduler/v1alpha2\nkind: DeschedulerPolicy\n" + p.top + "profiles:\n- name: sigs\n" +
           p.plugin_config() + "  plugins:\n    " + p.extension + ":\n      enabled:\n      - " + p.plugin + "\n";
}

inline DryRun run_kdesched(const std::string& kubeconfig, const Policy& p) {
    TempDir dir("sigs-kdesched");
    std::string config = dir.write("config.yaml", kdesched_config(p, free_port()));
    return timed(
        {KDESCHED_BINARY, "run", "--config", config, "--kubeconfig", kubeconfig, "--plugin-dir", KDESCHED_PLUGIN_DIR});
}

// The upstream binary's path ("" when absent): KDESCHED_SIG_DESCHEDULER names its folder (with
// binary.sh, which unpacks it), else ../shared/sig-descheduler beside the source tree.
inline std::string upstream_binary() {
    const char* env = std::getenv("KDESCHED_SIG_DESCHEDULER");
    std::string dir = env && *env ? env : KDESCHED_SOURCE_DIR "/../shared/sig-descheduler";
    if (!std::ifstream(dir + "/binary.sh").good()) return "";
    CommandResult r = run_command(quote(dir + "/binary.sh"));
    std::string path = r.output;
    while (!path.empty() && (path.back() == '\n' || path.back() == '\r')) path.pop_back();
    if (r.exit_code != 0 || path.find('\n') != std::string::npos || !std::ifstream(path).good()) return "";
    return path;
}

inline DryRun run_upstream(const std::string& binary, const std::string& kubeconfig, const Policy& p) {
    TempDir dir("sigs-upstream");
    std::string policy = dir.write("policy.yaml", upstream_policy(p));
    std::filesystem::create_directories(dir.path / "certs");
    // --secure-port 0 crashes it (its README): a free port and a folder for its self-signed cert.
    return timed({binary, "--kubeconfig", kubeconfig, "--policy-config-file", policy, "--dry-run",
                  "--descheduling-interval", "0", "--leader-elect=false", "--secure-port", std::to_string(free_port()),
                  "--cert-dir", (dir.path / "certs").string(), "-v=1"});
}

}  // namespace kd_test::sigs
