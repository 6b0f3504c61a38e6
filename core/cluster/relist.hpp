// A relist: every object of one kind, as a fresh LIST returns it, replaces what the model holds of
// that kind. Objects the list delivers are stored as usual; when it ends, those it did not
// deliver are removed — they were deleted while the watch was down.
#pragma once

#include "cluster/cluster_model.hpp"

#include <string>
#include <unordered_set>

namespace kd::core {

class Relist : public ObjectSink {
public:
    Relist(ClusterModel& model, ObjectKind kind) : model_(model), kind_(kind) {}

    void on_pod(const PodDraft& d) override;
    void on_node(const NodeDraft& d) override;
    void on_node_metric(const NodeMetricDraft& d) override;
    void on_workload(const WorkloadDraft& d) override;
    void on_pdb(const PodDisruptionBudgetDraft& d) override;
    void on_namespace(const NamespaceDraft& d) override;
    void on_priority_class(const PriorityClassDraft& d) override;
    void on_pvc(const PersistentVolumeClaimDraft& d) override;
    void on_secret(const SecretDraft& d) override;
    void on_migration_job(PodMigrationJob job) override;
    void on_reservation(Reservation r) override;

    // Removes every object of the kind the list did not deliver; returns how many.
    size_t finish();
    size_t delivered() const { return seen_.size(); }

private:
    void seen(ObjectKind kind, std::string_view uid, std::string_view ns, std::string_view name);

    ClusterModel& model_;
    ObjectKind kind_;
    std::unordered_set<std::string> seen_;
};

}  // namespace kd::core
