// An owned copy of a pod as the model holds it, so the simulator can delete the pod and create
// its replacement (a workload controller's job) from what it was.
#pragma once

#include "cluster/drafts.hpp"

#include <kdesched/abi.h>

#include <array>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kd::core {

class PodCopy {
public:
    explicit PodCopy(const kd_pod& pod);
    PodCopy(const PodCopy&) = delete;  // bound_ views texts_
    PodCopy& operator=(const PodCopy&) = delete;

    // A draft of the replacement: same template, new name and UID, created at `now_ms`, bound to
    // `node` (Running and Ready) or, when `node` is empty, Pending and unschedulable.
    // Valid while this copy lives.
    const PodDraft& replacement(const std::string& name, const std::string& uid, const std::string& node,
                                int64_t now_ms);

    // The same pod (name, UID, node, creation, phase, status) with one annotation set: a merge patch.
    const PodDraft& annotated(const std::string& key, const std::string& value);

    const std::string& ns() const { return ns_; }
    const std::string& name() const { return name_; }
    const std::string& node() const { return node_; }
    // The controller ownerReference's kind and name ("" when the pod has no controller).
    const std::string& controller_kind() const { return controller_kind_; }
    const std::string& controller_name() const { return controller_name_; }

private:
    using KV = std::pair<std::string, std::string>;
    std::string uid_, ns_, name_, node_, scheduler_, qos_, phase_;
    int64_t creation_ms_ = 0;
    std::optional<int32_t> priority_;
    uint32_t flags_ = 0;
    std::vector<KV> labels_, annotations_, node_selector_;
    struct Owner {
        std::string api_version, kind, name, uid;
        bool controller;
    };
    std::vector<Owner> owners_;
    std::vector<std::pair<std::string, int64_t>> requests_;
    struct Requirement {
        std::string key, op;
        std::vector<std::string> values;
    };
    struct Term {
        std::vector<Requirement> expressions, fields;
    };
    std::vector<Term> terms_;
    // Kept for annotated(): the pod's own status.
    std::vector<std::array<std::string, 4>> conditions_;  // type, status, reason, message
    std::vector<std::optional<int64_t>> transitions_;     // each condition's lastTransitionTime
    struct ContainerStatus {
        uint8_t kind, state;
        int32_t restart_count, exit_code;
        std::string name, reason;
    };
    std::vector<ContainerStatus> container_statuses_;
    // The bound fields (cluster/schema/object_schema.hpp), their strings kept in texts_.
    kd_pod bound_{};
    kd_pod_spec bound_spec_{};
    std::deque<std::string> texts_;
    std::deque<std::vector<uint64_t>> arrays_;  // the bound lists' arrays
    std::string controller_kind_, controller_name_;
    std::string new_name_, new_uid_, new_node_;
    PodDraft draft_;
};

}  // namespace kd::core
