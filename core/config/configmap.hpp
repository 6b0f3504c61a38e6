// Koordinator ships its configuration as a ConfigMap (data["koord-descheduler-config"]); such a
// file is accepted as is, and the embedded text is then loaded as the configuration.
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>

namespace kd::core {

struct EmbeddedConfiguration {
    std::string text;
    std::string origin;  // "file[data.<key>]": locations inside it are relative to the embedded text
};

// nullopt when `root` is not a ConfigMap. Otherwise the one data value holding a
// DeschedulerConfiguration; throws kd::core::Error when there is none or several.
std::optional<EmbeddedConfiguration> embedded_configuration(const YAML::Node& root, const std::string& origin);

}  // namespace kd::core
