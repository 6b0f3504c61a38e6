// Reading what kd_snapshot.list_objects answers (a JSON array of objects in their wire form)
// leniently: an item without metadata is passed over, a missing or mistyped field reads as empty.
// The host wrote the JSON, so a plugin need not re-validate it.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <string_view>

namespace kd::listed {

// The member `name` of an object; nullptr when absent or `v` is not an object.
inline const rapidjson::Value* member(const rapidjson::Value& v, const char* name) {
    if (!v.IsObject()) return nullptr;
    auto it = v.FindMember(name);
    return it == v.MemberEnd() ? nullptr : &it->value;
}

// The string `v` holds; "" when it is null or not a string.
inline std::string text(const rapidjson::Value* v) {
    return v && v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : std::string();
}

// Calls each(item, metadata) for every item of a list_objects answer that has metadata.
template <class Each>
void for_each(std::string_view json, Each&& each) {
    rapidjson::Document doc;
    doc.Parse(json.data(), json.size());
    if (doc.HasParseError() || !doc.IsArray()) return;
    for (const auto& item : doc.GetArray())
        if (const rapidjson::Value* meta = member(item, "metadata")) each(item, *meta);
}

}  // namespace kd::listed
