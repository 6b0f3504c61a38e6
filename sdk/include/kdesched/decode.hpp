// Strict JSON decoding into typed structs, with field-path errors.
//
// A decodable struct lists its fields once:
//
//     struct PoolArgs {
//         std::string name;
//         std::map<std::string, double> highThresholds;
//         template <class V> void fields(V& v) { v("name", name); v("highThresholds", highThresholds); }
//         void validate(kd::Errors& errs, const std::string& path) const;   // optional
//     };
//
// Unknown keys, duplicate keys and wrong types are errors; every error carries the JSON path
// (`nodePools[1].highThresholds.cpu`). Defaults are the member initialisers; `validate` runs after
// decoding, on every struct that has one however deeply nested (see validate_value), collecting
// every problem instead of stopping at the first.
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <chrono>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace kd {

// One problem found while decoding or validating: where (JSON path, "" = the whole document) and what.
struct FieldError {
    std::string path;
    std::string message;
    std::string text() const { return path.empty() ? message : path + ": " + message; }
};

// Collects every problem; nothing stops at the first one.
class Errors {
public:
    void add(std::string path, std::string message) { items_.push_back({std::move(path), std::move(message)}); }
    bool empty() const { return items_.empty(); }
    const std::vector<FieldError>& items() const { return items_; }
    // One problem per line, "path: message".
    std::string joined() const {
        std::string out;
        for (const auto& e : items_) {
            if (!out.empty()) out += '\n';
            out += e.text();
        }
        return out;
    }

private:
    std::vector<FieldError> items_;
};

// Thrown by parse<T>() when decoding or validation failed; what() is Errors::joined().
class DecodeError : public std::runtime_error {
public:
    explicit DecodeError(Errors errs) : std::runtime_error(errs.joined()), errors_(std::move(errs)) {}
    const Errors& errors() const { return errors_; }

private:
    Errors errors_;
};

// Path helpers: field("a", "b") = "a.b", index("a", 2) = "a[2]".
inline std::string field_path(const std::string& base, std::string_view name) {
    return base.empty() ? std::string(name) : base + "." + std::string(name);
}
inline std::string index_path(const std::string& base, size_t i) {
    return base + "[" + std::to_string(i) + "]";
}

// A Go-style duration ("10s", "1m30s", "500ms"); JSON form is the string.
struct Duration {
    std::chrono::nanoseconds value{0};
    constexpr Duration() = default;
    constexpr explicit Duration(std::chrono::nanoseconds v) : value(v) {}
    int64_t ms() const { return std::chrono::duration_cast<std::chrono::milliseconds>(value).count(); }
    bool operator==(const Duration&) const = default;
    auto operator<=>(const Duration&) const = default;
};

// Parses a Go duration; returns nullopt on bad syntax. Units: ns us µs ms s m h.
inline std::optional<Duration> parse_duration(std::string_view s) {
    if (s.empty()) return std::nullopt;
    bool neg = false;
    if (s[0] == '-' || s[0] == '+') {
        neg = s[0] == '-';
        s.remove_prefix(1);
    }
    if (s == "0") return Duration{};
    if (s.empty()) return std::nullopt;
    long double total = 0;
    while (!s.empty()) {
        size_t i = 0;
        long double num = 0;
        bool digits = false;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') num = num * 10 + (s[i++] - '0'), digits = true;
        if (i < s.size() && s[i] == '.') {
            ++i;
            long double scale = 0.1L;
            while (i < s.size() && s[i] >= '0' && s[i] <= '9')
                num += (s[i++] - '0') * scale, scale /= 10, digits = true;
        }
        if (!digits) return std::nullopt;
        size_t u = i;
        while (u < s.size() && !(s[u] >= '0' && s[u] <= '9') && s[u] != '.') ++u;
        std::string_view unit = s.substr(i, u - i);
        long double mult;
        if (unit == "ns")
            mult = 1;
        else if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs")
            mult = 1e3L;
        else if (unit == "ms")
            mult = 1e6L;
        else if (unit == "s")
            mult = 1e9L;
        else if (unit == "m")
            mult = 60e9L;
        else if (unit == "h")
            mult = 3600e9L;
        else
            return std::nullopt;
        total += num * mult;
        s.remove_prefix(u);
    }
    if (total > static_cast<long double>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    auto ns = static_cast<int64_t>(total);
    return Duration{std::chrono::nanoseconds(neg ? -ns : ns)};
}

// Formats like Go's time.Duration.String() for whole units ("1m0s", "500ms", "10s").
inline std::string format_duration(Duration d) {
    int64_t ns = d.value.count();
    if (ns == 0) return "0s";
    std::string sign = ns < 0 ? "-" : "";
    uint64_t u = ns < 0 ? static_cast<uint64_t>(-ns) : static_cast<uint64_t>(ns);
    auto frac = [](uint64_t v, uint64_t unit) {
        std::string out = std::to_string(v / unit);
        uint64_t rest = v % unit;
        if (rest) {
            std::string f = std::to_string(rest + unit).substr(1);
            while (!f.empty() && f.back() == '0') f.pop_back();
            out += "." + f;
        }
        return out;
    };
    if (u < 1000) return sign + std::to_string(u) + "ns";
    if (u < 1000000) return sign + frac(u, 1000) + "us";
    if (u < 1000000000) return sign + frac(u, 1000000) + "ms";
    uint64_t h = u / 3600000000000ULL, m = (u / 60000000000ULL) % 60;
    uint64_t sns = u % 60000000000ULL;
    std::string out = sign;
    if (h) out += std::to_string(h) + "h";
    if (h || m) out += std::to_string(m) + "m";
    return out + frac(sns, 1000000000) + "s";
}

// Kubernetes IntOrString: 3 or "25%".
struct IntOrString {
    bool is_string = false;
    int32_t int_value = 0;
    std::string str_value;
    bool operator==(const IntOrString&) const = default;
    std::string text() const { return is_string ? str_value : std::to_string(int_value); }
};

// Resolves an IntOrString against a total (Kubernetes GetScaledValueFromIntOrPercent).
// Returns nullopt for a string that is not "<int>%".
inline std::optional<int64_t> scaled_value(const IntOrString& v, int64_t total, bool round_up) {
    if (!v.is_string) return v.int_value;
    const std::string& s = v.str_value;
    if (s.size() < 2 || s.back() != '%') return std::nullopt;
    int64_t pct = 0;
    for (size_t i = 0; i + 1 < s.size(); ++i) {
        if (s[i] < '0' || s[i] > '9') return std::nullopt;
        pct = pct * 10 + (s[i] - '0');
        if (pct > 1000000000) return std::nullopt;
    }
    long double x = static_cast<long double>(total) * pct / 100.0L;
    return static_cast<int64_t>(round_up ? std::ceil(x) : std::floor(x));
}

template <class T>
struct Decoder;  // specialise for custom JSON shapes: static void decode(const rapidjson::Value&, T&, const
                 // std::string&, Errors&)

namespace detail {

inline const char* json_type_name(const rapidjson::Value& v) {
    switch (v.GetType()) {
        case rapidjson::kNullType:
            return "null";
        case rapidjson::kFalseType:
        case rapidjson::kTrueType:
            return "a boolean";
        case rapidjson::kObjectType:
            return "an object";
        case rapidjson::kArrayType:
            return "a list";
        case rapidjson::kStringType:
            return "a string";
        case rapidjson::kNumberType:
            return "a number";
    }
    return "a value";
}

template <class T>
concept HasFields = requires(T t, int& visitor) {
    t.fields(visitor);
};

template <class T>
concept HasValidate = requires(const T t, Errors& e, const std::string& p) {
    t.validate(e, p);
};

template <class T>
concept HasDefaults = requires(T t) {
    t.apply_defaults();
};

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};
template <class T>
struct is_string_map : std::false_type {};
template <class T, class C, class A>
struct is_string_map<std::map<std::string, T, C, A>> : std::true_type {};

}  // namespace detail

template <class T>
void decode_value(const rapidjson::Value& v, T& out, const std::string& path, Errors& errs);
template <class T>
void decode_present(const rapidjson::Value& v, T& out, const std::string& path, Errors& errs);

namespace detail {

// Visitor used by the struct decoder: matches one JSON member to one declared field.
struct FieldMatcher {
    std::string_view key;
    const rapidjson::Value* value;
    const std::string* path;
    Errors* errs;
    bool matched = false;
    template <class F>
    void operator()(std::string_view name, F& field) {
        if (matched || name != key) return;
        matched = true;
        decode_value(*value, field, field_path(*path, name), *errs);
    }
};

// Visitor that lists the declared field names (for "did you mean" messages).
struct FieldLister {
    std::vector<std::string_view> names;
    template <class F>
    void operator()(std::string_view name, F&) {
        names.push_back(name);
    }
};

inline std::string known_list(const std::vector<std::string_view>& names) {
    std::string out;
    for (auto n : names) out += (out.empty() ? "" : ", ") + std::string(n);
    return out;
}

template <class T>
void decode_struct(const rapidjson::Value& v, T& out, const std::string& path, Errors& errs) {
    if (!v.IsObject()) {
        errs.add(path, std::string("must be an object, got ") + json_type_name(v));
        return;
    }
    std::vector<std::string_view> seen;
    for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
        std::string_view key(it->name.GetString(), it->name.GetStringLength());
        std::string p = field_path(path, key);
        bool dup = false;
        for (auto s : seen) dup = dup || s == key;
        if (dup) {
            errs.add(p, "duplicate field");
            continue;
        }
        seen.push_back(key);
        FieldMatcher m{key, &it->value, &path, &errs};
        out.fields(m);
        if (!m.matched) {
            FieldLister l;
            out.fields(l);
            errs.add(p, "unknown field (known fields: " + known_list(l.names) + ")");
        }
    }
}

template <class I>
void decode_integer(const rapidjson::Value& v, I& out, const std::string& path, Errors& errs) {
    if (!v.IsNumber()) {
        errs.add(path, std::string("must be an integer, got ") + json_type_name(v));
        return;
    }
    if (!(v.IsInt64() || v.IsUint64())) {
        double d = v.GetDouble();
        if (std::trunc(d) != d) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%g", d);
            errs.add(path, std::string("must be an integer, got ") + buf);
            return;
        }
    }
    long double x = v.IsInt64()    ? static_cast<long double>(v.GetInt64())
                    : v.IsUint64() ? static_cast<long double>(v.GetUint64())
                                   : static_cast<long double>(v.GetDouble());
    if (x < static_cast<long double>(std::numeric_limits<I>::min()) ||
        x > static_cast<long double>(std::numeric_limits<I>::max())) {
        errs.add(path, "out of range (" + std::to_string(std::numeric_limits<I>::min()) + " to " +
                           std::to_string(std::numeric_limits<I>::max()) + ")");
        return;
    }
    out = static_cast<I>(x);
}

}  // namespace detail

