#include "sigs_bench.hpp"

namespace kd::tools {

const std::vector<SigsBenchPlugin>& sigs_bench_plugins() {
    static const std::vector<SigsBenchPlugin> plugins = {
        {"PodLifeTime", "deschedule", "{maxPodLifeTimeSeconds: 600, ownerKinds: {include: [Job]}}"},
        {"RemoveFailedPods", "deschedule", "{reasons: [Evicted], minPodLifetimeSeconds: 0}"},
        {"RemovePodsHavingTooManyRestarts", "deschedule", "{podRestartThreshold: 10, includingInitContainers: true}"},
        {"RemovePodsViolatingNodeTaints", "deschedule", "{includePreferNoSchedule: true}"},
        {"RemovePodsViolatingNodeAffinity", "deschedule",
         "{nodeAffinityType: [requiredDuringSchedulingIgnoredDuringExecution]}"},
        {"RemovePodsViolatingInterPodAntiAffinity", "deschedule", "{}"},
        {"RemoveDuplicates", "balance", "{}"},
        {"RemovePodsViolatingTopologySpreadConstraint", "balance", "{constraints: [DoNotSchedule, ScheduleAnyway]}"},
        {"LowNodeUtilization", "balance",
         "{thresholds: {cpu: 20, memory: 20, pods: 20}, targetThresholds: {cpu: 50, memory: 50, pods: 50}}"},
        {"HighNodeUtilization", "balance", "{thresholds: {cpu: 20, memory: 20}}"},
    };
    return plugins;
}

std::string sigs_bench_policy(const SigsBenchPlugin& plugin) {
    return "apiVersion: descheduler/v1alpha2\n"
           "kind: DeschedulerPolicy\n"
           "profiles:\n"
           "- name: bench\n"
           "  pluginConfig:\n"
           "  - name: " +
           plugin.name + "\n    args: " + plugin.args +
           "\n"
           "  plugins:\n"
           "    " +
           plugin.point + ":\n      enabled: [" + plugin.name + "]\n";
}

}  // namespace kd::tools
