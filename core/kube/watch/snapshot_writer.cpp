#include "kube/watch/snapshot_writer.hpp"

#include "error.hpp"
#include "kube/client/resources.hpp"
#include "text/json_writer.hpp"

#include <rapidjson/document.h>

namespace kd::core::kube {

namespace {

// One object as the snapshot keeps it: apiVersion and kind first, managedFields dropped.
std::string snapshot_form(rapidjson::Value& obj, std::string_view api_version, std::string_view kind) {
    if (!obj.IsObject()) return "";
    if (auto meta = obj.FindMember("metadata"); meta != obj.MemberEnd() && meta->value.IsObject()) {
        meta->value.RemoveMember("managedFields");
        if (auto ann = meta->value.FindMember("annotations"); ann != meta->value.MemberEnd() && ann->value.IsObject())
            ann->value.RemoveMember("kubectl.kubernetes.io/last-applied-configuration");
    }
    json::TextWriter w;
    w.StartObject();
    json::field(w, "apiVersion", api_version);
    json::field(w, "kind", kind);
    for (auto& m : obj.GetObject()) {
        std::string_view key(m.name.GetString(), m.name.GetStringLength());
        if (key == "apiVersion" || key == "kind") continue;
        json::key(w, key);
        m.value.Accept(w);
    }
    w.EndObject();
    return w.text();
}

std::string snapshot_form(char* text, const ApiResource& res) {
    rapidjson::Document d;
    d.ParseInsitu(text);
    if (d.HasParseError()) return "";
    return snapshot_form(d, res.group_version(), res.kind);
}

}  // namespace

SnapshotWriter::SnapshotWriter(std::ostream& out) : out_(out) {}

void SnapshotWriter::consume(std::vector<Change>& changes) {
    for (Change& c : changes) {
        auto k = static_cast<size_t>(c.kind);
        switch (c.type) {
            case Change::Type::list_start:
            case Change::Type::list_abort:
                pending_[k].clear();
                break;
            case Change::Type::list_items: {
                const ApiResource& res = resource_of(c.kind);
                if (c.encoding != Encoding::json)
                    throw Error("LIST " + res.collection_path(), "the API server answered protobuf to a JSON request",
                                "report this as a bug");
                c.for_each([&](char* p, size_t) {
                    std::string obj = snapshot_form(p, res);
                    if (!obj.empty()) pending_[k].push_back(std::move(obj));
                });
                break;
            }
            case Change::Type::list_done:
                for (auto& o : pending_[k]) done_[k].push_back(std::move(o));
                pending_[k].clear();
                break;
            default:
                break;
        }
    }
}

void SnapshotWriter::add_listed(std::string_view api_version, std::string_view kind, rapidjson::Value& items) {
    std::vector<std::string> objects;
    for (auto& item : items.GetArray())
        if (std::string obj = snapshot_form(item, api_version, kind); !obj.empty()) objects.push_back(std::move(obj));
    listed_.emplace_back(std::string(kind), std::move(objects));
}

std::map<std::string, size_t> SnapshotWriter::finish() {
    std::map<std::string, size_t> counts;
    out_ << R"({"apiVersion":"v1","kind":"List","items":[)";
    bool first = true;
    auto write = [&](std::string_view kind, const std::vector<std::string>& objects) {
        if (!objects.empty()) counts[std::string(kind)] += objects.size();
        for (const auto& o : objects) {
            out_ << (first ? "\n" : ",\n") << o;
            first = false;
        }
    };
    for (ObjectKind kind : kAllObjectKinds) write(kind_name(kind), done_[static_cast<size_t>(kind)]);
    for (const auto& [kind, objects] : listed_) write(kind, objects);
    out_ << "\n]}\n";
    return counts;
}

}  // namespace kd::core::kube
