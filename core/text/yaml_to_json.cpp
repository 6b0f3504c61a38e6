#include "text/yaml_to_json.hpp"

#include <kdesched/decode.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <unordered_map>

namespace kd::core {

namespace {

constexpr int kMaxDepth = 200;
// Aliases are expanded into the JSON tree; this bounds what a "billion laughs" document can cost.
constexpr size_t kMaxNodes = 1'000'000;

const std::string kTagPrefix = "tag:yaml.org,2002:";

std::string strip_underscores(std::string_view s) {
    std::string out;
    for (char c : s)
        if (c != '_') out += c;
    return out;
}

// go-yaml v2's integer resolution: strconv.ParseInt(s, 0, 64) after removing underscores, so
// 0x/0o/0b prefixes and a leading 0 (octal) are accepted, then ParseUint for big positives.
std::optional<rapidjson::Value> plain_integer(std::string_view text) {
    std::string s = strip_underscores(text);
    bool neg = false;
    size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    int base = 10;
    if (s.size() - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X'))
        base = 16, i += 2;
    else if (s.size() - i > 2 && s[i] == '0' && (s[i + 1] == 'o' || s[i + 1] == 'O'))
        base = 8, i += 2;
    else if (s.size() - i > 2 && s[i] == '0' && (s[i + 1] == 'b' || s[i + 1] == 'B'))
        base = 2, i += 2;
    else if (s.size() - i > 1 && s[i] == '0')
        base = 8, i += 1;
    if (i >= s.size()) return std::nullopt;
    unsigned __int128 magnitude = 0;
    for (; i < s.size(); ++i) {
        char c = s[i];
        int digit = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : 99;
        if (digit >= base) return std::nullopt;
        magnitude = magnitude * base + digit;
        if (magnitude > std::numeric_limits<uint64_t>::max()) return std::nullopt;  // becomes a float
    }
    rapidjson::Value v;
    if (neg) {
        if (magnitude > static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max()) + 1) return std::nullopt;
        v.SetInt64(magnitude == static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max()) + 1
                       ? std::numeric_limits<int64_t>::min()
                       : -static_cast<int64_t>(magnitude));
    } else if (magnitude <= static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max())) {
        v.SetInt64(static_cast<int64_t>(magnitude));
    } else {
        v.SetUint64(static_cast<uint64_t>(magnitude));
    }
    return v;
}

enum class FloatKind { none, finite, special };

// go-yaml v2's float syntax: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool float_syntax(std::string_view s) {
    size_t i = 0;
    auto digits = [&] {
        size_t start = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
        return i > start;
    };
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (i < s.size() && s[i] == '.') {
        ++i;
        if (!digits()) return false;
    } else {
        if (!digits()) return false;
        if (i < s.size() && s[i] == '.') {
            ++i;
            digits();
        }
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        if (!digits()) return false;
    }
    return i == s.size();
}

// .inf, -.Inf, .NaN, … (YAML 1.1 special floats).
bool special_float(std::string_view s) {
    std::string_view body = s;
    if (!body.empty() && (body[0] == '+' || body[0] == '-')) body.remove_prefix(1);
    for (auto inf : {".inf", ".Inf", ".INF"})
        if (body == inf) return true;
    for (auto nan : {".nan", ".NaN", ".NAN"})
        if (s == nan) return true;
    return false;
}

FloatKind plain_float(std::string_view text, double& out) {
    std::string s = strip_underscores(text);
    if (special_float(s)) return FloatKind::special;
    if (!float_syntax(s)) return FloatKind::none;
    out = std::strtod(s.c_str(), nullptr);
    return std::isfinite(out) ? FloatKind::finite : FloatKind::special;
}

