// Entry points: read the file, parse YAML, unwrap a ConfigMap, then convert, decode and validate.
#include "config/configmap.hpp"
#include "config/configuration.hpp"
#include "config/decode_configuration.hpp"
#include "config/reporter.hpp"
#include "config/yaml_to_json.hpp"

#include "error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace kd::core {

namespace {

std::string read_file(const std::string& path) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    auto fail = [&] { return Error(path, std::string("cannot read the configuration file: ") + std::strerror(errno)); };
    if (!f) throw fail();
    std::string text;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) text.append(buf, n);
    if (std::ferror(f.get())) throw fail();  // e.g. EISDIR: fopen succeeds on a directory
    return text;
}

YAML::Node single_document(const std::string& text, const std::string& origin) {
    std::vector<YAML::Node> docs;
    try {
        docs = YAML::LoadAll(text);
    } catch (const YAML::Exception& e) {
        throw Error(location_of(e.mark, origin).text(), "invalid YAML: " + e.msg);
    }
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
    return parse(read_file(path), path, true);
}

}  // namespace kd::core
