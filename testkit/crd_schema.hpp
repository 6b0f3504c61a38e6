// Checks a JSON object against the schema facts of a CustomResourceDefinition
// (tests/data/crd/*.facts, written by tools/crd-facts from Koordinator's CRDs) the way the API
// server would on create/update: types, required fields, enums, date-times, list and map bounds,
// and fields the server would prune (unknown to the schema) reported as errors, since a pruned
// field is data lost.
#pragma once

#include <kdesched/rfc3339.hpp>

#include <rapidjson/document.h>

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

class CrdSchema {
public:
    // One schema node: its type ("-" when the schema gives none) and its constraints.
    struct Node {
        std::string type;
        std::map<std::string, std::string> facts;  // required, enum, format, min-items, … ("" for flags)
        bool has(const std::string& key) const { return facts.count(key) != 0; }
        std::string get(const std::string& key) const {
            auto it = facts.find(key);
            return it == facts.end() ? "" : it->second;
        }
    };

    // Reads a facts file; throws std::runtime_error naming the file and line when it is malformed.
    explicit CrdSchema(const std::string& facts_file) {
        std::ifstream in(facts_file);
        if (!in) throw std::runtime_error(facts_file + ": cannot read the CRD facts");
        std::string line;
        for (int n = 1; std::getline(in, line); ++n) {
            if (line.empty() || line[0] == '#') continue;
            if (line.rfind("crd ", 0) == 0) {
                crd_ = parse_facts(line.substr(4));
                continue;
            }
            std::istringstream words(line);
            std::string path, type;
            words >> path >> type;
            if (path.empty() || path[0] != '.' || type.empty())
                throw std::runtime_error(facts_file + ":" + std::to_string(n) + ": expected \"PATH TYPE [FACT...]\"");
            Node node{type, {}};
            std::string rest;
            std::getline(words, rest);
            node.facts = parse_facts(rest);
            nodes_[path] = std::move(node);
        }
        if (crd_.count("kind") == 0 || nodes_.count(".") == 0)
            throw std::runtime_error(facts_file + ": no crd line or no root schema");
    }
    std::string kind() const { return crd_.at("kind"); }
    // Where the status subresource begins (".status"), "" when the CRD has none.
    std::string status_subresource() const {
        auto it = crd_.find("status-subresource");
        return it == crd_.end() ? "" : it->second;
    }
    const std::map<std::string, Node>& nodes() const { return nodes_; }

    // Every problem, one per line with its JSON path; empty when the object is valid.
    std::vector<std::string> validate(const rapidjson::Value& object) const {
        std::vector<std::string> errors;
        check(".", object, "", errors);
        return errors;
    }

private:
    static std::map<std::string, std::string> parse_facts(const std::string& text) {
        std::map<std::string, std::string> out;
        std::istringstream in(text);
        std::string word;
        while (in >> word) {
            auto eq = word.find('=');
            out[word.substr(0, eq)] = eq == std::string::npos ? "" : word.substr(eq + 1);
        }
        return out;
    }
    static std::vector<std::string> split(const std::string& s, char sep) {
        std::vector<std::string> out;
        std::string item;
        std::istringstream in(s);
        while (std::getline(in, item, sep)) out.push_back(item);
        return out;
    }
    static bool is_type(const rapidjson::Value& v, const std::string& type) {
        if (type == "object") return v.IsObject();
        if (type == "array") return v.IsArray();
        if (type == "string") return v.IsString();
        if (type == "integer") return v.IsInt64() || v.IsUint64();
        if (type == "number") return v.IsNumber();
        if (type == "boolean") return v.IsBool();
        return type == "-";
    }
    static std::string child(const std::string& schema, const std::string& suffix) {
        return (schema == "." ? "" : schema) + suffix;
    }

    // `schema` is the facts path of the node, `path` the object's JSON path for messages.
    void check(const std::string& schema, const rapidjson::Value& v, const std::string& path,
               std::vector<std::string>& errors) const {
        const Node& s = nodes_.at(schema);
        auto fail = [&](const std::string& what) { errors.push_back((path.empty() ? "." : path) + ": " + what); };
        if (s.has("int-or-string")) {
            if (!v.IsString() && !v.IsInt64()) fail("must be an integer or a string");
            return;
        }
        if (path == ".metadata") return;  // ObjectMeta: validated by the API server itself, not the CRD
        if (v.IsNull() && s.has("nullable")) return;
        if (!is_type(v, s.type)) {
            fail("must be of type " + s.type);
            return;
        }
        if (s.has("enum")) {
            bool found = false;
            for (const auto& e : split(s.get("enum"), '|')) found = found || (v.IsString() && e == v.GetString());
            if (!found) fail("not one of the enum values");
        }
        if (v.IsString() && s.get("format") == "date-time" && !kd::parse_rfc3339_ms(v.GetString()))
            fail("not an RFC 3339 date-time");
        if (v.IsArray()) {
            if (s.has("min-items") && v.Size() < std::stoul(s.get("min-items"))) fail("too few items");
            for (rapidjson::SizeType i = 0; i < v.Size(); ++i)
                if (nodes_.count(child(schema, "[]")))
                    check(child(schema, "[]"), v[i], path + "[" + std::to_string(i) + "]", errors);
        }
        if (!v.IsObject()) return;
        if (s.has("min-properties") && v.MemberCount() < std::stoul(s.get("min-properties")))
            fail("too few properties");
        if (s.has("required"))
            for (const auto& r : split(s.get("required"), ','))
                if (!v.HasMember(r.c_str())) fail("required field " + r + " missing");
        for (const auto& m : v.GetObject()) {
            std::string key(m.name.GetString(), m.name.GetStringLength());
            std::string at = path + "." + key;
            if (nodes_.count(child(schema, "." + key)))
                check(child(schema, "." + key), m.value, at, errors);
            else if (nodes_.count(child(schema, "{}")))
                check(child(schema, "{}"), m.value, at, errors);
            else if (!s.has("preserve-unknown") && s.get("additional") != "true")
                errors.push_back(at + ": unknown field (the API server would prune it)");
        }
    }

    std::map<std::string, std::string> crd_;
    std::map<std::string, Node> nodes_;
};
