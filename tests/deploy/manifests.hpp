// Reading deploy/'s manifests in tests: every YAML document of a file, and lookups by kind/name.
#pragma once

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <string>
#include <vector>

namespace kd::test {

inline std::filesystem::path deploy_dir() {
    return KDESCHED_DEPLOY_DIR;
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

}  // namespace kd::test
