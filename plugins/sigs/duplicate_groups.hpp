// How RemoveDuplicates finds duplicates (pkg/framework/plugins/removeduplicates/removeduplicates.go
// @v0.35.1): the owner keys a pod counts under, and the pods that repeat another pod of their node.
#pragma once

#include "text_ids.hpp"

#include <kdesched/address_table.hpp>
#include <kdesched/view.hpp>

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kd::plugins::sigs {

// One of a pod's ownerReferences together with its namespace and all its containers' images
// (sorted, joined by '#'): upstream's podOwner.
struct OwnerKey {
    std::string ns, kind, name, images;
    auto operator<=>(const OwnerKey&) const = default;
    // "ns/kind/name/images", as upstream prints it.
    std::string str() const { return ns + "/" + kind + "/" + name + "/" + images; }
};

// The duplicates under one owner key: node by node, the pods after the first of their kind there.
struct DuplicatesOfOwner {
    OwnerKey key;
    int32_t pods = 0;  // every pod counted under the key, the first ones of each node included
    std::vector<std::pair<std::string, std::vector<Pod>>> by_node;  // in the order the nodes came
    size_t key_id = 0;                                              // DuplicateGroups' number for `key`
};

// Collects the owner keys and the duplicates, node by node, in the order given.
class DuplicateGroups {
public:
    // What a pod spec counts under: its owner keys (ids into origins_) and its identity (the sorted
    // ns/kind/name/image list, numbered: equal lists, equal ids). Everything add() reads is in
    // the spec (namespace, owners, images), which pods share: it is worked out once per spec.
    struct SpecKeys {
        std::vector<size_t> keys;
        size_t identity = 0;
        bool candidate = false;  // what the caller's test said of the spec; no keys when false
    };

    // Starts a node: duplicates are found among the pods of one node only.
    void begin_node(std::string_view node);
    // The keys of the pod's spec, or nullptr when `candidate(pod)` (asked once per spec: it may
    // read only what the spec holds) says the spec's pods never count.
    template <class SpecTest>
    const SpecKeys* keys_if(const Pod& pod, SpecTest&& candidate) {
        auto [keys, fresh] = by_spec_.try_emplace(pod.raw()->spec);
        if (fresh) {
            keys.candidate = candidate(pod);
            if (keys.candidate) work_out(pod, keys);
        }
        return keys.candidate ? &keys : nullptr;
    }
    // Counts a pod of the current node under the keys keys_if gave for it.
    void add(const Pod& pod, const SpecKeys& spec);
    // The owner keys that have duplicates, in the order their first duplicate was found.
    std::vector<DuplicatesOfOwner> take();

private:
    // A key's first pod and which of its owners: the OwnerKey is spelled out only for a group.
    struct KeyOrigin {
        Pod pod;
        size_t owner;
    };
    void work_out(const Pod& pod, SpecKeys& out);
    void sorted_images(const Pod& pod);  // into images_ and joined_
    OwnerKey owner_key(const KeyOrigin& origin);

    std::string node_;
    std::vector<size_t> seen_on_node_;  // identities of the current node's pods
    SpecTable<SpecKeys> by_spec_;
    TextIds key_ids_;                   // length-prefixed ns, kind, name, images
    std::vector<KeyOrigin> origins_;    // by key id
    std::vector<int32_t> count_;        // by key id
    std::vector<size_t> group_of_key_;  // by key id: index into groups_, or kNoGroup
    TextIds identity_ids_;              // the length-prefixed sorted list
    std::vector<DuplicatesOfOwner> groups_;
    // Scratch for work_out, kept between calls.
    std::vector<std::string_view> images_;
    std::string joined_, hashed_;
    std::vector<std::string> identity_;
    static constexpr size_t kNoGroup = SIZE_MAX;
};

}  // namespace kd::plugins::sigs