std::optional<bool> plain_bool(std::string_view s) {
    // YAML 1.1, as go-yaml v2 (and therefore Kubernetes) resolves them.
    for (auto t : {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})
        if (s == t) return true;
    for (auto f : {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"})
        if (s == f) return false;
    return std::nullopt;
}

bool plain_null(std::string_view s) {
    return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

class Converter {
public:
    Converter(const std::string& origin, rapidjson::Document& doc, LocationIndex& index, Reporter& report)
        : origin_(origin), alloc_(doc.GetAllocator()), index_(index), report_(report) {}

    void convert(const YAML::Node& node, rapidjson::Value& out, const std::string& path, int depth) {
        if (++nodes_ > kMaxNodes) {
            if (nodes_ == kMaxNodes + 1)
                report_.at(path, "the document has more than " + std::to_string(kMaxNodes) +
                                     " nodes once aliases are expanded");
            return;
        }
        if (depth > kMaxDepth) {
            report_.at(path, "nested more than " + std::to_string(kMaxDepth) + " levels deep");
            return;
        }
        switch (node.Type()) {
            case YAML::NodeType::Map:
                return convert_map(node, out, path, depth);
            case YAML::NodeType::Sequence:
                return convert_sequence(node, out, path, depth);
            case YAML::NodeType::Scalar:
                return convert_scalar(node, out, path);
            case YAML::NodeType::Null:
            case YAML::NodeType::Undefined:
                out.SetNull();
                return;
        }
    }

private:
    SourceLocation loc(const YAML::Node& n) const { return location_of(n.Mark(), origin_); }

    void convert_map(const YAML::Node& node, rapidjson::Value& out, const std::string& path, int depth) {
        out.SetObject();
        std::unordered_map<std::string, SourceLocation> seen;
        for (auto it = node.begin(); it != node.end(); ++it) {
            // Copies (they share the node): it-> returns a proxy that dies with the expression.
            const YAML::Node key = it->first;
            const YAML::Node value = it->second;
            if (!key.IsScalar()) {
                report_.at_location(loc(key), path,
                                    key.IsNull() ? "a mapping key is empty" : "mapping keys must be plain strings");
                continue;
            }
            const std::string& name = key.Scalar();
            std::string child = kd::field_path(path, name);
            if (name == "<<" && key.Tag() == "?") {
                report_.at_location(loc(key), child, "YAML merge keys (<<) are not supported; write the fields out");
                continue;
            }
            if (auto [first, inserted] = seen.emplace(name, loc(key)); !inserted) {
                report_.at_location(loc(key), child,
                                    "duplicate key (first at line " + std::to_string(first->second.line) + ", column " +
                                        std::to_string(first->second.column) + ")");
                continue;
            }
            record(child, loc(key), value);
            rapidjson::Value v;
            convert(value, v, child, depth + 1);
            out.AddMember(rapidjson::Value(name.c_str(), static_cast<rapidjson::SizeType>(name.size()), alloc_), v,
                          alloc_);
        }
    }

    void convert_sequence(const YAML::Node& node, rapidjson::Value& out, const std::string& path, int depth) {
        out.SetArray();
        size_t i = 0;
        for (auto it = node.begin(); it != node.end(); ++it, ++i) {
            const YAML::Node item = *it;
            std::string child = kd::index_path(path, i);
            SourceLocation at = item.IsNull() ? loc(node) : loc(item);
            record(child, at, item);
            rapidjson::Value v;
            convert(item, v, child, depth + 1);
            out.PushBack(v, alloc_);
        }
    }

    void record(const std::string& path, const SourceLocation& key, const YAML::Node& value) {
        bool null = value.IsNull() || !value.IsDefined();
        // yaml-cpp marks an empty value at the next token, which may be lines later.
        index_.add(path, NodeLocation{key, null ? key : loc(value), null || value.IsScalar()});
    }

    void convert_scalar(const YAML::Node& node, rapidjson::Value& out, const std::string& path) {
        const std::string& text = node.Scalar();
        const std::string& tag = node.Tag();
        // "!" = quoted or block scalar: always a string, like Kubernetes.
        if (tag == "!" || tag == kTagPrefix + "str") {
            out.SetString(text.c_str(), static_cast<rapidjson::SizeType>(text.size()), alloc_);
            return;
        }
        std::string want;  // an explicit core-schema tag constrains the resolution
        if (tag != "?") {
            if (tag.rfind(kTagPrefix, 0) != 0) {
                report_.at(path, "unsupported YAML tag \"" + tag + "\"");
                out.SetNull();
                return;
            }
            want = tag.substr(kTagPrefix.size());
        }
        if (resolve(text, want, path, out)) return;
        if (!want.empty()) {
            report_.at(path, "\"" + text + "\" is not a valid !!" + want + " value");
            out.SetNull();
            return;
        }
        out.SetString(text.c_str(), static_cast<rapidjson::SizeType>(text.size()), alloc_);
    }

    // Plain scalar resolution in go-yaml v2's order: null, bool, int, float. `want` (from an explicit
    // !!tag) restricts it to one kind. False when nothing matched.
    bool resolve(const std::string& text, const std::string& want, const std::string& path, rapidjson::Value& out) {
        auto allowed = [&](const char* kind) { return want.empty() || want == kind; };
        // Like go-yaml, only text that starts like a number is tried as one ("_1" stays a string).
        bool numeric = !text.empty() && std::string_view("+-.0123456789").find(text[0]) != std::string_view::npos;
        if (allowed("null") && plain_null(text)) {
            out.SetNull();
            return true;
        }
        if (allowed("bool")) {
            if (auto b = plain_bool(text)) {
                out.SetBool(*b);
                return true;
            }
        }
        if (numeric && allowed("int")) {
            if (auto i = plain_integer(text)) {
                out = *i;
                return true;
            }
        }
        if (numeric && allowed("float")) {
            double d = 0;
            FloatKind kind = plain_float(text, d);
            if (kind == FloatKind::finite) {
                out.SetDouble(d);
                return true;
            }
            if (kind == FloatKind::special) {
                // JSON has no infinity or NaN; Kubernetes fails to convert such a document too.
                report_.at(path, "\"" + text + "\": infinite and NaN numbers cannot be represented");
                out.SetNull();
                return true;
            }
        }
        return false;
    }

    const std::string& origin_;
    rapidjson::Document::AllocatorType& alloc_;
    LocationIndex& index_;
    Reporter& report_;
    size_t nodes_ = 0;
};

}  // namespace

void yaml_to_json(const YAML::Node& root, const std::string& origin, rapidjson::Document& doc, LocationIndex& index,
                  Reporter& report) {
    index.set_origin(origin);
    SourceLocation at = root.IsNull() ? SourceLocation{origin, 1, 1} : location_of(root.Mark(), origin);
    index.add("", NodeLocation{at, at, !root.IsMap() && !root.IsSequence()});
    Converter(origin, doc, index, report).convert(root, doc, "", 0);
}

}  // namespace kd::core
