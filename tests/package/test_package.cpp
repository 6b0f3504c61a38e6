// The Debian package, built with CPack from this build tree and unpacked into a temporary root:
// its dependencies are the packages of the libraries its binaries link (computed, not listed),
// it holds what an operator and a plugin author need where they expect it, the unpacked binary
// finds our plugins in the installed folder and runs the default simulation, and
// deploy/Dockerfile's runtime stage matches it. (.ci/run also installs it with apt-get.)
#include "run_command.hpp"

#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const std::string kBuild = KDESCHED_BINARY_DIR;
const std::string kSource = KDESCHED_SOURCE_DIR;

std::string trim(std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.erase(s.begin());
    return s;
}

// The package the fixture test made (cpack into KDESCHED_PACKAGE_DIR), unpacked into a root of
// this process's own; without dpkg's tools every test prints SKIPPED.
struct Package {
    std::string deb, root, skipped;
    ~Package() {
        std::error_code ec;
        if (!root.empty()) fs::remove_all(root, ec);
    }
};

const Package& package() {
    static Package p = [] {
        Package out;
        if (run_command("command -v dpkg-deb && command -v dpkg-shlibdeps").exit_code != 0) {
            out.skipped = "dpkg-deb or dpkg-shlibdeps is not installed";
            return out;
        }
        for (const auto& e : fs::directory_iterator(KDESCHED_PACKAGE_DIR))
            if (e.path().extension() == ".deb") out.deb = e.path().string();
        REQUIRE_FALSE(out.deb.empty());
        fs::path root = fs::temp_directory_path() / ("kdesched-package-" + std::to_string(::getpid()));
        fs::remove_all(root);
        fs::create_directories(root);
        out.root = root.string();
        REQUIRE(run_command("dpkg-deb -x " + quote(out.deb) + " " + quote(out.root)).exit_code == 0);
        return out;
    }();
    return p;
}

bool skip() {
    if (package().skipped.empty()) return false;
    std::printf("SKIPPED: %s\n", package().skipped.c_str());
    return true;
}

// Package names of a Depends field ("libc6 (>= 2.34), libfoo1 | libbar" → {libc6, libfoo1, libbar}).
std::set<std::string> depends() {
    std::string field = trim(run_command("dpkg-deb -f " + quote(package().deb) + " Depends").output);
    std::set<std::string> out;
    std::regex name(R"(([a-z0-9][a-z0-9.+-]+)(\s*\([^)]*\))?)");
    for (std::sregex_iterator it(field.begin(), field.end(), name), end; it != end; ++it) out.insert((*it)[1]);
    return out;
}

// The Debian package owning a library path ldd printed (usrmerge: try the /usr and / forms).
std::string owner(const std::string& path) {
    std::vector<std::string> candidates{path, fs::weakly_canonical(path).string()};
    for (const auto& c : std::vector<std::string>(candidates))
        candidates.push_back(c.rfind("/usr/", 0) == 0 ? c.substr(4) : "/usr" + c);
    for (const auto& c : candidates) {
        auto r = run_command("dpkg -S " + quote(c));
        if (r.exit_code == 0) return r.output.substr(0, r.output.find_first_of(":,"));
    }
    return "<no package owns " + path + ">";
}

// The packages owning the libraries the binaries name in DT_NEEDED (not what those pull in).
std::set<std::string> needed_packages(const std::vector<fs::path>& elves) {
    std::set<std::string> out;
    std::regex needed(R"(\(NEEDED\)\s+Shared library: \[(\S+)\])");
    for (const auto& elf : elves) {
        std::string dynamic = run_command("readelf -d " + quote(elf.string())).output;
        std::map<std::string, std::string> resolved;  // soname → path, as the loader finds it
        std::istringstream ldd(run_command("ldd " + quote(elf.string())).output);
        std::regex line(R"(^\s*(\S+) => (/\S+) \(0x)"), loader(R"(^\s*(/\S+) \(0x)");
        for (std::string l; std::getline(ldd, l);) {
            std::smatch m;
            if (std::regex_search(l, m, line))
                resolved[m[1]] = m[2];
            else if (std::regex_search(l, m, loader))
                resolved[fs::path(m[1].str()).filename()] = m[1];
        }
        for (std::sregex_iterator it(dynamic.begin(), dynamic.end(), needed), end; it != end; ++it) {
            std::string soname = (*it)[1];
            out.insert(resolved.count(soname) ? owner(resolved[soname]) : "<" + soname + " not found>");
        }
    }
    return out;
}

