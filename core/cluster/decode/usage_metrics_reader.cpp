#include "cluster/decode/usage_metrics_reader.hpp"

#include "cluster/decode/dom_fields.hpp"

namespace kd::core::decode {

namespace {

using namespace dom;

UsageAmounts usage_of(const Value& obj, const std::string& base) {
    UsageAmounts out;
    for (auto& [name, milli] : resource_list(obj, "usage", base)) out[name] = milli;
    return out;
}

// metadata.name, which both kinds need to be found by.
std::string required_name(const Value& obj, const Value*& meta) {
    meta = object(obj, "metadata", "");
    std::string name = meta ? string(*meta, "name", "metadata") : "";
    if (name.empty()) problem("metadata.name", "is missing", "metrics-server names each entry after its node or pod");
    return name;
}

}  // namespace

bool is_usage_metrics_kind(std::string_view kind) {
    return kind == kNodeMetricsKind || kind == kPodMetricsKind;
}

NodeUsage read_node_usage(const Value& obj) {
    NodeUsage n;
    const Value* meta = nullptr;
    n.name = required_name(obj, meta);
    n.timestamp = string(obj, "timestamp", "");
    n.window = string(obj, "window", "");
    n.usage = usage_of(obj, "");
    return n;
}

PodUsage read_pod_usage(const Value& obj) {
    PodUsage p;
    const Value* meta = nullptr;
    p.name = required_name(obj, meta);
    p.ns = string(*meta, "namespace", "metadata");
    p.timestamp = string(obj, "timestamp", "");
    p.window = string(obj, "window", "");
    each_object(obj, "containers", "", [&](const Value& c, const std::string& path) {
        p.containers.push_back(PodUsage::Container{string(c, "name", path), usage_of(c, path)});
    });
    return p;
}

}  // namespace kd::core::decode
