// Entry points: read the file, parse YAML, unwrap a ConfigMap, then convert, decode and validate.
#include "config/configmap.hpp"
#include "config/configuration.hpp"
#include "config/decode_configuration.hpp"
#include "error.hpp"
#include "text/input_file.hpp"
#include "text/reporter.hpp"
#include "text/yaml_documents.hpp"
#include "text/yaml_to_json.hpp"

namespace kd::core {

namespace {

YAML::Node single_document(const std::string& text, const std::string& origin) {
    std::vector<YAML::Node> docs = load_yaml_documents(text, origin);
    std::vector<YAML::Node> present;
    for (const auto& d : docs)
        if (!d.IsNull()) present.push_back(d);
    if (present.empty()) throw Error(origin, "the file is empty; expected a DeschedulerConfiguration");
    if (present.size() > 1)
        throw Error(location_of(present[1].Mark(), origin).text(),
                    "the file holds " + std::to_string(present.size()) +
                        " YAML documents; a configuration file holds exactly one DeschedulerConfiguration");
    return present[0];
}

DeschedulerConfiguration parse(const std::string& text, const std::string& origin, bool allow_configmap) {
    YAML::Node root = single_document(text, origin);
    if (allow_configmap) {
        if (auto embedded = embedded_configuration(root, origin)) {
            DeschedulerConfiguration cfg = parse(embedded->text, embedded->origin, false);
            cfg.sourceFile = origin;
            return cfg;
        }
    }
    LocationIndex index;
    Reporter report(origin, index);
    rapidjson::Document doc;
    yaml_to_json(root, origin, doc, index, report);
    DeschedulerConfiguration cfg = decode_configuration(doc, report);
    report.raise_if_any();
    return cfg;
}

}  // namespace

DeschedulerConfiguration parse_configuration(const std::string& yaml_text, const std::string& origin) {
    return parse(yaml_text, origin, true);
}

DeschedulerConfiguration load_configuration(const std::string& path) {
    return parse(read_small_file(path, kMaxProfileBytes, "the configuration file"), path, true);
}

}  // namespace kd::core