// Decodes `v` into `out`; problems go to `errs` with `path`.
template <class T>
void decode_value(const rapidjson::Value& v, T& out, const std::string& path, Errors& errs) {
    if constexpr (detail::is_optional<T>::value) {
        if (v.IsNull()) {
            out.reset();
            return;
        }
        out.emplace();
        decode_value(v, *out, path, errs);
    } else if (v.IsNull()) {
        // `key:` with no value (JSON null) keeps the default, as Go leaves the zero value.
        return;
    } else if constexpr (requires { Decoder<T>::decode(v, out, path, errs); }) {
        Decoder<T>::decode(v, out, path, errs);
    } else {
        decode_present(v, out, path, errs);
    }
}

// Decodes a non-null value of a non-optional type.
template <class T>
void decode_present(const rapidjson::Value& v, T& out, const std::string& path, Errors& errs) {
    if constexpr (std::is_same_v<T, bool>) {
        if (!v.IsBool())
            errs.add(path, std::string("must be true or false, got ") + detail::json_type_name(v));
        else
            out = v.GetBool();
    } else if constexpr (std::is_integral_v<T>) {
        detail::decode_integer(v, out, path, errs);
    } else if constexpr (std::is_floating_point_v<T>) {
        if (!v.IsNumber())
            errs.add(path, std::string("must be a number, got ") + detail::json_type_name(v));
        else
            out = static_cast<T>(v.GetDouble());
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!v.IsString())
            errs.add(path, std::string("must be a string, got ") + detail::json_type_name(v));
        else
            out.assign(v.GetString(), v.GetStringLength());
    } else if constexpr (detail::is_vector<T>::value) {
        if (!v.IsArray()) {
            errs.add(path, std::string("must be a list, got ") + detail::json_type_name(v));
            return;
        }
        out.clear();
        out.resize(v.Size());
        for (rapidjson::SizeType i = 0; i < v.Size(); ++i) decode_value(v[i], out[i], index_path(path, i), errs);
    } else if constexpr (detail::is_string_map<T>::value) {
        if (!v.IsObject()) {
            errs.add(path, std::string("must be a map, got ") + detail::json_type_name(v));
            return;
        }
        out.clear();
        for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
            std::string key(it->name.GetString(), it->name.GetStringLength());
            std::string p = field_path(path, key);
            if (out.count(key)) {
                errs.add(p, "duplicate key");
                continue;
            }
            decode_value(it->value, out[key], p, errs);
        }
    } else {
        static_assert(detail::HasFields<T>, "kd::decode_value: type has no fields() member and no kd::Decoder<T>");
        detail::decode_struct(v, out, path, errs);
    }
}

