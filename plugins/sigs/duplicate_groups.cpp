#include "duplicate_groups.hpp"

#include <algorithm>
#include <charconv>

namespace kd::plugins::sigs {

namespace {

// Appends `s` with its length first, so that a concatenation of fields is equal only for equal
// fields (a hash key for them).
void dup_put(std::string& out, std::string_view s) {
    char digits[24];
    char* end = std::to_chars(digits, digits + sizeof digits - 1, s.size()).ptr;
    *end++ = ':';
    out.append(digits, end).append(s);
}

}  // namespace

void DuplicateGroups::begin_node(std::string_view node) {
    node_ = std::string(node);
    seen_on_node_.clear();
}

void DuplicateGroups::sorted_images(const Pod& pod) {
    images_.clear();
    for (size_t i = 0; i < pod.container_image_count(); ++i) images_.push_back(pod.container_image(i));
    std::sort(images_.begin(), images_.end());
    joined_.clear();
    for (size_t i = 0; i < images_.size(); ++i) joined_.append(i ? "#" : "").append(images_[i]);
}

OwnerKey DuplicateGroups::owner_key(const KeyOrigin& origin) {
    sorted_images(origin.pod);
    size_t at = 0;
    for (auto owner : origin.pod.owners())
        if (at++ == origin.owner)
            return {std::string(origin.pod.ns()), std::string(owner.kind()), std::string(owner.name()), joined_};
    return {};
}

void DuplicateGroups::work_out(const Pod& pod, SpecKeys& out) {
    sorted_images(pod);

    // A pod is known by every owner × image pair; two pods are duplicates when the sorted lists
    // are equal (repeated entries included). Scratch buffers: this runs once per spec.
    size_t entries = 0, at = 0;
    for (auto owner : pod.owners()) {
        for (std::string_view image : images_) {
            if (identity_.size() <= entries) identity_.emplace_back();
            std::string& entry = identity_[entries++];
            entry.clear();
            entry.append(pod.ns()).append("/").append(owner.kind()).append("/").append(owner.name()).append("/");
            entry.append(image);
        }
        hashed_.clear();
        for (std::string_view field : {pod.ns(), owner.kind(), owner.name(), std::string_view(joined_)})
            dup_put(hashed_, field);
        size_t id = key_ids_.id_of(hashed_);
        if (id == origins_.size()) {
            origins_.push_back({pod, at});
            count_.push_back(0);
            group_of_key_.push_back(kNoGroup);
        }
        out.keys.push_back(id);
        ++at;
    }
    std::sort(identity_.begin(), identity_.begin() + static_cast<ptrdiff_t>(entries));
    hashed_.clear();
    for (size_t i = 0; i < entries; ++i) dup_put(hashed_, identity_[i]);
    out.identity = identity_ids_.id_of(hashed_);
}

void DuplicateGroups::add(const Pod& pod, const SpecKeys& spec) {
    for (size_t key : spec.keys) ++count_[key];
    if (std::find(seen_on_node_.begin(), seen_on_node_.end(), spec.identity) == seen_on_node_.end()) {
        seen_on_node_.push_back(spec.identity);
        return;
    }
    for (size_t key : spec.keys) {
        size_t& group = group_of_key_[key];
        if (group == kNoGroup) {
            group = groups_.size();
            groups_.push_back({owner_key(origins_[key]), 0, {}, key});
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
