#include "config/configmap.hpp"

#include "error.hpp"

#include <utility>
#include <vector>

namespace kd::core {

namespace {

std::string scalar_at(const YAML::Node& map, const char* key) {
    const YAML::Node v = map[key];
    return v.IsDefined() && v.IsScalar() ? v.Scalar() : "";
}

// A data value is the configuration when it parses to a DeschedulerConfiguration. One that does
// not parse but names the kind is kept too, so its syntax error is reported rather than "none".
bool holds_configuration(const std::string& text) {
    try {
        YAML::Node n = YAML::Load(text);
        return n.IsMap() && scalar_at(n, "kind") == "DeschedulerConfiguration";
    } catch (const YAML::Exception&) {
        return text.find("DeschedulerConfiguration") != std::string::npos;
    }
}

std::string join(const std::vector<std::string>& keys) {
    std::string out;
    for (const auto& k : keys) out += (out.empty() ? "" : ", ") + k;
    return out;
}

}  // namespace

std::optional<EmbeddedConfiguration> embedded_configuration(const YAML::Node& root, const std::string& origin) {
    if (!root.IsMap() || scalar_at(root, "kind") != "ConfigMap") return std::nullopt;
    const YAML::Node metadata = root["metadata"];
    std::string name = metadata.IsDefined() && metadata.IsMap() ? scalar_at(metadata, "name") : "";
    std::string what = name.empty() ? "the ConfigMap" : "ConfigMap \"" + name + "\"";

    std::vector<std::pair<std::string, std::string>> values;  // string data values, in file order
    const YAML::Node data = root["data"];
    if (data.IsDefined() && data.IsMap())
        for (auto it = data.begin(); it != data.end(); ++it)
            if (it->first.IsScalar() && it->second.IsScalar())
                values.emplace_back(it->first.Scalar(), it->second.Scalar());

    std::vector<std::pair<std::string, std::string>> found;
    for (const auto& v : values)
        if (holds_configuration(v.second)) found.push_back(v);
    // A lone data value is the only candidate: load it and let its own errors speak.
    if (found.empty() && values.size() == 1) found = values;

    std::vector<std::string> keys;
    for (const auto& v : (found.empty() ? values : found)) keys.push_back(v.first);
    if (found.empty())
        throw Error(origin,
                    what + " has no data value holding a DeschedulerConfiguration" +
                        (keys.empty() ? std::string(" (its data is empty)") : " (data keys: " + join(keys) + ")"));
    if (found.size() > 1)
        throw Error(origin, what + " has several data values holding a DeschedulerConfiguration (" + join(keys) + ")",
                    "keep exactly one");
    return EmbeddedConfiguration{found[0].second, origin + "[data." + found[0].first + "]"};
}

}  // namespace kd::core
