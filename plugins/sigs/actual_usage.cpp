#include "actual_usage.hpp"

#include <kdesched/listed_objects.hpp>
#include <kdesched/quantity.hpp>

#include <rapidjson/document.h>

#include <stdexcept>

namespace kd::plugins::sigs {

namespace {

// A `usage` object's quantities (the host writes them; one it could not parse is left out).
ResourceAmounts usage_of(const rapidjson::Value& owner) {
    ResourceAmounts out;
    const rapidjson::Value* usage = listed::member(owner, "usage");
    if (!usage || !usage->IsObject()) return out;
    for (auto it = usage->MemberBegin(); it != usage->MemberEnd(); ++it)
        if (auto milli = parse_quantity_milli(listed::text(&it->value)))
            out[std::string(it->name.GetString(), it->name.GetStringLength())] = *milli;
    return out;
}

}  // namespace

ActualUsage::ActualUsage(const Snapshot& snapshot) : snapshot_(snapshot) {
    listed::for_each(snapshot.list_objects("NodeMetrics.metrics.k8s.io"),
                     [&](const rapidjson::Value& item, const rapidjson::Value& meta) {
                         ResourceAmounts all = usage_of(item), kept;
                         // Upstream's collector keeps cpu and memory only (AllNodesUsage).
                         for (const char* name : {"cpu", "memory"})
                             if (all.count(name)) kept[name] = all[name];
                         nodes_[listed::text(listed::member(meta, "name"))] = std::move(kept);
                     });
}

void ActualUsage::read_pods() {
    pods_read_ = true;
    listed::for_each(snapshot_.list_objects("PodMetrics.metrics.k8s.io"), [&](const rapidjson::Value& item,
                                                                              const rapidjson::Value& meta) {
        auto& containers =
            pods_[{listed::text(listed::member(meta, "namespace")), listed::text(listed::member(meta, "name"))}];
        const rapidjson::Value* list = listed::member(item, "containers");
        if (!list || !list->IsArray()) return;
        for (const auto& c : list->GetArray())
            containers.push_back(Container{listed::text(listed::member(c, "name")), usage_of(c)});
    });
}

std::vector<NodeUtilization> ActualUsage::measure_nodes(const Snapshot& snapshot,
                                                        const std::vector<std::string>& resources) const {
    std::vector<NodeUtilization> out;
    for (auto node : snapshot.nodes()) {
        std::string name(node.name());
        auto collected = nodes_.find(name);
        if (collected == nodes_.end())
            throw std::runtime_error("error getting node usage: unable to find node \"" + name +
                                     "\" in the collected metrics (metrics-server has no NodeMetrics for it yet, "
                                     "or the host could not read metrics.k8s.io: see the host's log)");
        NodeUtilization& n = out.emplace_back(NodeUtilization{node, running_pods(snapshot, node.name()), {}, {}});
        for (const auto& resource : resources) {
            if (resource == kPodsResource) {
                n.usage[resource] = static_cast<int64_t>(n.pods.size()) * 1000;
                continue;
            }
            auto amount = collected->second.find(resource);
            if (amount == collected->second.end())
                throw std::runtime_error("error getting node usage: unable to find \"" + resource +
                                         "\" resource for collected \"" + name +
                                         "\" node metric (metrics-server measures cpu and memory only: keep the "
                                         "thresholds to cpu, memory and pods)");
            n.usage[resource] = amount->second;
        }
        n.share = shares_of(node, n.usage);
    }
    return out;
}

std::optional<ResourceAmounts> ActualUsage::pod_usage(const Pod& pod, const std::vector<std::string>& resources,
                                                      std::string& why) {
    if (!pods_read_) read_pods();
    auto it = pods_.find(std::make_pair(std::string(pod.ns()), std::string(pod.name())));
    if (it == pods_.end()) {
        why = "no PodMetrics for the pod (yet)";
        return std::nullopt;
    }
    ResourceAmounts total;
    for (const auto& c : it->second)
        for (const auto& resource : resources) {
            if (resource == kPodsResource) continue;
            auto amount = c.usage.find(resource);
            if (amount == c.usage.end()) {
                why = "container \"" + c.name + "\" is missing \"" + resource + "\" resource";
                return std::nullopt;
            }
            total[resource] += amount->second;
        }
    return total;
}

}  // namespace kd::plugins::sigs