template <>
struct Decoder<Duration> {
    static void decode(const rapidjson::Value& v, Duration& out, const std::string& path, Errors& errs) {
        if (!v.IsString()) {
            errs.add(path, std::string("must be a duration string such as \"10s\" or \"5m\", got ") +
                               detail::json_type_name(v));
            return;
        }
        auto d = parse_duration(std::string_view(v.GetString(), v.GetStringLength()));
        if (!d)
            errs.add(path, "invalid duration \"" + std::string(v.GetString()) +
                               "\" (use e.g. \"500ms\", \"10s\", \"1m30s\")");
        else
            out = *d;
    }
};

template <>
struct Decoder<IntOrString> {
    static void decode(const rapidjson::Value& v, IntOrString& out, const std::string& path, Errors& errs) {
        if (v.IsString()) {
            out.is_string = true;
            out.str_value.assign(v.GetString(), v.GetStringLength());
        } else {
            out.is_string = false;
            detail::decode_integer(v, out.int_value, path, errs);
        }
    }
};

template <class T>
void validate_value(const T& value, Errors& errs, const std::string& path);

namespace detail {

// Visitor that validates each declared field at its own path.
struct FieldValidator {
    Errors* errs;
    const std::string* path;
    template <class F>
    void operator()(std::string_view name, F& field) {
        validate_value(static_cast<const F&>(field), *errs, field_path(*path, name));
    }
};

}  // namespace detail

