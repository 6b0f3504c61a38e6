// How RemoveDuplicates finds duplicates (pkg/framework/plugins/removeduplicates/removeduplicates.go
// @v0.35.1): the owner keys a pod counts under, and the pods that repeat another pod of their node.
#pragma once

#include <kdesched/view.hpp>

#include <compare>
#include <map>
#include <set>
#include <string>
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
};

// Collects the owner keys and the duplicates, node by node, in the order given.
class DuplicateGroups {
public:
    // Starts a node: duplicates are found among the pods of one node only.
    void begin_node(std::string_view node);
    // Counts a candidate pod of the current node (one with owners and images).
    void add(const Pod& pod);
    // The owner keys that have duplicates, in the order their first duplicate was found.
    std::vector<DuplicatesOfOwner> take();

private:
    std::string node_;
    std::set<std::vector<std::string>> seen_on_node_;  // each pod's sorted ns/kind/name/image keys
    std::map<OwnerKey, int32_t> count_;
    std::map<OwnerKey, size_t> index_;  // into groups_
    std::vector<DuplicatesOfOwner> groups_;
};

}  // namespace kd::plugins::sigs
