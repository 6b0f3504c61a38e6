// The simulated scheduler's rules beyond resources, taints and the node selector, for one pod:
// kube-scheduler's InterPodAffinity and PodTopologySpread filters (required terms, DoNotSchedule
// constraints) and its NodeAffinity, InterPodAffinity and PodTopologySpread scores (preferred
// terms, ScheduleAnyway constraints), computed once over the cluster model per placement.
// Semantics: k8s.io/kubernetes pkg/scheduler/framework/plugins/{interpodaffinity,
// podtopologyspread,nodeaffinity} (v1.32); differences are listed in docs/compatibility.md
// ("The simulator").
#pragma once

#include "cluster/cluster_model.hpp"

#include <kdesched/label_selector.hpp>
#include <kdesched/view.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kd::core {

class PlacementRules {
public:
    // `nodes`: the ready nodes the scheduler considers; `anti_affinity`: whether any pod of the
    // model has required anti-affinity (when none has and the pod has no terms, no pod is read).
    PlacementRules(const ClusterModel& model, const std::vector<const kd_node*>& nodes, const kd::Pod& pod,
                   bool anti_affinity);

    // Why the node is refused, in kube-scheduler's words ("node(s) didn't match pod anti-affinity
    // rules"), or "" when these rules let the pod go there.
    std::string filter(const kd::Node& node) const;

    // True when some preference (a score below) can tell the nodes apart.
    bool has_preferences() const { return preferences_; }
    // The sum of the preference scores for the node, each normalised to 0–100 over `nodes` as
    // kube-scheduler normalises them and weighted as its default profile weighs them (2 each).
    double preference(const kd::Node& node) const;

private:
    struct Term {
        std::string topology_key;
        kd::LabelSelector selector;
        std::set<std::string, std::less<>> namespaces;  // empty with all_namespaces: every namespace
        bool all_namespaces = false;
        int32_t weight = 0;
        bool valid = true;  // a term with an invalid selector matches no pod
        bool matches(const kd::Pod& other) const;
    };
    Term term_of(const kd::Pod& owner, const kd::PodAffinityTerm& t) const;
    struct Spread {
        std::string topology_key;
        int32_t max_skew = 1;
        int32_t min_domains = 0;
        bool honor_affinity = true, honor_taints = false;
        std::optional<kd::LabelSelector> selector;           // none: counts no pod
        std::map<std::string, int64_t, std::less<>> counts;  // per domain value of the eligible nodes
        bool self_match = false;
    };
    void count_spread(Spread& s) const;
    bool eligible(const Spread& s, const kd::Node& node) const;
    int64_t raw_node_affinity(const kd::Node& node) const;
    int64_t raw_pod_affinity(const kd::Node& node) const;
    int64_t raw_spread(const kd::Node& node) const;

    const ClusterModel& model_;
    const std::vector<const kd_node*>& nodes_;
    kd::Pod pod_;
    // Required terms: for each, the domain values (of its key) holding a matching pod.
    std::vector<std::pair<Term, std::set<std::string, std::less<>>>> affinity_, anti_affinity_;
    bool affinity_matches_anywhere_ = false, pod_matches_own_affinity_ = true;
    // Existing pods' required anti-affinity terms the pod matches: (topology key, value) pairs.
    std::set<std::pair<std::string, std::string>> forbidden_;
    std::vector<Spread> hard_spread_, soft_spread_;
    // Preferred pod (anti-)affinity: weight per (topology key, value).
    std::map<std::pair<std::string, std::string>, int64_t> preferred_pods_;
    bool preferences_ = false;
    int64_t min_node_affinity_ = 0, max_node_affinity_ = 0, min_pod_affinity_ = 0, max_pod_affinity_ = 0,
            min_spread_ = 0, max_spread_ = 0;
};

}  // namespace kd::core
