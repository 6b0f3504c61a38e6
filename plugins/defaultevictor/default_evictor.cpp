#include "default_evictor.hpp"

#include <stdexcept>
#include <utility>

namespace kd::plugins::defaultevictor {

DefaultEvictor::DefaultEvictor(kd::Host&, Args args) : args_(std::move(args)) {
    protections_ = effective_protections(args_);
    if (args_.priorityThreshold && args_.priorityThreshold->value)
        priority_threshold_ = *args_.priorityThreshold->value;
    for (auto& c : args_.podProtections.protected_storage_classes()) protected_classes_.insert(std::move(c));
    if (!args_.nodeSelector.empty()) {
        // Already validated while decoding; parse again to keep the compiled form.
        std::string why;
        node_selector_ = StringLabelSelector::parse(args_.nodeSelector, &why);
        if (node_selector_ && node_selector_->empty()) node_selector_.reset();
    }
    if (args_.minPodAge) {
        // Ages are whole milliseconds: age_ms * 1e6 < ns  <=>  age_ms < ceil(ns / 1e6).
        int64_t ns = args_.minPodAge->value.count();
        min_pod_age_ms_ceil_ = ns / 1'000'000 + (ns > 0 && ns % 1'000'000 != 0 ? 1 : 0);
    }
}

DefaultEvictor::SnapshotKey DefaultEvictor::key_of(const kd::Cycle& cycle) {
    // Not the kd_snapshot address: a host may hand a fresh struct to every hook call of a cycle, and
    // rebuilding per call would make minReplicas O(pods) per filtered pod. The caches own their data,
    // so a stale key can only cost accuracy (a pod evicted earlier in the cycle still counted), never safety.
    const kd_snapshot* s = cycle.snapshot().raw();
    return {cycle.number(), s->pod_count, s->all_node_count};
}

std::optional<int32_t> DefaultEvictor::priority_threshold(const kd::Cycle& cycle) {
    if (priority_threshold_ || !args_.priorityThreshold || args_.priorityThreshold->name.empty())
        return priority_threshold_;
    // Upstream reads the class once, when the plugin is created, and fails the descheduler when
    // it is missing (utils.GetPriorityValueFromPriorityThreshold, pkg/utils/priority.go@v0.35.1).
    // Here the plugin is created before the host has listed anything, so the class is read from
    // each snapshot, and a missing one fails every filter call: no pod of the profile is evicted.
    const std::string& name = args_.priorityThreshold->name;
    const ClusterObjects& objs = objects(cycle);
    std::optional<int32_t> value = objs.priority_class_value(name);
    std::string problem;
    if (!value)
        problem = "priorityThreshold.name: PriorityClass \"" + name + "\" does not exist (the host lists " +
                  std::to_string(objs.priority_class_count()) +
                  " PriorityClasses); create it or give priorityThreshold.value instead, and grant kdesched list "
                  "and watch on priorityclasses.scheduling.k8s.io if it may not read them";
    else if (*value > kSystemCriticalPriority)
        problem = "priorityThreshold.name: PriorityClass \"" + name + "\" has value " + std::to_string(*value) +
                  ", above " + std::to_string(kSystemCriticalPriority) +
                  " (system-critical priority); name a lower class or give priorityThreshold.value";
    if (problem.empty()) return value;
    uint64_t revision = cycle.snapshot().revision();
    if (missing_class_logged_ != revision) {
        missing_class_logged_ = revision;
        cycle.log(kd::LogLevel::error, problem + "; until then DefaultEvictor lets no pod be evicted");
    }
    throw std::runtime_error(problem);
}

const char* DefaultEvictor::storage_class_rejection(const kd::Cycle& cycle, const kd::Pod& pod) {
    // podStorageClasses and applyPVCPodsProtection (defaultevictor.go@v0.35.1): a claim the host
    // does not list, or one naming no storage class, protects the pod whatever the other claims
    // are; then any claim of a protected class does.
    const ClusterObjects& objs = objects(cycle);
    size_t claims = pod.pvc_claim_count();
    if (claims == 0) return reason::kUnknownStorageClass;  // a PVC volume whose claim name is not known
    bool protected_class = false;
    for (size_t i = 0; i < claims; ++i) {
        std::optional<std::string_view> cls = objs.storage_class_of(pod.ns(), pod.pvc_claim_name(i));
        if (!cls || cls->empty()) return reason::kUnknownStorageClass;
        protected_class = protected_class || protected_classes_.count(*cls) != 0;
    }
    return protected_class ? reason::kPVC : nullptr;
}

const char* DefaultEvictor::rejection(const kd::Cycle& cycle, const kd::Pod& pod) {
    // A threshold that cannot be resolved fails before any rule, the evict annotation included:
    // upstream would have no plugin at all.
    std::optional<int32_t> threshold = protections_.systemCritical ? priority_threshold(cycle) : std::nullopt;
    kd::KeyValues annotations = pod.annotations();
    // Upstream: the evict annotation short-circuits every other check, even mirror/static.
    if (annotations.has(kEvictAnnotation)) return nullptr;
    if (annotations.has(kMirrorAnnotation)) return reason::kMirrorPod;
    if (auto source = annotations.get(kSourceAnnotation); source && *source != "api") return reason::kStaticPod;
    if (pod.terminating()) return reason::kTerminating;

    // The protections, in upstream's order (applyEffectivePodProtections).
    if (protections_.systemCritical) {
        auto priority = pod.priority();
        if (priority && *priority >= kSystemCriticalPriority) return reason::kSystemCritical;
        // A pod without spec.priority passes the threshold (IsPodEvictableBasedOnPriority).
        if (threshold && priority && !(*priority < *threshold)) return reason::kPriorityThreshold;
    }
    bool bare = pod.owners().empty();
    if (bare) {
        if (protections_.failedBarePods) return reason::kBarePod;
        if (pod.phase() != KD_POD_FAILED) return reason::kBarePodNotFailed;
    }
    if (protections_.localStorage && pod.has_local_storage()) return reason::kLocalStorage;
    if (protections_.daemonSet) {
        for (auto owner : pod.owners())
            if (owner.kind() == "DaemonSet") return reason::kDaemonSetPod;
    }
    if (protections_.pvc && pod.has_pvc()) {
        if (protected_classes_.empty()) return reason::kPVC;
        if (const char* why = storage_class_rejection(cycle, pod)) return why;
    }
    if (protections_.withoutPdb) {
        if (!objects(cycle).covered_by_pdb(pod)) return reason::kWithoutPDB;
    }
    if (protections_.resourceClaims) {
        // utils.IsPodWithResourceClaims (pkg/utils/pod.go@v0.35.1): any entry counts. Not knowing
        // them (a host older than API 1.8) protects the pod.
        auto claims = pod.resource_claims();
        if (!claims || claims->size() != 0) return reason::kResourceClaims;
    }

    if (args_.labelSelector && !args_.labelSelector->empty()) {
        kd::KeyValues labels = pod.labels();
        if (!args_.labelSelector->matches([&](const std::string& k) { return labels.get(k); }))
            return reason::kLabelSelector;
    }
    if (args_.minReplicas > 1 && !enough_replicas(cycle, pod)) return reason::kMinReplicas;
    // Age since status.startTime, and a pod no kubelet has started is never old enough
    // (defaultevictor/constraints.go@v0.35.1, evictionConstraintsForMinPodAge).
    if (args_.minPodAge && (pod.start_ms() == 0 || cycle.now_ms() - pod.start_ms() < min_pod_age_ms_ceil_))
        return reason::kMinPodAge;
    return nullptr;
}

bool DefaultEvictor::enough_replicas(const kd::Cycle& cycle, const kd::Pod& pod) {
    auto owners = pod.owners();
    // Upstream checks only pods with exactly one ownerReference; bare pods and multi-owner pods pass.
    if (owners.size() != 1) return true;
    SnapshotKey key = key_of(cycle);
    if (owners_key_ != key) {
        // One pass over every pod per snapshot, instead of one per filtered pod.
        kd::Snapshot snap = cycle.snapshot();
        pods_per_owner_.clear();
        pods_per_owner_.reserve(snap.pods().size());
        for (auto p : snap.pods()) {
            auto refs = p.owners();
            for (size_t i = 0; i < refs.size(); ++i) {
                std::string_view uid = refs[i].uid();
                // The upstream owner index is a set per pod: a UID listed twice counts once.
                bool repeated = false;
                for (size_t j = 0; j < i && !repeated; ++j) repeated = refs[j].uid() == uid;
                if (repeated) continue;
                // Look up by view first: only a new owner pays for a std::string.
                auto found = pods_per_owner_.find(uid);
                if (found != pods_per_owner_.end())
                    ++found->second;
                else
                    pods_per_owner_.emplace(std::string(uid), 1);
            }
        }
        owners_key_ = key;
    }
    auto it = pods_per_owner_.find(owners[0].uid());
    uint64_t replicas = it == pods_per_owner_.end() ? 0 : it->second;
    return replicas >= args_.minReplicas;
}

kd::NodeRequestTotals& DefaultEvictor::fit_totals(const kd::Cycle& cycle) {
    SnapshotKey key = key_of(cycle);
    kd::Snapshot snap = cycle.snapshot();
    if (!totals_) {
        totals_.emplace(snap);
    } else if (totals_key_ == key) {
        // Same cycle and the same pods: the totals still hold; only the view must be the current one.
        totals_->rebind(snap);
    } else {
        totals_->reset(snap);
    }
    totals_key_ = key;
    return *totals_;
}

kd::Verdict DefaultEvictor::filter(kd::Cycle& cycle, const kd::Pod& pod) {
    const char* why = rejection(cycle, pod);
    return why ? kd::Verdict::reject(why) : kd::Verdict::allow();
}

const ClusterObjects& DefaultEvictor::objects(const kd::Cycle& cycle) {
    ClusterObjects::Kinds kinds;
    kinds.namespaces = namespace_selector_in_use();
    kinds.pdbs = protections_.withoutPdb;
    kinds.priority_classes = args_.priorityThreshold && !args_.priorityThreshold->name.empty();
    kinds.pvcs = protections_.pvc && !protected_classes_.empty();
    objects_.refresh(cycle.snapshot(), kinds);
    return objects_;
}

kd::Verdict DefaultEvictor::pre_eviction_filter(kd::Cycle& cycle, const kd::Pod& pod) {
    if (args_.nodeFit) {
        kd::Snapshot snap = cycle.snapshot();
        kd::NodeRequestTotals& totals = fit_totals(cycle);
        // Upstream's NodeFit also refuses a node where one of the pod's required anti-affinity
        // terms selects a pod (podMatchesInterPodAntiAffinity, pkg/descheduler/node/node.go@v0.35.1).
        bool anti = !pod.pod_anti_affinity_terms().empty();
        bool fits = kd::pod_fits_any_other_node_if(snap, pod, totals, [&](const kd::Node& n) {
            if (node_selector_ && !node_selector_->matches(n.labels())) return false;
            return !anti ||
                   kd::anti_affinity_match_on_node(pod, n, snap.pods_on_node(n.name())) == kd::AntiAffinityMatch::none;
        });
        if (!fits) return kd::Verdict::reject(reason::kNodeFit);
    }
    // The pod's Namespace must be one the selector selects; one the host does not know is not
    // (defaultevictor.go@v0.35.1, PreEvictionFilter). Read only when it has matchLabels, as upstream.
    if (namespace_selector_in_use()) {
        const auto* labels = objects(cycle).namespace_labels(pod.ns());
        if (!labels || !args_.namespaceLabelSelector->matches_map(*labels))
            return kd::Verdict::reject(reason::kNamespaceLabelSelector);
    }
    return kd::Verdict::allow();
}

kd::EvictOutcome DefaultEvictor::evict(kd::Cycle& cycle, const kd::Pod& pod, const kd::EvictRequest& request) {
    std::string error = cycle.evict_pod(pod, request.reason);
    // As the anchor's evictor: the metric under the requesting plugin, an Event on success.
    cycle.count_eviction(pod, error.empty() ? "success" : "error", request.plugin);
    if (error.empty())
        cycle.record_event("Pod", pod.ns(), pod.name(), "Normal", "Descheduled", "Evicting",
                           "pod evicted by " + std::string(request.reason.empty() ? "NotSet" : request.reason));
    kd::EvictOutcome out = error.empty() ? kd::EvictOutcome::accepted() : kd::EvictOutcome::failed(std::move(error));
    out.plugin = kName;
    return out;
}

}  // namespace kd::plugins::defaultevictor