// The names a package answers to: its own and what it Provides ("libspdlog1.10-fmt9").
std::set<std::string> names_of(const std::string& package) {
    std::set<std::string> out{package};
    std::string provides = run_command("dpkg-query -W -f='${Provides}' " + quote(package)).output;
    std::regex name(R"(([a-z0-9][a-z0-9.+-]+)(\s*\([^)]*\))?)");
    for (std::sregex_iterator it(provides.begin(), provides.end(), name), end; it != end; ++it) out.insert((*it)[1]);
    return out;
}

std::vector<fs::path> binaries() {
    std::vector<fs::path> out{fs::path(package().root) / "usr/bin/kdesched",
                              fs::path(package().root) / "usr/bin/kdesched-generate"};
    for (const auto& e : fs::directory_iterator(fs::path(package().root) / "usr/lib/kdesched/plugins"))
        out.push_back(e.path());
    return out;
}

std::string lowercase(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string read_file(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The runtime (last) stage of deploy/Dockerfile: its lines, continuations joined.
std::vector<std::string> runtime_stage() {
    std::istringstream in(read_file(kSource + "/deploy/Dockerfile"));
    std::vector<std::string> stage;
    std::string pending;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        if (!line.empty() && line.back() == '\\') {
            pending += line.substr(0, line.size() - 1);
            continue;
        }
        line = pending + line;
        pending.clear();
        if (line.rfind("FROM ", 0) == 0) stage.clear();
        stage.push_back(line);
    }
    return stage;
}

std::string instruction(const std::string& name) {
    for (const auto& l : runtime_stage())
        if (l.rfind(name + " ", 0) == 0) return l.substr(name.size() + 1);
    return "";
}

}  // namespace

TEST_CASE("package: its dependencies are the Debian packages of the libraries its binaries link") {
    if (skip()) return;
    std::set<std::string> owners = needed_packages(binaries()), deps = depends();
    INFO("Depends: " << YAML::Node(std::vector<std::string>(deps.begin(), deps.end())));
    INFO("owners of DT_NEEDED: " << YAML::Node(std::vector<std::string>(owners.begin(), owners.end())));
    for (const auto& o : owners) {  // every library linked is depended on …
        std::set<std::string> names = names_of(o);
        bool depended = false;
        for (const auto& n : names) depended = depended || deps.count(n);
        INFO("linked, from " << o);
        CHECK(depended);
    }
    for (const auto& d : deps) {  // … and nothing else is
        bool linked = false;
        for (const auto& o : owners) linked = linked || names_of(o).count(d);
        INFO("depended on: " << d);
        CHECK(linked);
    }
    CHECK(deps.count("libyaml-cpp0.7"));  // the profile parser, for one
}

TEST_CASE("package: the binary, our plugins, the SDK, the two profiles as conffiles, copyright and changelog") {
    if (skip()) return;
    fs::path root = package().root;
    for (const char* path : {"usr/bin/kdesched", "usr/lib/kdesched/plugins/kdesched_lownodeload.so",
                             "usr/lib/kdesched/plugins/kdesched_migrationcontroller.so",
                             "usr/lib/kdesched/plugins/kdesched_defaultevictor.so",
                             "usr/lib/kdesched/plugins/kdesched_sigs.so", "usr/include/kdesched/abi.h",
                             "usr/include/kdesched/plugin.hpp", "usr/lib/cmake/kdesched-sdk/kdesched-sdkConfig.cmake",
                             "usr/lib/cmake/kdesched-sdk/kdesched-sdkConfigVersion.cmake",
                             "usr/share/doc/kdesched/copyright", "usr/share/doc/kdesched/changelog.gz"}) {
        INFO(path);
        CHECK(fs::exists(root / path));
    }
    CHECK(read_file(root / "etc/kdesched/default.yaml") == read_file(kSource + "/profiles/default.yaml"));
    CHECK(read_file(root / "etc/kdesched/load-aware.yaml") == read_file(kSource + "/profiles/load-aware.yaml"));
    auto conffiles = run_command("dpkg-deb -I " + quote(package().deb) + " conffiles");
    CHECK(trim(conffiles.output) == "/etc/kdesched/default.yaml\n/etc/kdesched/load-aware.yaml");
    CHECK(trim(run_command("dpkg-deb -f " + quote(package().deb) + " Package Version").output) ==
          "Package: kdesched\nVersion: " KDESCHED_VERSION);
}

