// What the snapshot decoders produce, one object at a time, before the model interns it.
//
// Drafts of the high-volume kinds (Pod, Node, NodeMetric, workloads) hold string_views into the
// decoder's buffer and vectors that keep their capacity between objects, so decoding allocates
// almost nothing per object. They are valid only during the ObjectSink call that receives them.
// The rare kinds the controllers write (PodMigrationJob, Reservation) are owned objects.
#pragma once

#include "cluster/list_arena.hpp"
#include "cluster/migration_objects.hpp"
#include "cluster/usage_metrics.hpp"

#include <kdesched/abi.h>
#include <kdesched/label_selector.hpp>

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace kd::core {

using KeyValueDraft = std::pair<std::string_view, std::string_view>;

// A resource list as read: name and exact milli-value.
using ResourceDraft = std::vector<std::pair<std::string_view, int64_t>>;

struct ObjectMetaDraft {
    std::string_view uid, ns, name;
    int64_t creation_ms = 0;  // 0 = absent
    bool deleting = false;    // deletionTimestamp present
    std::vector<KeyValueDraft> labels, annotations;
    struct Owner {
        std::string_view api_version, kind, name, uid;
        bool controller = false;
    };
    std::vector<Owner> owners;
    void clear() {
        uid = ns = name = {};
        creation_ms = 0;
        deleting = false;
        labels.clear();
        annotations.clear();
        owners.clear();
    }
};

struct SelectorRequirementDraft {
    std::string_view key, op;
    std::vector<std::string_view> values;
};

struct NodeSelectorTermDraft {
    std::vector<SelectorRequirementDraft> expressions, fields;
};

struct PodDraft {
    ObjectMetaDraft meta;
    // The values of the bound rows (cluster/schema/object_schema.hpp: nodeName, status.reason,
    // status.startTime, …) in the members they land in; kd_str members view the decoder's buffer.
    // Only the bound members are set: the model copies those and fills the rest itself.
    kd_pod bound{};
    kd_pod_spec bound_spec{};
    ListArena lists;  // the elements of the bound lists (their items point into it)
    std::string_view scheduler_name, phase, qos_class;
    std::optional<int32_t> priority;
    // Per container: requests and limits; the model derives effective requests and QoS.
    struct Container {
        ResourceDraft requests, limits;
        // restartPolicy: Always on an init container: a sidecar, whose requests add to the pod's
        // for as long as it runs (Kubernetes resourcehelper.PodRequests) instead of only
        // counting while the init containers run.
        bool restart_always = false;
    };
    std::vector<Container> containers, init_containers;
    ResourceDraft overhead;
    std::vector<KeyValueDraft> node_selector;
    bool has_required_affinity = false;
    std::vector<NodeSelectorTermDraft> affinity_terms;
    bool local_storage = false, pvc = false, ephemeral_volume = false;
    struct Condition {
        std::string_view type, status, reason, message;
        std::optional<int64_t> transition_ms;  // lastTransitionTime
    };
    std::vector<Condition> conditions;
    struct ContainerStatus {
        uint8_t kind = 0;   // kd_container_kind
        uint8_t state = 0;  // kd_container_state
        int32_t restart_count = 0, exit_code = 0;
        std::string_view name, reason;
    };
    std::vector<ContainerStatus> container_statuses;  // in kd_pod.container_statuses' order
    void clear();
};

struct NodeDraft {
    ObjectMetaDraft meta;
    bool unschedulable = false;
    struct Taint {
        std::string_view key, value, effect;
    };
    std::vector<Taint> taints;
    ResourceDraft allocatable;
    std::optional<std::string_view> ready_status;  // status of condition Ready, if present
    void clear();
};

struct NodeMetricDraft {
    ObjectMetaDraft meta;   // name = node name
    int64_t update_ms = 0;  // status.updateTime; 0 = absent
    bool has_node_metric = false;
    ResourceDraft system_usage;
    struct PodUsage {
        std::string_view ns, name;
        ResourceDraft usage;
    };
    std::vector<PodUsage> pods;
    void clear();
};

// ReplicaSet, Deployment, StatefulSet, ReplicationController, Job, DaemonSet.
struct WorkloadDraft {
    std::string_view kind;
    ObjectMetaDraft meta;
    std::optional<int32_t> replicas;  // spec.replicas (Job: spec.parallelism)
    std::optional<kd::LabelSelector> selector;
    int32_t ready_replicas = 0;  // status.readyReplicas (Job: status.ready)
    void clear();
};

struct PodDisruptionBudgetDraft {
    ObjectMetaDraft meta;
    std::optional<kd::LabelSelector> selector;
    std::optional<kd::IntOrString> min_available, max_unavailable;
    int32_t disruptions_allowed = 0;
    void clear();
};

struct NamespaceDraft {
    ObjectMetaDraft meta;
    void clear() { meta.clear(); }
};

struct PriorityClassDraft {
    ObjectMetaDraft meta;
    int32_t value = 0;
    void clear() {
        meta.clear();
        value = 0;
    }
};

struct PersistentVolumeClaimDraft {
    ObjectMetaDraft meta;
    std::string_view storage_class;  // spec.storageClassName; empty when absent
    void clear() {
        meta.clear();
        storage_class = {};
    }
};

struct SecretDraft {
    ObjectMetaDraft meta;
    std::vector<KeyValueDraft> data;  // values base64 as in the object
    void clear() {
        meta.clear();
        data.clear();
    }
};

// Receives decoded objects in file order. A sink may throw kd::core::Error to stop the load.
class ObjectSink {
public:
    virtual ~ObjectSink() = default;
    virtual void on_pod(const PodDraft&) = 0;
    virtual void on_node(const NodeDraft&) = 0;
    virtual void on_node_metric(const NodeMetricDraft&) = 0;
    virtual void on_workload(const WorkloadDraft&) = 0;
    virtual void on_pdb(const PodDisruptionBudgetDraft&) = 0;
    virtual void on_namespace(const NamespaceDraft&) = 0;
    virtual void on_priority_class(const PriorityClassDraft&) = 0;
    virtual void on_pvc(const PersistentVolumeClaimDraft&) = 0;
    virtual void on_secret(const SecretDraft&) = 0;
    virtual void on_migration_job(PodMigrationJob) = 0;
    virtual void on_reservation(Reservation) = 0;
    // metrics.k8s.io usage (usage_metrics.hpp); a sink that keeps no usage ignores it.
    virtual void on_node_usage(NodeUsage) {}
    virtual void on_pod_usage(PodUsage) {}
};

}  // namespace kd::core
