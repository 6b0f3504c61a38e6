// clear() of the drafts declared in cluster/drafts.hpp. The decoders reuse one draft per kind, so
// clear() empties the vectors but keeps their capacity (only nested vectors are freed).
#include "cluster/drafts.hpp"

namespace kd::core {

void PodDraft::clear() {
    meta.clear();
    bound = kd_pod{};
    bound_spec = kd_pod_spec{};
    lists.clear();
    scheduler_name = phase = qos_class = {};
    priority.reset();
    containers.clear();
    init_containers.clear();
    overhead.clear();
    node_selector.clear();
    has_required_affinity = false;
    affinity_terms.clear();
    local_storage = pvc = ephemeral_volume = false;
    conditions.clear();
    container_statuses.clear();
}

void NodeDraft::clear() {
    meta.clear();
    unschedulable = false;
    taints.clear();
    allocatable.clear();
    ready_status.reset();
}

void NodeMetricDraft::clear() {
    meta.clear();
    update_ms = 0;
    has_node_metric = false;
    system_usage.clear();
    pods.clear();
}

void WorkloadDraft::clear() {
    kind = {};
    meta.clear();
    replicas.reset();
    selector.reset();
    ready_replicas = 0;
}

void PodDisruptionBudgetDraft::clear() {
    meta.clear();
    selector.reset();
    min_available.reset();
    max_unavailable.reset();
    disruptions_allowed = 0;
}

}  // namespace kd::core