// Runs validate() on a decoded value when its type has one, then on everything inside it: the
// declared fields of a struct, the value of an optional, each element of a list and each value of
// a map, each at its own path. So a struct's validate() checks its own members' relations and
// leaves a nested args type to that type's validate().
template <class T>
void validate_value(const T& value, Errors& errs, const std::string& path) {
    if constexpr (detail::HasValidate<T>) value.validate(errs, path);
    if constexpr (detail::is_optional<T>::value) {
        if (value) validate_value(*value, errs, path);
    } else if constexpr (detail::is_vector<T>::value) {
        for (size_t i = 0; i < value.size(); ++i) validate_value(value[i], errs, index_path(path, i));
    } else if constexpr (detail::is_string_map<T>::value) {
        for (const auto& [key, item] : value) validate_value(item, errs, field_path(path, key));
    } else if constexpr (detail::HasFields<T>) {
        // fields() is written once for decoding (non-const); this visitor only reads.
        detail::FieldValidator visit{&errs, &path};
        const_cast<T&>(value).fields(visit);
    }
}

// Deepest nesting of arrays and objects accepted in JSON from outside — plugin args here; in the
// host, the answers of the API server, the Pod Picker and exec plugins too. RapidJSON's DOM reader
// recurses once per level, so deeper text would overflow the stack instead of being refused.
inline constexpr int kMaxJsonDepth = 512;

