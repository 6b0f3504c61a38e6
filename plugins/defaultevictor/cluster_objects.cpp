#include "cluster_objects.hpp"

#include <kdesched/decode.hpp>
#include <kdesched/listed_objects.hpp>

#include <rapidjson/document.h>

namespace kd::plugins::defaultevictor {

using kd::listed::for_each;
using kd::listed::member;

namespace {

// The string member `name` of an object; "" when absent or not a string.
std::string text(const rapidjson::Value& v, const char* name) {
    return kd::listed::text(member(v, name));
}

}  // namespace

void ClusterObjects::refresh(const kd::Snapshot& snapshot, Kinds kinds) {
    uint64_t revision = snapshot.revision();
    if (revision != 0 && revision_ == revision) return;
    revision_ = revision;
    namespaces_.clear();
    pdb_selectors_.clear();
    priority_classes_.clear();
    pvc_classes_.clear();
    if (kinds.namespaces)
        for_each(snapshot.list_objects("Namespace"), [&](const rapidjson::Value&, const rapidjson::Value& meta) {
            auto& labels = namespaces_[text(meta, "name")];
            if (const rapidjson::Value* l = member(meta, "labels"); l && l->IsObject())
                for (const auto& kv : l->GetObject())
                    if (kv.value.IsString()) labels[kv.name.GetString()] = kv.value.GetString();
        });
    if (kinds.pdbs)
        for_each(snapshot.list_objects("PodDisruptionBudget"),
                 [&](const rapidjson::Value& item, const rapidjson::Value& meta) {
                     const rapidjson::Value* spec = member(item, "spec");
                     const rapidjson::Value* selector = spec ? member(*spec, "selector") : nullptr;
                     if (!selector || selector->IsNull()) return;
                     kd::LabelSelector s;
                     kd::Errors errs;
                     kd::decode_value(*selector, s, "selector", errs);
                     s.validate(errs, "selector");
                     if (errs.empty()) pdb_selectors_[text(meta, "namespace")].push_back(std::move(s));
                 });
    if (kinds.priority_classes)
        for_each(snapshot.list_objects("PriorityClass"),
                 [&](const rapidjson::Value& item, const rapidjson::Value& meta) {
                     // The API requires a value; a class without one is not counted as known.
                     const rapidjson::Value* value = member(item, "value");
                     if (value && value->IsInt()) priority_classes_[text(meta, "name")] = value->GetInt();
                 });
    if (kinds.pvcs)
        for_each(snapshot.list_objects("PersistentVolumeClaim"),
                 [&](const rapidjson::Value& item, const rapidjson::Value& meta) {
                     const rapidjson::Value* spec = member(item, "spec");
                     pvc_classes_[text(meta, "namespace")][text(meta, "name")] =
                         spec ? text(*spec, "storageClassName") : std::string();
                 });
}

std::optional<int32_t> ClusterObjects::priority_class_value(std::string_view name) const {
    auto it = priority_classes_.find(name);
    if (it == priority_classes_.end()) return std::nullopt;
    return it->second;
}

std::optional<std::string_view> ClusterObjects::storage_class_of(std::string_view ns, std::string_view name) const {
    auto in_ns = pvc_classes_.find(ns);
    if (in_ns == pvc_classes_.end()) return std::nullopt;
    auto it = in_ns->second.find(name);
    if (it == in_ns->second.end()) return std::nullopt;
    return std::string_view(it->second);
}

const std::map<std::string, std::string>* ClusterObjects::namespace_labels(std::string_view ns) const {
    auto it = namespaces_.find(ns);
    return it == namespaces_.end() ? nullptr : &it->second;
}

bool ClusterObjects::covered_by_pdb(const kd::Pod& pod) const {
    auto it = pdb_selectors_.find(pod.ns());
    if (it == pdb_selectors_.end()) return false;
    kd::KeyValues labels = pod.labels();
    for (const kd::LabelSelector& s : it->second)
        if (s.matches([&](const std::string& k) { return labels.get(k); })) return true;
    return false;
}

}  // namespace kd::plugins::defaultevictor
