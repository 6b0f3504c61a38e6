// The model's nodes: kd_nodes stored in place (a deque: pointers stay valid), by UID and by name.
// Nodes are few, so each owns its UID and name text, which keeps deletion simple.
#pragma once

#include "cluster/drafts.hpp"
#include "cluster/store/free_slots.hpp"
#include "cluster/store/model_pools.hpp"

#include <kdesched/abi.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kd::core {

class NodeStore {
public:
    // Adds the node, or replaces the one stored under `uid`.
    void put(const NodeDraft& d, std::string_view uid, ModelPools& pools);
    // Deletes the node stored under `uid`; false when unknown.
    bool erase(std::string_view uid);

    const kd_node* by_name(std::string_view name) const {
        auto it = by_name_.find(name);
        return it == by_name_.end() ? nullptr : &slots_[it->second].node;
    }
    // Every node, in name order: deterministic whatever order the objects arrived in.
    std::vector<const kd_node*> all() const;
    std::vector<std::string> keys() const;
    size_t size() const { return by_name_.size(); }

private:
    struct NodeRecord {
        kd_node node{};
        std::string uid_text, name_text;
        bool alive = false;
    };

    std::deque<NodeRecord> slots_;
    FreeSlots free_;
    std::unordered_map<std::string_view, uint32_t> by_name_;  // key: interned name
    std::unordered_map<std::string, uint32_t> by_uid_;
};

}  // namespace kd::core
