// The small rapidjson helpers the PodMigrationJob and Reservation code share.
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>
#include <string_view>

namespace kd::plugins::migrationcontroller::json {

using Alloc = rapidjson::Document::AllocatorType;

// v[key] when v is an object that has it, else nullptr.
inline const rapidjson::Value* member(const rapidjson::Value* v, const char* key) {
    if (!v || !v->IsObject()) return nullptr;
    auto it = v->FindMember(key);
    return it == v->MemberEnd() ? nullptr : &it->value;
}

// The string value, "" when absent or not a string.
inline std::string_view str(const rapidjson::Value* v) {
    return v && v->IsString() ? std::string_view(v->GetString(), v->GetStringLength()) : std::string_view();
}

// A copied string value.
inline rapidjson::Value text(std::string_view s, Alloc& a) {
    return rapidjson::Value(s.data(), static_cast<rapidjson::SizeType>(s.size()), a);
}

// Sets obj[key] = value, replacing an existing member in place.
inline void put(rapidjson::Value& obj, std::string_view key, rapidjson::Value value, Alloc& a) {
    auto it = obj.FindMember(rapidjson::Value(rapidjson::StringRef(key.data(), key.size())));
    if (it != obj.MemberEnd())
        it->value = std::move(value);
    else
        obj.AddMember(text(key, a), std::move(value), a);
}

// obj[key] as an object, created (or replacing a non-object) when needed.
inline rapidjson::Value& object_member(rapidjson::Value& obj, const char* key, Alloc& a) {
    auto it = obj.FindMember(key);
    if (it == obj.MemberEnd() || !it->value.IsObject()) {
        put(obj, key, rapidjson::Value(rapidjson::kObjectType), a);
        it = obj.FindMember(key);
    }
    return it->value;
}

// Compact JSON text; "" for nullptr or null.
inline std::string to_json(const rapidjson::Value* v) {
    if (!v || v->IsNull()) return "";
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    v->Accept(w);
    return std::string(buf.GetString(), buf.GetSize());
}

}  // namespace kd::plugins::migrationcontroller::json
