#include "filters.hpp"

#include "workload_budget.hpp"

#include <kdesched/koord_pod.hpp>

#include <algorithm>
#include <limits>

namespace kd::plugins::migrationcontroller {

namespace {

constexpr int32_t kSystemCriticalPriority = 2'000'000'000;

bool has_evict_annotation(const kd::Pod& pod) {
    return pod.annotations().has(kAnnotationEvict);
}

bool pod_active(const kd::Pod& pod) {
    return pod.phase() != KD_POD_SUCCEEDED && pod.phase() != KD_POD_FAILED && !pod.terminating();
}

}  // namespace

bool pod_available(const kd::Pod& pod) {
    return pod_active(pod) && pod.ready();
}

MigrationFilters::MigrationFilters(const MigrationControllerArgs& args)
    : args_(args),
      local_storage_(args.evictLocalStoragePods || args.skips("LocalStorage")),
      system_critical_(args.evictSystemCriticalPods || args.skips("SystemCritical")),
      ignore_pvc_(args.ignorePvcPods && !args.skips("PVC")),
      failed_bare_(args.evictFailedBarePods || args.skips("BarePods")),
      all_bare_(args.evictAllBarePods || args.skips("BarePods")),
      use_label_selector_(args.labelSelector && !args.skips("LabelSelector")),
      use_priority_(args.priorityThreshold && args.priorityThreshold->value && !args.skips("PriorityThreshold")) {}

// koord EvictorFilter (pkg/descheduler/evictions): every failure is collected in the anchor; the
// first one is the reason here.
kd::Verdict MigrationFilters::evictor_filter(const kd::Pod& pod) const {
    for (auto o : pod.owners())
        if (o.kind() == "DaemonSet") return kd::Verdict::reject(reason::kDaemonSet);
    if (pod.annotations().has("kubernetes.io/config.mirror")) return kd::Verdict::reject(reason::kMirror);
    if (auto src = pod.annotations().get("kubernetes.io/config.source"); src && *src != "api")
        return kd::Verdict::reject(reason::kStatic);
    if (pod.terminating()) return kd::Verdict::reject(reason::kTerminating);
    if (!all_bare_ && pod.owners().size() == 0 && !(failed_bare_ && pod.phase() == KD_POD_FAILED))
        return kd::Verdict::reject(reason::kBarePod);
    if (!system_critical_) {
        if (pod.priority().value_or(0) >= kSystemCriticalPriority) return kd::Verdict::reject(reason::kSystemCritical);
        if (use_priority_ && pod.priority() && !(*pod.priority() < *args_.priorityThreshold->value))
            return kd::Verdict::reject(reason::kPriorityThreshold);
    }
    if (!local_storage_ && pod.has_local_storage()) return kd::Verdict::reject(reason::kLocalStorage);
    if (ignore_pvc_ && pod.has_pvc()) return kd::Verdict::reject(reason::kPVC);
    if (use_label_selector_ && !args_.labelSelector->empty() &&
        !args_.labelSelector->matches([&](const std::string& k) { return pod.labels().get(k); }))
        return kd::Verdict::reject(reason::kLabelSelector);
    return kd::Verdict::allow();
}

kd::Verdict MigrationFilters::non_retryable(const kd::Snapshot& snap, const kd::Pod& pod) const {
    if (has_evict_annotation(pod)) return kd::Verdict::allow();
    if (args_.namespaces && !args_.skips("Namespaces") && !args_.namespaces->allows(pod.ns()))
        return kd::Verdict::reject(reason::kNamespace);
    if (kd::koord::cost_annotation(pod, kd::koord::kEvictionCostAnnotation) == std::numeric_limits<int32_t>::max())
        return kd::Verdict::reject(reason::kEvictionCost);
    if (auto v = evictor_filter(pod); !v.allowed) return v;
    if (args_.skips("ExpectedReplicas") || !pod.controller()) return kd::Verdict::allow();
    auto workload = snap.workload_of(pod);
    int32_t replicas = workload ? workload->replicas() : 0;  // unknown workload: 0 replicas, so rejected
    int32_t max_mig = max_unavailable(replicas, args_.maxMigratingPerWorkload);
    int32_t max_unav = max_unavailable(replicas, args_.maxUnavailablePerWorkload);
    if (!args_.skipCheckExpectedReplicas.value_or(false) &&
        (replicas == 1 || replicas == max_mig || replicas == max_unav))
        return kd::Verdict::reject(workload ? reason::kExpectedReplicas : reason::kWorkloadUnknown);
    return kd::Verdict::allow();
}

kd::Verdict MigrationFilters::retryable(const kd::Snapshot& snap, const kd::Pod& pod, const Migrations& jobs,
                                        bool arbitrating) const {
    if (has_evict_annotation(pod)) return kd::Verdict::allow();
    auto counted = [&](const Job& j) { return Migrations::counted(j, arbitrating); };
    int32_t global = args_.maxMigratingGlobally.value_or(0);
    if (global > 0 && !args_.skips("MaxMigratingGlobally")) {
        int64_t n = std::count_if(jobs.all().begin(), jobs.all().end(),
                                  [&](const Job& j) { return counted(j) && j.pod_uid() != pod.uid(); });
        if (n >= global) return kd::Verdict::reject(reason::kMaxGlobally);
    }
    int32_t per_node = args_.maxMigratingPerNode.value_or(0);
    if (per_node > 0 && !pod.node_name().empty() && !args_.skips("MaxMigratingPerNode")) {
        int64_t n = 0;
        for (auto other : snap.pods_on_node(pod.node_name())) {
            if (other.uid() == pod.uid()) continue;
            if (Job* j = jobs.active_job_of(other); j && counted(*j)) ++n;
        }
        if (n >= per_node) return kd::Verdict::reject(reason::kMaxPerNode);
    }
    int32_t per_ns = args_.maxMigratingPerNamespace.value_or(0);
    if (per_ns > 0 && !args_.skips("MaxMigratingPerNamespace")) {
        int64_t n = std::count_if(jobs.all().begin(), jobs.all().end(), [&](const Job& j) {
            return counted(j) && j.pod_namespace() == pod.ns() &&
                   (j.pod_uid().empty() ? j.pod_name() != pod.name() : j.pod_uid() != pod.uid());
        });
        if (n >= per_ns) return kd::Verdict::reject(reason::kMaxPerNamespace);
    }
    return workload_limits(snap, pod, jobs, arbitrating);
}

kd::Verdict MigrationFilters::workload_limits(const kd::Snapshot& snap, const kd::Pod& pod, const Migrations& jobs,
                                              bool arbitrating) const {
    bool check_mig = !args_.skips("MaxMigratingPerWorkload");
    bool check_unav = !args_.skips("MaxUnavailablePerWorkload");
    auto controller = pod.controller();
    if (!controller || (!check_mig && !check_unav)) return kd::Verdict::allow();
    auto workload = snap.workload_of(pod);
    if (!workload) return kd::Verdict::reject(reason::kWorkloadUnknown);
    int32_t max_mig = max_unavailable(workload->replicas(), args_.maxMigratingPerWorkload);
    int32_t max_unav = max_unavailable(workload->replicas(), args_.maxUnavailablePerWorkload);
    size_t migrating = 0, unavailable = 0;
    for (auto other : workload->pods()) {
        if (other.uid() == pod.uid()) {
            unavailable += !pod_available(other);  // koord counts the pod itself when unavailable
            continue;
        }
        bool is_migrating = false;
        if (other.ns() == pod.ns()) {
            auto oc = other.controller();
            Job* j = jobs.active_job_of(other);
            is_migrating = oc && oc->uid() == controller->uid() && j && Migrations::counted(*j, arbitrating);
        }
        migrating += is_migrating;
        unavailable += is_migrating || !pod_available(other);
    }
    if (check_mig && migrating > 0 && migrating >= static_cast<size_t>(max_mig))
        return kd::Verdict::reject(reason::kMaxPerWorkload);
    if (check_unav && unavailable >= static_cast<size_t>(max_unav)) return kd::Verdict::reject(reason::kMaxUnavailable);
    return kd::Verdict::allow();
}

kd::Verdict MigrationFilters::framework_filter(const kd::Snapshot& snap, const kd::Pod& pod,
                                               const Migrations& jobs) const {
    if (jobs.active_job_of(pod)) return kd::Verdict::reject(reason::kExistingJob);
    if (args_.defaultJobMode == kReservationFirst) {
        const auto& names = args_.schedulerNames;
        if (std::find(names.begin(), names.end(), pod.scheduler_name()) == names.end())
            return kd::Verdict::reject(reason::kSchedulerName);
    }
    if (auto v = non_retryable(snap, pod); !v.allowed) return v;
    return retryable(snap, pod, jobs, false);
}

}  // namespace kd::plugins::migrationcontroller
