// A snapshot directory's objects (its *.yaml, *.yml and *.json files, as `kdesched simulate
// --cluster` reads them) as the JSON array FakeApiServer::load takes: each List expanded into its
// items, each item given the List's apiVersion and its item kind ("NodeMetricsList" → NodeMetrics)
// when it has none. YAML is read as kdesched reads it (text/yaml_to_json.hpp): link kdesched_text.
#pragma once

#include "text/location_index.hpp"
#include "text/reporter.hpp"
#include "text/yaml_documents.hpp"
#include "text/yaml_to_json.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace kd_test {

namespace snapshot_objects_detail {

inline std::string compact(const rapidjson::Value& v) {
    rapidjson::StringBuffer b;
    rapidjson::Writer<rapidjson::StringBuffer> w(b);
    v.Accept(w);
    return b.GetString();
}

inline void add_object(rapidjson::Value& obj, rapidjson::Document& owner, std::vector<std::string>& out) {
    if (!obj.IsObject()) return;
    std::string kind = obj.HasMember("kind") && obj["kind"].IsString() ? obj["kind"].GetString() : "";
    const std::string list_suffix = "List";
    if (kind.size() > list_suffix.size() &&
        kind.compare(kind.size() - list_suffix.size(), list_suffix.size(), list_suffix) == 0 &&
        obj.HasMember("items")) {
        const std::string item_kind = kind == "List" ? "" : kind.substr(0, kind.size() - list_suffix.size());
        for (auto& item : obj["items"].GetArray()) {
            if (!item.IsObject()) continue;
            if (!item_kind.empty() && !item.HasMember("kind"))
                item.AddMember("kind", rapidjson::Value(item_kind.c_str(), owner.GetAllocator()), owner.GetAllocator());
            if (!item.HasMember("apiVersion") && obj.HasMember("apiVersion"))
                item.AddMember("apiVersion", rapidjson::Value(obj["apiVersion"], owner.GetAllocator()),
                               owner.GetAllocator());
            add_object(item, owner, out);
        }
        return;
    }
    out.push_back(compact(obj));
}

}  // namespace snapshot_objects_detail

inline std::string snapshot_objects_json(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        auto ext = e.path().extension();
        if (ext == ".yaml" || ext == ".yml" || ext == ".json") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<std::string> objects;
    for (const auto& f : files) {
        std::ifstream in(f);
        std::stringstream text;
        text << in.rdbuf();
        if (f.extension() == ".json") {
            rapidjson::Document d;
            d.Parse(text.str().c_str());
            if (d.HasParseError()) throw std::runtime_error(f.string() + ": not JSON");
            snapshot_objects_detail::add_object(d, d, objects);
            continue;
        }
        for (const auto& node : kd::core::load_yaml_documents(text.str(), f.string())) {
            rapidjson::Document d;
            kd::core::LocationIndex index;
            kd::core::Reporter report(f.string(), index);
            kd::core::yaml_to_json(node, f.string(), d, index, report);
            if (!report.empty()) throw std::runtime_error(f.string() + ": YAML that kdesched would refuse");
            snapshot_objects_detail::add_object(d, d, objects);
        }
    }
    std::string out = "[";
    for (size_t i = 0; i < objects.size(); ++i) out += (i ? "," : "") + objects[i];
    return out + "]";
}

}  // namespace kd_test
