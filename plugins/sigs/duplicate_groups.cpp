#include "duplicate_groups.hpp"

#include <algorithm>

namespace kd::plugins::sigs {

namespace {

// Appends `s` with its length first, so that a concatenation of fields is equal only for equal
// fields (a hash key for them).
void dup_put(std::string& out, std::string_view s) {
    out.append(std::to_string(s.size())).push_back(':');
    out.append(s);
}

}  // namespace

void DuplicateGroups::begin_node(std::string_view node) {
    node_ = std::string(node);
    seen_on_node_.clear();
}

const DuplicateGroups::SpecKeys& DuplicateGroups::keys_of(const Pod& pod) {
    auto [found, fresh] = by_spec_.try_emplace(pod.raw()->spec);
    if (!fresh) return found->second;
    SpecKeys& out = found->second;
    std::vector<std::string> images;
    for (size_t i = 0; i < pod.container_image_count(); ++i) images.emplace_back(pod.container_image(i));
    std::sort(images.begin(), images.end());
    std::string joined;
    for (size_t i = 0; i < images.size(); ++i) joined.append(i ? "#" : "").append(images[i]);

    // A pod is known by every owner × image pair; two pods are duplicates when the sorted lists
    // are equal (repeated entries included).
    std::vector<std::string> identity;
    std::string hashed;
    for (auto owner : pod.owners()) {
        OwnerKey key{std::string(pod.ns()), std::string(owner.kind()), std::string(owner.name()), joined};
        for (const auto& image : images) identity.push_back(key.ns + "/" + key.kind + "/" + key.name + "/" + image);
        hashed.clear();
        for (const std::string* field : {&key.ns, &key.kind, &key.name, &key.images}) dup_put(hashed, *field);
        auto [id, added] = key_ids_.try_emplace(hashed, keys_.size());
        if (added) {
            keys_.push_back(std::move(key));
            count_.push_back(0);
            group_of_key_.push_back(kNoGroup);
        }
        out.keys.push_back(id->second);
    }
    std::sort(identity.begin(), identity.end());
    hashed.clear();
    for (const auto& entry : identity) dup_put(hashed, entry);
    out.identity = identity_ids_.try_emplace(hashed, identity_ids_.size()).first->second;
    return out;
}

void DuplicateGroups::add(const Pod& pod) {
    const SpecKeys& spec = keys_of(pod);
    for (size_t key : spec.keys) ++count_[key];
    if (std::find(seen_on_node_.begin(), seen_on_node_.end(), spec.identity) == seen_on_node_.end()) {
        seen_on_node_.push_back(spec.identity);
        return;
    }
    for (size_t key : spec.keys) {
        size_t& group = group_of_key_[key];
        if (group == kNoGroup) {
            group = groups_.size();
            groups_.push_back({keys_[key], 0, {}, key});
        }
        auto& by_node = groups_[group].by_node;
        if (by_node.empty() || by_node.back().first != node_) by_node.emplace_back(node_, std::vector<Pod>{});
        by_node.back().second.push_back(pod);
    }
}

std::vector<DuplicatesOfOwner> DuplicateGroups::take() {
    for (auto& group : groups_) group.pods = count_[group.key_id];
    return std::move(groups_);
}

}  // namespace kd::plugins::sigs
