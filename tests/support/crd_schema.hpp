// Checks a JSON object against a CustomResourceDefinition's structural schema (openAPIV3Schema),
// the way the API server would on create/update: types, required fields, enums, list and map
// bounds, and fields the server would prune (unknown to the schema) reported as errors, since a
// pruned field is data lost.
#pragma once

#include <kdesched/rfc3339.hpp>

#include <rapidjson/document.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

class CrdSchema {
public:
    // The schema of `version` in the CRD file.
    CrdSchema(const std::string& crd_file, const std::string& version) {
        YAML::Node crd = YAML::LoadFile(crd_file);
        kind_ = crd["spec"]["names"]["kind"].as<std::string>();
        for (const auto& v : crd["spec"]["versions"])
            if (v["name"].as<std::string>() == version) schema_ = v["schema"]["openAPIV3Schema"];
        if (!schema_) throw std::runtime_error(crd_file + ": no version " + version);
    }
    const std::string& kind() const { return kind_; }

    // Every problem, one per line with its JSON path; empty when the object is valid.
    std::vector<std::string> validate(const rapidjson::Value& object) const {
        std::vector<std::string> errors;
        check(schema_, object, "", errors);
        return errors;
    }

private:
    static bool is_type(const rapidjson::Value& v, const std::string& type) {
        if (type == "object") return v.IsObject();
        if (type == "array") return v.IsArray();
        if (type == "string") return v.IsString();
        if (type == "integer") return v.IsInt64() || v.IsUint64();
        if (type == "number") return v.IsNumber();
        if (type == "boolean") return v.IsBool();
        return false;
    }

    static void check(const YAML::Node& s, const rapidjson::Value& v, const std::string& path,
                      std::vector<std::string>& errors) {
        auto fail = [&](const std::string& what) { errors.push_back((path.empty() ? "." : path) + ": " + what); };
        if (s["x-kubernetes-int-or-string"] && s["x-kubernetes-int-or-string"].as<bool>()) {
            if (!v.IsString() && !v.IsInt64()) fail("must be an integer or a string");
            return;
        }
        if (s["anyOf"]) {
            for (const auto& branch : s["anyOf"]) {
                std::vector<std::string> e;
                check(branch, v, path, e);
                if (e.empty()) return;
            }
            fail("matches none of anyOf");
            return;
        }
        if (path == ".metadata") return;  // ObjectMeta: validated by the API server itself, not the CRD
        if (s["type"] && !is_type(v, s["type"].as<std::string>())) {
            fail("must be of type " + s["type"].as<std::string>());
            return;
        }
        if (s["enum"]) {
            bool found = false;
            for (const auto& e : s["enum"]) found = found || (v.IsString() && e.as<std::string>() == v.GetString());
            if (!found) fail("not one of the enum values");
        }
        if (v.IsString() && s["format"] && s["format"].as<std::string>() == "date-time" &&
            !kd::parse_rfc3339_ms(v.GetString()))
            fail("not an RFC 3339 date-time");
        if (v.IsArray()) {
            if (s["minItems"] && v.Size() < s["minItems"].as<size_t>()) fail("too few items");
            for (rapidjson::SizeType i = 0; i < v.Size(); ++i)
                if (s["items"]) check(s["items"], v[i], path + "[" + std::to_string(i) + "]", errors);
        }
        if (!v.IsObject()) return;
        if (s["minProperties"] && v.MemberCount() < s["minProperties"].as<size_t>()) fail("too few properties");
        if (s["required"])
            for (const auto& r : s["required"])
                if (!v.HasMember(r.as<std::string>().c_str()))
                    fail("required field " + r.as<std::string>() + " missing");
        bool keep_unknown =
            s["x-kubernetes-preserve-unknown-fields"] && s["x-kubernetes-preserve-unknown-fields"].as<bool>();
        for (const auto& m : v.GetObject()) {
            std::string key(m.name.GetString(), m.name.GetStringLength());
            std::string at = path + "." + key;
            if (s["properties"] && s["properties"][key]) {
                check(s["properties"][key], m.value, at, errors);
            } else if (s["additionalProperties"] && s["additionalProperties"].IsMap()) {
                check(s["additionalProperties"], m.value, at, errors);
            } else if (!keep_unknown && !(s["additionalProperties"] && s["additionalProperties"].IsScalar() &&
                                          s["additionalProperties"].as<bool>())) {
                errors.push_back(at + ": unknown field (the API server would prune it)");
            }
        }
    }

    std::string kind_;
    YAML::Node schema_;
};
