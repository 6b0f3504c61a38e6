// What the kubernetes-sigs/descheduler plugins of this library share: upstream builds every one of
// them on the same pod utilities (pkg/descheduler/pod/pods.go@v0.35.1) and the same args dialect
// (namespaces, labelSelector, includingInitContainers, …), so their pieces live here once.
#pragma once

#include <kdesched/eviction_loop.hpp>
#include <kdesched/label_selector.hpp>
#include <kdesched/namespaces.hpp>
#include <kdesched/plugin.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kd::plugins::sigs {

// Which status lists a container check reads: upstream always reads containerStatuses and, when
// an arg asks for it, initContainerStatuses and ephemeralContainerStatuses too.
struct ContainerLists {
    bool init = false;
    bool ephemeral = false;
    bool reads(kd_container_kind kind) const {
        return kind == KD_CONTAINER_APP || (kind == KD_CONTAINER_INIT && init) ||
               (kind == KD_CONTAINER_EPHEMERAL && ephemeral);
    }
};

// True when `pred` holds for a container status of a list `lists` reads.
template <class Pred>
bool any_container(const Pod& pod, ContainerLists lists, Pred&& pred) {
    for (auto c : pod.container_statuses())
        if (lists.reads(c.kind()) && pred(c)) return true;
    return false;
}

// The sum of restartCount over the lists `lists` reads.
int64_t total_restarts(const Pod& pod, ContainerLists lists);

template <class T, class U>
bool listed(const std::vector<T>& list, const U& value) {
    return std::find(list.begin(), list.end(), value) != list.end();
}

// status.phase as the API spells it ("Running", …), which is how `states` names it.
std::string_view phase_name(kd_pod_phase phase);

// Whole seconds since creationTimestamp, truncated as upstream's uint(age.Seconds()); nullopt
// when the pod was created after `now_ms` (clock skew), which upstream treats apart.
std::optional<uint64_t> age_seconds(const Pod& pod, int64_t now_ms);

// A set of names formatted as Go's %v prints a sorted []string ("[a b c]"): upstream's
// validation messages list the allowed values that way.
std::string go_list(std::vector<std::string> names);

// The namespaces and labelSelector of the args: upstream's podutil.Options
// (WithNamespaces/WithoutNamespaces/WithLabelSelector).
bool in_scope(const std::optional<Namespaces>& namespaces, const std::optional<LabelSelector>& selector,
              const Pod& pod);

// The evictor's Filter and then its PreEvictionFilter, both asked while the candidates are listed
// as upstream does (podutil.WrapFilterFuncs(handle.Evictor().Filter,
// handle.Evictor().PreEvictionFilter)). The host records a refusal itself (`--explain`: filtered).
bool evictor_admits(const Cycle& cycle, const Pod& pod);

// Candidates were put through the PreEvictionFilter when listed: the eviction does not run it again.
inline EvictionLoop loop_of(std::string_view reason, bool stop_at_node_limit) {
    EvictionLoop how{reason};
    how.options.pre_eviction_filter = false;
    how.stop_at_node_limit = stop_at_node_limit;
    return how;
}

}  // namespace kd::plugins::sigs