TEST_CASE("package: the unpacked kdesched finds our three plugins and simulates with the installed profiles") {
    if (skip()) return;
    std::string bin = quote(package().root + "/usr/bin/kdesched");
    auto version = run_command(bin + " version");
    CHECK(version.exit_code == 0);
    CHECK_THAT(version.output, Catch::Contains(KDESCHED_VERSION));
    auto plugins = run_command(bin + " plugins");
    INFO(plugins.output);
    CHECK(plugins.exit_code == 0);
    for (const char* name : {"LowNodeLoad", "MigrationController", "DefaultEvictor"}) {
        std::string library = "kdesched_" + lowercase(name) + ".so";
        CHECK_THAT(plugins.output, Catch::Contains(std::string(name) + "\t1.0.0\t") &&
                                       Catch::Contains(package().root + "/usr/lib/kdesched/plugins/" + library));
    }
    // load-aware.yaml relieves the embedded hotspot; default.yaml, Koordinator's, balances nothing.
    auto sim =
        run_command(bin + " simulate --cycles 6 --config " + quote(package().root + "/etc/kdesched/load-aware.yaml"));
    INFO(sim.output);
    CHECK(sim.exit_code == 0);
    CHECK_THAT(sim.output, Catch::Contains("shop/api-7c9f8d6b5-606ef  on node-1  accepted  by LowNodeLoad"));
    CHECK_THAT(sim.output, Catch::Contains("1 pod(s) moved"));
    auto still =
        run_command(bin + " simulate --cycles 6 --config " + quote(package().root + "/etc/kdesched/default.yaml"));
    INFO(still.output);
    CHECK(still.exit_code == 0);
    CHECK_THAT(still.output, Catch::Contains("0 pod(s) moved"));
}

TEST_CASE("package: deploy/Dockerfile's runtime stage installs exactly its dependencies and runs its binary") {
    if (skip()) return;
    std::string run_apt;
    for (const auto& l : runtime_stage())
        if (l.find("apt-get install") != std::string::npos) run_apt = l;
    REQUIRE_FALSE(run_apt.empty());
    std::string list = run_apt.substr(run_apt.find("apt-get install") + 15);
    list = list.substr(0, list.find("&&"));
    std::set<std::string> installed;
    std::istringstream words(list);
    for (std::string w; words >> w;)
        if (w[0] != '-') installed.insert(w);
    std::set<std::string> deps = depends();
#ifdef KDESCHED_SANITIZE
    // This build links the sanitizer runtimes; the image is a Release build without them.
    for (auto it = deps.begin(); it != deps.end();)
        it = it->rfind("libasan", 0) == 0 || it->rfind("libubsan", 0) == 0 ? deps.erase(it) : std::next(it);
#endif
    CHECK(installed == deps);
    // The entrypoint is the packaged binary in exec form (no shell); the default config is packaged.
    CHECK(instruction("ENTRYPOINT") == R"(["/usr/bin/kdesched"])");
    CHECK(fs::exists(fs::path(package().root) / "usr/bin/kdesched"));
    CHECK_THAT(instruction("CMD"), Catch::Contains(R"("/etc/kdesched/default.yaml")"));
    // A non-root user, the one the Deployment runs as.
    YAML::Node d = YAML::LoadFile(kSource + "/deploy/base/deployment.yaml");
    std::string uid = std::to_string(d["spec"]["template"]["spec"]["securityContext"]["runAsUser"].as<int>());
    CHECK(instruction("USER") == uid + ":" + uid);
}

TEST_CASE("package: a plugin builds against the packaged SDK and the third-party overlay's profile loads it") {
    if (skip()) return;
    fs::path build = fs::path(package().root) / "pod-age-limit";
    auto configure =
        run_command("cmake -S " + quote(kSource + "/examples/pod-age-limit") + " -B " + quote(build.string()) +
                    " -DCMAKE_PREFIX_PATH=" + quote(package().root + "/usr") + " -DCMAKE_BUILD_TYPE=Release");
    INFO(configure.output);
    REQUIRE(configure.exit_code == 0);
    auto made = run_command("cmake --build " + quote(build.string()) + " --target pod_age_limit");
    INFO(made.output);
    REQUIRE(made.exit_code == 0);
    // The library the plugin image and the overlay's initContainer name.
    REQUIRE(fs::exists(build / "pod_age_limit.so"));
    auto validate =
        run_command(quote(package().root + "/usr/bin/kdesched") + " validate --plugin-dir " + quote(build.string()) +
                    " --config " + quote(kSource + "/deploy/overlays/third-party-plugin/profile.yaml"));
    INFO(validate.output);
    CHECK(validate.exit_code == 0);
    CHECK_THAT(read_file(kSource + "/examples/pod-age-limit/Dockerfile"),
               Catch::Contains("COPY --from=build /build/pod_age_limit.so /plugins/pod_age_limit.so"));
}
