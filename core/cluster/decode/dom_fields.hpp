// Reading fields of an API object held as a RapidJSON DOM, each problem thrown as a
// FieldProblemError naming the field's path: shared by the DOM readers (migration_reader.cpp,
// usage_metrics_reader.cpp).
#pragma once

#include "cluster/decode/field_problem.hpp"

#include <kdesched/decode.hpp>
#include <kdesched/quantity.hpp>

#include <rapidjson/document.h>

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kd::core::decode::dom {

using rapidjson::Value;

inline std::string field(const std::string& base, std::string_view name) {
    return kd::field_path(base, name);
}

[[noreturn]] inline void problem(const std::string& path, std::string message, std::string hint = "") {
    throw FieldProblemError(FieldProblem{path, std::move(message), std::move(hint)});
}

[[noreturn]] inline void wrong_type(const std::string& path, const char* want, const Value& got) {
    problem(path, std::string("must be ") + want + ", got " + kd::detail::json_type_name(got));
}

// A member that is present and not null.
inline const Value* member(const Value& obj, const char* key) {
    auto it = obj.FindMember(key);
    if (it == obj.MemberEnd() || it->value.IsNull()) return nullptr;
    return &it->value;
}

inline const Value* object(const Value& obj, const char* key, const std::string& base) {
    const Value* v = member(obj, key);
    if (v && !v->IsObject()) wrong_type(field(base, key), "an object", *v);
    return v;
}

inline const Value* array(const Value& obj, const char* key, const std::string& base) {
    const Value* v = member(obj, key);
    if (v && !v->IsArray()) wrong_type(field(base, key), "a list", *v);
    return v;
}

// Calls f(element, path) for each element of the list at `key`, each of which must be an object.
template <class F>
inline void each_object(const Value& obj, const char* key, const std::string& base, F&& f) {
    const Value* list = array(obj, key, base);
    if (!list) return;
    std::string path = field(base, key);
    for (rapidjson::SizeType i = 0; i < list->Size(); ++i) {
        std::string p = kd::index_path(path, i);
        const Value& e = (*list)[i];
        if (!e.IsObject()) wrong_type(p, "an object", e);
        f(e, p);
    }
}

inline std::string string(const Value& obj, const char* key, const std::string& base) {
    const Value* v = member(obj, key);
    if (!v) return "";
    if (!v->IsString()) wrong_type(field(base, key), "a string", *v);
    return std::string(v->GetString(), v->GetStringLength());
}

inline int64_t quantity(const Value& v, const std::string& path) {
    std::optional<int64_t> milli;
    std::string text;
    if (v.IsString()) {
        text.assign(v.GetString(), v.GetStringLength());
    } else if (v.IsInt64()) {
        text = std::to_string(v.GetInt64());
    } else if (v.IsNumber()) {
        char buf[64];
        auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v.GetDouble());
        if (ec == std::errc()) text.assign(buf, end);
    } else {
        wrong_type(path, "a quantity", v);
    }
    milli = kd::parse_quantity_milli(text);
    if (!milli) problem(path, "invalid quantity \"" + text + "\"", quantity_hint());
    return *milli;
}

using Resources = std::vector<std::pair<std::string, int64_t>>;

inline Resources resource_list(const Value& obj, const char* key, const std::string& base) {
    Resources out;
    const Value* m = object(obj, key, base);
    if (!m) return out;
    for (auto it = m->MemberBegin(); it != m->MemberEnd(); ++it) {
        std::string name(it->name.GetString(), it->name.GetStringLength());
        if (it->value.IsNull()) continue;
        out.emplace_back(name, quantity(it->value, field(field(base, key), name)));
    }
    return out;
}

}  // namespace kd::core::decode::dom