// Whether `text` opens more than kMaxJsonDepth arrays and objects inside one another (brackets in
// strings do not count; the text need not be valid JSON). A byte scan, for use before parsing.
inline bool json_too_deep(std::string_view text) {
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth) return true;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return false;
}

namespace detail {

// Whether path `inner` is `outer` or inside it ("a.b" and "a[1]" are inside "a"; "ab" is not).
inline bool path_within(const std::string& inner, const std::string& outer) {
    if (inner.compare(0, outer.size(), outer) != 0) return false;
    return inner.size() == outer.size() || outer.empty() || inner[outer.size()] == '.' || inner[outer.size()] == '[';
}

// The path of the struct that holds the field at `path` ("a.b[2].c" → "a.b[2]", "a[2]" → "a").
inline std::string parent_path(const std::string& path) {
    size_t cut = path.find_last_of(".[");
    return cut == std::string::npos ? std::string() : path.substr(0, cut);
}

// Whether a validation problem at `path` may concern a value that did not decode (which then kept
// its default): it is at, inside or around the failed field, or beside it in the same struct (a
// struct's validate() judges its members together) unless that struct is the whole document.
// Unknown and duplicate fields leave nothing undecoded and hide nothing.
inline bool near_failed_field(const Errors& decode_errors, const std::string& path) {
    for (const FieldError& e : decode_errors.items()) {
        if (e.message.rfind("unknown field", 0) == 0 || e.message.rfind("duplicate", 0) == 0) continue;
        if (path_within(path, e.path)) return true;
        if (!path.empty() && path_within(e.path, path)) return true;
        std::string holder = parent_path(e.path);
        if (!holder.empty() && path_within(path, holder)) return true;
    }
    return false;
}

}  // namespace detail

// Parses JSON text strictly into T: decode, apply_defaults() if T has it, then validate_value()
// (every nested validate()). Throws DecodeError with every problem found, decoding's and
// validation's together.
template <class T>
T parse(std::string_view json_text) {
    Errors errs;
    T out{};
    if (json_too_deep(json_text)) {
        errs.add("", "JSON nested more than " + std::to_string(kMaxJsonDepth) + " levels deep (the limit)");
        throw DecodeError(std::move(errs));
    }
    rapidjson::Document doc;
    std::string buf(json_text.empty() ? std::string_view("{}") : json_text);
    doc.Parse<rapidjson::kParseStopWhenDoneFlag>(buf.c_str(), buf.size());
    if (doc.HasParseError()) {
        errs.add("", std::string("invalid JSON at offset ") + std::to_string(doc.GetErrorOffset()) + ": " +
                         rapidjson::GetParseError_En(doc.GetParseError()));
        throw DecodeError(std::move(errs));
    }
    decode_value(doc, out, "", errs);
    if constexpr (detail::HasDefaults<T>) out.apply_defaults();
    // Validation runs even when decoding found problems, so that one run reports them all; a
    // field that did not decode keeps its default, so what validation says at, inside or around
    // its path would be about a value the user did not write, and is left out.
    Errors checked;
    validate_value(out, checked, "");
    const Errors decoding = errs;
    for (const FieldError& e : checked.items())
        if (!detail::near_failed_field(decoding, e.path)) errs.add(e.path, e.message);
    if (!errs.empty()) throw DecodeError(std::move(errs));
    return out;
}

}  // namespace kd
