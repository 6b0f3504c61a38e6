// A scalar of a JSON document by JSON pointer, as text, for assertions on objects as a server
// holds them.
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/pointer.h>

#include <string>

namespace kd_test {

// The value at `pointer` ("/metadata/labels/team"; "~1" for a "/" in a key): a string as it is,
// a bool as true/false, an integer in decimal; "<absent>" or "<not a scalar>" otherwise.
inline std::string at(const rapidjson::Value& v, const char* pointer) {
    const rapidjson::Value* x = rapidjson::Pointer(pointer).Get(v);
    if (!x) return "<absent>";
    if (x->IsString()) return x->GetString();
    if (x->IsBool()) return x->GetBool() ? "true" : "false";
    if (x->IsInt64()) return std::to_string(x->GetInt64());
    return "<not a scalar>";
}

// The string under up to three keys ("metadata", "name"): "<missing>" when a key is absent,
// "<not a string>" when the value is something else.
inline std::string string_at(const rapidjson::Value& v, const char* a, const char* b = nullptr,
                             const char* c = nullptr) {
    const rapidjson::Value* p = &v;
    for (const char* k : {a, b, c}) {
        if (!k) break;
        if (!p->IsObject() || !p->HasMember(k)) return "<missing>";
        p = &(*p)[k];
    }
    return p->IsString() ? p->GetString() : "<not a string>";
}

}  // namespace kd_test
