// Which pods the MigrationController lets migrate (as koord's MigrationController `Filter`): the
// non-retryable filter (namespaces, eviction cost, koord EvictorFilter, expected replicas), the
// retryable one (the migrating limits, counted over the PodMigrationJobs), and the scheduler-name
// check of ReservationFirst. Each rejection carries a reason code shown by `--explain`.
#pragma once

#include "args.hpp"
#include "migrations.hpp"

#include <kdesched/plugin.hpp>
#include <kdesched/view.hpp>

#include <string>

namespace kd::plugins::migrationcontroller {

namespace reason {
inline constexpr const char* kExistingJob = "ExistingMigrationJob";
inline constexpr const char* kSchedulerName = "SchedulerNameNotServed";
inline constexpr const char* kNamespace = "Namespace";
inline constexpr const char* kEvictionCost = "EvictionCostMax";
inline constexpr const char* kDaemonSet = "DaemonSetPod";
inline constexpr const char* kMirror = "MirrorPod";
inline constexpr const char* kStatic = "StaticPod";
inline constexpr const char* kTerminating = "Terminating";
inline constexpr const char* kBarePod = "BarePod";
inline constexpr const char* kSystemCritical = "SystemCritical";
inline constexpr const char* kPriorityThreshold = "PriorityThreshold";
inline constexpr const char* kLocalStorage = "LocalStorage";
inline constexpr const char* kPVC = "PVC";
inline constexpr const char* kLabelSelector = "LabelSelector";
inline constexpr const char* kExpectedReplicas = "ExpectedReplicas";
inline constexpr const char* kWorkloadUnknown = "WorkloadNotFound";
inline constexpr const char* kMaxGlobally = "MaxMigratingGlobally";
inline constexpr const char* kMaxPerNode = "MaxMigratingPerNode";
inline constexpr const char* kMaxPerNamespace = "MaxMigratingPerNamespace";
inline constexpr const char* kMaxPerWorkload = "MaxMigratingPerWorkload";
inline constexpr const char* kMaxUnavailable = "MaxUnavailablePerWorkload";
inline constexpr const char* kNodeFit = "NodeFit";
inline constexpr const char* kObjectLimiter = "ObjectLimiter";
}  // namespace reason

class MigrationFilters {
public:
    explicit MigrationFilters(const MigrationControllerArgs& args);

    // Namespaces, eviction cost, EvictorFilter (pkg/descheduler/evictions), expected replicas; the
    // evict annotation passes.
    kd::Verdict non_retryable(const kd::Snapshot& snap, const kd::Pod& pod) const;
    // The migrating limits; `arbitrating`: Pending jobs count only once they passed arbitration.
    kd::Verdict retryable(const kd::Snapshot& snap, const kd::Pod& pod, const Migrations& jobs, bool arbitrating) const;
    // What LowNodeLoad sees (koord's MigrationController `Filter`): no active job, scheduler name,
    // both filters.
    kd::Verdict framework_filter(const kd::Snapshot& snap, const kd::Pod& pod, const Migrations& jobs) const;

private:
    kd::Verdict evictor_filter(const kd::Pod& pod) const;
    kd::Verdict workload_limits(const kd::Snapshot& snap, const kd::Pod& pod, const Migrations& jobs,
                                bool arbitrating) const;

    const MigrationControllerArgs& args_;
    // The EvictorFilter switches after skipEvictionGates (as koord builds its filters).
    bool local_storage_, system_critical_, ignore_pvc_, failed_bare_, all_bare_;
    bool use_label_selector_, use_priority_;
};

// IsPodActive and Ready: not finished, not terminating, condition Ready True.
bool pod_available(const kd::Pod& pod);

}  // namespace kd::plugins::migrationcontroller
