// Reading deploy/'s manifests in tests: every YAML document of a file, lookups by kind/name, and
// what `kubectl kustomize` renders (skipped without kubectl).
#pragma once

#include "run_command.hpp"

#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace kd::test {

inline std::filesystem::path deploy_dir() {
    return KDESCHED_DEPLOY_DIR;
}

// The repository: profiles/, docs/, core/ (deploy/'s parent).
inline std::filesystem::path source_dir() {
    return deploy_dir().parent_path();
}

inline std::string read_text(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

inline std::vector<YAML::Node> documents(const std::filesystem::path& file) {
    return YAML::LoadAllFromFile(file.string());
}

// The one document of `kind` named `name` in `file` (a null node when there is none).
inline YAML::Node find(const std::filesystem::path& file, const std::string& kind, const std::string& name) {
    for (const auto& doc : documents(file))
        if (doc["kind"].as<std::string>() == kind && doc["metadata"]["name"].as<std::string>() == name) return doc;
    return YAML::Node();
}

// deploy/base's Deployment (the test fails without it).
inline YAML::Node base_deployment() {
    YAML::Node d = find(deploy_dir() / "base/deployment.yaml", "Deployment", "kdesched");
    REQUIRE(d.IsMap());
    return d;
}

// `kubectl kustomize DIR`'s documents, or nothing (and SKIPPED printed) without kubectl.
inline std::optional<std::vector<YAML::Node>> kustomize_path(const std::filesystem::path& dir) {
    if (run_command("command -v kubectl").exit_code != 0) {
        std::printf("SKIPPED: kubectl is not installed (needed to render %s)\n", dir.c_str());
        return std::nullopt;
    }
    // stdout only: kubectl's warnings on stderr must not reach the YAML parser.
    auto r = run_command("(kubectl kustomize " + quote(dir.string()) + " 2>/dev/null)");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    return YAML::LoadAll(r.output);
}

// The same for a folder of deploy/ ("." is the whole of it).
inline std::optional<std::vector<YAML::Node>> kustomize(const std::string& dir) {
    return kustomize_path(deploy_dir() / dir);
}

// The first rendered document of `kind` (the test fails without one).
inline YAML::Node rendered(const std::vector<YAML::Node>& docs, const std::string& kind) {
    for (const auto& d : docs)
        if (d["kind"].as<std::string>() == kind) return d;
    FAIL("kustomize rendered no " << kind);
    return YAML::Node();
}

// The rendered document of `kind` named `name` (a null node when there is none).
inline YAML::Node rendered(const std::vector<YAML::Node>& docs, const std::string& kind, const std::string& name) {
    for (const auto& d : docs)
        if (d["kind"].as<std::string>() == kind && d["metadata"]["name"].as<std::string>() == name) return d;
    return YAML::Node();
}

}  // namespace kd::test
