#include "duplicate_groups.hpp"

#include <algorithm>

namespace kd::plugins::sigs {

void DuplicateGroups::begin_node(std::string_view node) {
    node_ = std::string(node);
    seen_on_node_.clear();
}

void DuplicateGroups::add(const Pod& pod) {
    std::vector<std::string> images;
    for (size_t i = 0; i < pod.container_image_count(); ++i) images.emplace_back(pod.container_image(i));
    std::sort(images.begin(), images.end());
    std::string joined;
    for (size_t i = 0; i < images.size(); ++i) joined.append(i ? "#" : "").append(images[i]);

    std::vector<OwnerKey> keys;
    // A pod is known by every owner × image pair; two pods are duplicates when the sorted lists
    // are equal (repeated entries included).
    std::vector<std::string> identity;
    for (auto owner : pod.owners()) {
        OwnerKey key{std::string(pod.ns()), std::string(owner.kind()), std::string(owner.name()), joined};
        ++count_[key];
        for (const auto& image : images) identity.push_back(key.ns + "/" + key.kind + "/" + key.name + "/" + image);
        keys.push_back(std::move(key));
    }
    std::sort(identity.begin(), identity.end());
    if (seen_on_node_.insert(std::move(identity)).second) return;

    for (auto& key : keys) {
        auto [it, fresh] = index_.try_emplace(key, groups_.size());
        if (fresh) groups_.push_back({key, 0, {}});
        auto& by_node = groups_[it->second].by_node;
        if (by_node.empty() || by_node.back().first != node_) by_node.emplace_back(node_, std::vector<Pod>{});
        by_node.back().second.push_back(pod);
    }
}

std::vector<DuplicatesOfOwner> DuplicateGroups::take() {
    for (auto& group : groups_) group.pods = count_[group.key];
    index_.clear();
    count_.clear();
    return std::move(groups_);
}

}  // namespace kd::plugins::sigs
