// Writing JSON on the host side: RapidJSON's SAX writers plus the few helpers every encoder of
// ours shares (the wire form of PodMigrationJobs and Reservations, the simulation report, request
// bodies). Plugins have their own, on their side of the boundary.
#pragma once

#include <kdesched/label_selector.hpp>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace kd::core::json {

// Compact JSON into a string.
class TextWriter : public rapidjson::Writer<rapidjson::StringBuffer> {
public:
    TextWriter() : rapidjson::Writer<rapidjson::StringBuffer>(buffer_) {}
    std::string text() const { return std::string(buffer_.GetString(), buffer_.GetSize()); }

private:
    rapidjson::StringBuffer buffer_;
};

// Compact JSON text of a DOM value.
inline std::string text_of(const rapidjson::Value& v) {
    TextWriter w;
    v.Accept(w);
    return w.text();
}

template <class W>
void string(W& w, std::string_view s) {
    w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

template <class W>
void key(W& w, std::string_view k) {
    w.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()));
}

// "key": "value".
template <class W>
void field(W& w, std::string_view k, std::string_view value) {
    key(w, k);
    string(w, value);
}

// "key": number.
template <class W>
void field(W& w, std::string_view k, uint64_t value) {
    key(w, k);
    w.Uint64(value);
}

// "key": "value", left out when the value is empty.
template <class W>
void field_if_set(W& w, std::string_view k, std::string_view value) {
    if (!value.empty()) field(w, k, value);
}

// "key": <JSON text as it is>, left out when the text is empty.
template <class W>
void raw_field(W& w, std::string_view k, std::string_view json) {
    if (json.empty()) return;
    key(w, k);
    w.RawValue(json.data(), json.size(), rapidjson::kObjectType);
}

// "key": {"k": "v", …}, left out when the map is empty.
template <class W>
void string_map(W& w, std::string_view k, const std::map<std::string, std::string>& m) {
    if (m.empty()) return;
    key(w, k);
    w.StartObject();
    for (const auto& [name, value] : m) field(w, name, value);
    w.EndObject();
}

// "key": ["s", …].
template <class W, class Strings>
void string_array(W& w, std::string_view k, const Strings& items) {
    key(w, k);
    w.StartArray();
    for (const auto& s : items) string(w, s);
    w.EndArray();
}

// "key": [{…}, …], `write_one(item)` filling each object.
template <class W, class Items, class WriteOne>
void object_array(W& w, std::string_view k, const Items& items, WriteOne&& write_one) {
    key(w, k);
    w.StartArray();
    for (const auto& item : items) {
        w.StartObject();
        write_one(item);
        w.EndObject();
    }
    w.EndArray();
}

// "key": a metav1.LabelSelector; {} when it is empty (which selects everything: never left out).
template <class W>
void label_selector(W& w, std::string_view k, const kd::LabelSelector& s) {
    key(w, k);
    w.StartObject();
    string_map(w, "matchLabels", s.matchLabels);
    if (!s.matchExpressions.empty())
        object_array(w, "matchExpressions", s.matchExpressions, [&](const kd::LabelSelectorRequirement& e) {
            field(w, "key", e.key);
            field(w, "operator", e.operator_);
            string_array(w, "values", e.values);
        });
    w.EndObject();
}

}  // namespace kd::core::json
