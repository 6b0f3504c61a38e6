// Read-only C++ views over the host's snapshot structs (abi.h). A view is two pointers wide,
// copies nothing and lives no longer than the hook call that produced it.
#pragma once

#include <kdesched/abi.h>
#include <kdesched/quantity.hpp>
#include <kdesched/target_api.hpp>

#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

namespace kd {

inline std::string_view sv(kd_str s) {
    return s.data ? std::string_view(s.data, s.size) : std::string_view();
}
inline kd_str to_kd(std::string_view s) {
    return kd_str{s.data(), s.size()};
}

// (API 1.7) What a host stores in kd_pod.condition_transitions for a condition that changed at
// `transition_ms`, for a pod created at `creation_ms`: whole seconds after the creation (rounded
// down; clamped to the int32 range, KD_NO_TRANSITION excluded).
inline int32_t condition_transition_entry(int64_t creation_ms, int64_t transition_ms) {
    int64_t d = transition_ms - creation_ms;
    int64_t seconds = d >= 0 ? d / 1000 : -((-d + 999) / 1000);
    if (seconds <= int64_t(KD_NO_TRANSITION)) return KD_NO_TRANSITION + 1;
    if (seconds > int64_t(INT32_MAX)) return INT32_MAX;
    return int32_t(seconds);
}

// Range over a C array of boundary structs, stepping by the producer's struct_size.
template <class View, class C>
class StructRange {
public:
    // The stride (the host's element struct_size) is read when the elements are: a range that is
    // only counted, or whose array is only prefetched (data()), does not touch the array.
    StructRange(const C* base, size_t count) : base_(base), count_(count) {}
    class iterator {
    public:
        using value_type = View;
        using difference_type = std::ptrdiff_t;
        using iterator_category = std::forward_iterator_tag;
        iterator(const C* base, size_t stride, size_t i) : base_(base), stride_(stride), i_(i) {}
        View operator*() const { return View(KD_AT(C, base_, stride_, i_)); }
        iterator& operator++() {
            ++i_;
            return *this;
        }
        bool operator==(const iterator& o) const { return i_ == o.i_; }
        bool operator!=(const iterator& o) const { return i_ != o.i_; }

    private:
        const C* base_;
        size_t stride_;
        size_t i_;
    };
    iterator begin() const { return iterator(base_, count_ ? base_->struct_size : 0, 0); }
    iterator end() const { return iterator(base_, 0, count_); }  // iterators compare by index only
    size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    View operator[](size_t i) const { return View(KD_AT(C, base_, base_->struct_size, i)); }
    const C* data() const { return base_; }

private:
    const C* base_;
    size_t count_;
};

// Range over an array of pointers to boundary structs (the snapshot's node and pod lists).
template <class View, class C>
class PtrRange {
public:
    PtrRange(const C* const* items, size_t count) : items_(items), count_(count) {}
    class iterator {
    public:
        using value_type = View;
        using difference_type = std::ptrdiff_t;
        using iterator_category = std::forward_iterator_tag;
        explicit iterator(const C* const* p) : p_(p) {}
        View operator*() const { return View(*p_); }
        iterator& operator++() {
            ++p_;
            return *this;
        }
        bool operator==(const iterator& o) const { return p_ == o.p_; }
        bool operator!=(const iterator& o) const { return p_ != o.p_; }

    private:
        const C* const* p_;
    };
    iterator begin() const { return iterator(items_); }
    iterator end() const { return iterator(items_ + count_); }
    size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    View operator[](size_t i) const { return View(items_[i]); }

private:
    const C* const* items_;
    size_t count_;
};

// Labels, annotations, node selectors.
class KeyValues {
public:
    explicit KeyValues(kd_key_value_list l) : l_(l) {}
    std::optional<std::string_view> get(std::string_view key) const {
        for (size_t i = 0; i < l_.count; ++i)
            if (sv(l_.items[i].key) == key) return sv(l_.items[i].value);
        return std::nullopt;
    }
    bool has(std::string_view key) const { return get(key).has_value(); }
    size_t size() const { return l_.count; }
    std::string_view key(size_t i) const { return sv(l_.items[i].key); }
    std::string_view value(size_t i) const { return sv(l_.items[i].value); }

private:
    kd_key_value_list l_;
};

// A resource list in milli-units.
class Resources {
public:
    explicit Resources(kd_resource_list l) : l_(l) {}
    std::optional<int64_t> find(std::string_view name) const {
        for (size_t i = 0; i < l_.count; ++i)
            if (sv(l_.items[i].name) == name) return l_.items[i].milli;
        return std::nullopt;
    }
    int64_t milli(std::string_view name) const { return find(name).value_or(0); }
    // CPU in milli-cores, everything else in whole units (the arithmetic of koord's loadaware).
    int64_t natural(std::string_view name) const { return natural_units(name, milli(name)); }
    size_t size() const { return l_.count; }
    std::string_view name(size_t i) const { return sv(l_.items[i].name); }
    int64_t milli_at(size_t i) const { return l_.items[i].milli; }
    const kd_resource_list& raw() const { return l_; }

private:
    kd_resource_list l_;
};

class OwnerRef {
public:
    explicit OwnerRef(const kd_owner_reference* o) : o_(o) {}
    std::string_view api_version() const { return sv(o_->api_version); }
    std::string_view kind() const { return sv(o_->kind); }
    std::string_view name() const { return sv(o_->name); }
    std::string_view uid() const { return sv(o_->uid); }
    bool controller() const { return o_->controller != 0; }

private:
    const kd_owner_reference* o_;
};

class Taint {
public:
    explicit Taint(const kd_taint* t) : t_(t) {}
    std::string_view key() const { return sv(t_->key); }
    std::string_view value() const { return sv(t_->value); }
    std::string_view effect() const { return sv(t_->effect); }

private:
    const kd_taint* t_;
};

class Toleration {
public:
    explicit Toleration(const kd_toleration* t) : t_(t) {}
    std::string_view key() const { return sv(t_->key); }
    std::string_view op() const { return sv(t_->operator_); }
    std::string_view value() const { return sv(t_->value); }
    std::string_view effect() const { return sv(t_->effect); }

private:
    const kd_toleration* t_;
};

class SelectorRequirement {
public:
    explicit SelectorRequirement(const kd_selector_requirement* r) : r_(r) {}
    std::string_view key() const { return sv(r_->key); }
    std::string_view op() const { return sv(r_->operator_); }
    size_t value_count() const { return r_->values.count; }
    std::string_view value(size_t i) const { return sv(r_->values.items[i]); }

private:
    const kd_selector_requirement* r_;
};

// A node selector term: a required one (kd_node_selector_term) or a preferred term's preference.
class NodeSelectorTerm {
public:
    using Requirements = StructRange<SelectorRequirement, kd_selector_requirement>;
    explicit NodeSelectorTerm(const kd_node_selector_term* t)
        : expressions_{t->match_expressions, t->match_expression_count},
          fields_{t->match_fields, t->match_field_count} {}
    NodeSelectorTerm(Requirements expressions, Requirements fields) : expressions_(expressions), fields_(fields) {}
    Requirements expressions() const { return expressions_; }
    Requirements fields() const { return fields_; }

private:
    Requirements expressions_;
    Requirements fields_;
};

// (API 1.6) One of nodeAffinity's preferredDuringSchedulingIgnoredDuringExecution terms.
class PreferredNodeTerm {
public:
    explicit PreferredNodeTerm(const kd_preferred_node_term* t) : t_(t) {}
    int32_t weight() const { return t_->weight; }
    NodeSelectorTerm preference() const {
        return {{t_->match_expressions, t_->match_expression_count}, {t_->match_fields, t_->match_field_count}};
    }

private:
    const kd_preferred_node_term* t_;
};

class PodCondition {
public:
    explicit PodCondition(const kd_pod_condition* c) : c_(c) {}
    std::string_view type() const { return sv(c_->type); }
    std::string_view status() const { return sv(c_->status); }
    std::string_view reason() const { return sv(c_->reason); }
    std::string_view message() const { return sv(c_->message); }

private:
    const kd_pod_condition* c_;
};

// (API 1.3) A container's status: its list (app, init, ephemeral), restarts and current state.
class ContainerStatus {
public:
    explicit ContainerStatus(const kd_container_status* c) : c_(c) {}
    kd_container_kind kind() const { return static_cast<kd_container_kind>(c_->kind); }
    std::string_view name() const { return sv(c_->name); }
    int32_t restart_count() const { return c_->restart_count; }
    kd_container_state state() const { return static_cast<kd_container_state>(c_->state); }
    bool waiting() const { return c_->state == KD_CONTAINER_STATE_WAITING; }
    bool terminated() const { return c_->state == KD_CONTAINER_STATE_TERMINATED; }
    // state.waiting.reason or state.terminated.reason; "" otherwise.
    std::string_view reason() const { return sv(c_->reason); }
    // state.terminated.exitCode, when terminated().
    int32_t exit_code() const { return c_->exit_code; }

private:
    const kd_container_status* c_;
};

// (API 1.8) One of a pod's spec.resourceClaims.
class ResourceClaim {
public:
    explicit ResourceClaim(const kd_pod_resource_claim* c) : c_(c) {}
    std::string_view name() const { return sv(c_->name); }
    std::string_view resource_claim_name() const { return sv(c_->resource_claim_name); }
    std::string_view resource_claim_template_name() const { return sv(c_->resource_claim_template_name); }

private:
    const kd_pod_resource_claim* c_;
};

// (API 1.5) One of a pod's spec.topologySpreadConstraints.
class TopologySpreadConstraint {
public:
    explicit TopologySpreadConstraint(const kd_topology_spread_constraint* c) : c_(c) {}
    int32_t max_skew() const { return c_->max_skew; }
    std::string_view topology_key() const { return sv(c_->topology_key); }
    std::string_view when_unsatisfiable() const { return sv(c_->when_unsatisfiable); }
    // minDomains, when set (the API allows only > 0).
    std::optional<int32_t> min_domains() const {
        return c_->min_domains ? std::optional<int32_t>(c_->min_domains) : std::nullopt;
    }
    // The labelSelector: whether there is one (without, the constraint counts no pod), its
    // matchLabels and its matchExpressions.
    bool has_label_selector() const { return c_->has_label_selector != 0; }
    KeyValues match_labels() const { return KeyValues(c_->match_labels); }
    StructRange<SelectorRequirement, kd_selector_requirement> match_expressions() const {
        return {c_->match_expressions, c_->match_expression_count};
    }
    // "Honor", "Ignore", or "" when absent (the API defaults: Honor for node affinity, Ignore
    // for taints).
    std::string_view node_affinity_policy() const { return sv(c_->node_affinity_policy); }
    std::string_view node_taints_policy() const { return sv(c_->node_taints_policy); }
    size_t match_label_key_count() const { return c_->match_label_keys.count; }
    std::string_view match_label_key(size_t i) const { return sv(c_->match_label_keys.items[i]); }

private:
    const kd_topology_spread_constraint* c_;
};

// (API 1.6) A pod affinity or anti-affinity term, required or preferred (weight() > 0).
class PodAffinityTerm {
public:
    explicit PodAffinityTerm(const kd_pod_affinity_term* t) : t_(t) {}
    // A preferred term's weight; 0 for a required term.
    int32_t weight() const { return t_->weight; }
    // The labelSelector: whether there is one (without, the term matches no pod), its parts.
    bool has_label_selector() const { return t_->has_label_selector != 0; }
    KeyValues match_labels() const { return KeyValues(t_->match_labels); }
    StructRange<SelectorRequirement, kd_selector_requirement> match_expressions() const {
        return {t_->match_expressions, t_->match_expression_count};
    }
    std::string_view topology_key() const { return sv(t_->topology_key); }
    size_t namespace_count() const { return t_->namespaces.count; }
    std::string_view namespace_(size_t i) const { return sv(t_->namespaces.items[i]); }
    // The namespaceSelector: whether there is one (an empty one selects every namespace), its parts.
    bool has_namespace_selector() const { return t_->has_namespace_selector != 0; }
    KeyValues namespace_match_labels() const { return KeyValues(t_->namespace_match_labels); }
    StructRange<SelectorRequirement, kd_selector_requirement> namespace_match_expressions() const {
        return {t_->namespace_match_expressions, t_->namespace_match_expression_count};
    }
    size_t match_label_key_count() const { return t_->match_label_keys.count; }
    std::string_view match_label_key(size_t i) const { return sv(t_->match_label_keys.items[i]); }
    size_t mismatch_label_key_count() const { return t_->mismatch_label_keys.count; }
    std::string_view mismatch_label_key(size_t i) const { return sv(t_->mismatch_label_keys.items[i]); }

private:
    const kd_pod_affinity_term* t_;
};

class Pod {
public:
    explicit Pod(const kd_pod* p) : p_(p) {}
    const kd_pod* raw() const { return p_; }
    std::string_view uid() const { return sv(p_->uid); }
    std::string_view ns() const { return sv(p_->spec->namespace_); }
    std::string_view name() const { return sv(p_->name); }
    std::string key() const {  // "ns/name", in one allocation
        std::string k;
        k.reserve(ns().size() + 1 + name().size());
        return k.append(ns()).append(1, '/').append(name());
    }
    std::string_view node_name() const { return sv(p_->node_name); }
    std::string_view scheduler_name() const { return sv(p_->spec->scheduler_name); }
    std::string_view priority_class_name() const { return sv(p_->spec->priority_class_name); }
    std::optional<int32_t> priority() const {
        return (p_->flags & KD_POD_HAS_PRIORITY) ? std::optional<int32_t>(p_->priority) : std::nullopt;
    }
    kd_pod_phase phase() const { return static_cast<kd_pod_phase>(p_->phase); }
    kd_qos_class qos_class() const { return static_cast<kd_qos_class>(p_->qos_class); }
    int64_t creation_ms() const { return p_->creation_ms; }
    bool terminating() const { return p_->flags & KD_POD_TERMINATING; }
    // Succeeded or Failed: the pod holds no resources and the scheduler and descheduler's pod
    // listings leave it out.
    bool finished() const { return phase() == KD_POD_SUCCEEDED || phase() == KD_POD_FAILED; }
    bool has_local_storage() const { return p_->flags & KD_POD_LOCAL_STORAGE; }
    bool has_pvc() const { return p_->flags & KD_POD_PVC; }
    bool ready() const { return p_->flags & KD_POD_READY; }
    bool has_required_node_affinity() const { return p_->flags & KD_POD_HAS_NODE_AFFINITY; }
    KeyValues labels() const { return KeyValues(p_->spec->labels); }
    KeyValues annotations() const { return KeyValues(p_->annotations); }
    StructRange<OwnerRef, kd_owner_reference> owners() const { return {p_->spec->owners, p_->spec->owner_count}; }
    // The ownerReference with controller=true, if any.
    std::optional<OwnerRef> controller() const {
        for (auto o : owners())
            if (o.controller()) return o;
        return std::nullopt;
    }
    Resources requests() const { return Resources(p_->spec->requests); }
    KeyValues node_selector() const { return KeyValues(p_->spec->node_selector); }
    StructRange<NodeSelectorTerm, kd_node_selector_term> affinity_terms() const {
        return {p_->spec->affinity_terms, p_->spec->affinity_term_count};
    }
    StructRange<Toleration, kd_toleration> tolerations() const {
        return {p_->spec->tolerations, p_->spec->toleration_count};
    }
    StructRange<PodCondition, kd_pod_condition> conditions() const { return {p_->conditions, p_->condition_count}; }
    std::optional<PodCondition> condition(std::string_view type) const {
        for (auto c : conditions())
            if (c.type() == type) return c;
        return std::nullopt;
    }
    // (API 1.3; empty on an older host) status.reason, and the containers' statuses (see
    // kd_pod.container_statuses for the order).
    std::string_view status_reason() const { return has_1_3() ? sv(p_->status_reason) : std::string_view(); }
    StructRange<ContainerStatus, kd_container_status> container_statuses() const {
        return has_1_3() ? StructRange<ContainerStatus, kd_container_status>{p_->container_statuses,
                                                                             p_->container_status_count}
                         : StructRange<ContainerStatus, kd_container_status>{nullptr, 0};
    }

    // (API 1.4) status.startTime in Unix ms: 0 when the pod has none (not yet acknowledged by a
    // kubelet) and on an older host, as creation_ms() is 0 when absent.
    int64_t start_ms() const {
        return p_->struct_size >= offsetof(kd_pod, start_time_ms) + sizeof(int64_t) ? p_->start_time_ms : 0;
    }

    // (API 1.7) status.conditions[i].lastTransitionTime in Unix ms (to the second): nullopt when
    // that condition has none, and on an older host.
    std::optional<int64_t> condition_transition_ms(size_t i) const {
        if (p_->struct_size < offsetof(kd_pod, condition_transitions) + sizeof(const int32_t*)) return std::nullopt;
        if (!p_->condition_transitions || i >= p_->condition_count) return std::nullopt;
        const int32_t s = p_->condition_transitions[i];
        if (s == KD_NO_TRANSITION) return std::nullopt;
        return p_->creation_ms + int64_t(s) * 1000;
    }

    // (API 1.5; empty on an older host) spec.topologySpreadConstraints, in the pod's order.
    StructRange<TopologySpreadConstraint, kd_topology_spread_constraint> topology_spread_constraints() const {
        const kd_pod_spec* s = p_->spec;
        if (s->struct_size < offsetof(kd_pod_spec, topology_spread_constraint_count) + sizeof(size_t))
            return {nullptr, 0};
        return {s->topology_spread_constraints, s->topology_spread_constraint_count};
    }

    // (API 1.6; empty on an older host) nodeAffinity's preferred terms; podAffinity's and
    // podAntiAffinity's required and preferred terms; spec.containers[].image — each in the pod's order.
    using AffinityTerms = StructRange<PodAffinityTerm, kd_pod_affinity_term>;
    StructRange<PreferredNodeTerm, kd_preferred_node_term> preferred_node_terms() const {
        if (!has_1_6()) return {nullptr, 0};
        return {p_->spec->preferred_node_terms, p_->spec->preferred_node_term_count};
    }
    AffinityTerms pod_affinity_terms() const {
        return has_1_6() ? AffinityTerms{p_->spec->pod_affinity_terms, p_->spec->pod_affinity_term_count}
                         : AffinityTerms{nullptr, 0};
    }
    AffinityTerms preferred_pod_affinity_terms() const {
        return has_1_6()
                   ? AffinityTerms{p_->spec->preferred_pod_affinity_terms, p_->spec->preferred_pod_affinity_term_count}
                   : AffinityTerms{nullptr, 0};
    }
    AffinityTerms pod_anti_affinity_terms() const {
        return has_1_6() ? AffinityTerms{p_->spec->pod_anti_affinity_terms, p_->spec->pod_anti_affinity_term_count}
                         : AffinityTerms{nullptr, 0};
    }
    AffinityTerms preferred_pod_anti_affinity_terms() const {
        return has_1_6() ? AffinityTerms{p_->spec->preferred_pod_anti_affinity_terms,
                                         p_->spec->preferred_pod_anti_affinity_term_count}
                         : AffinityTerms{nullptr, 0};
    }
    size_t container_image_count() const { return has_1_6() ? p_->spec->container_images.count : 0; }
    std::string_view container_image(size_t i) const { return sv(p_->spec->container_images.items[i]); }

    // (API 1.8; nullopt on an older host, which does not say) spec.resourceClaims, in the pod's
    // order. Optional so that a protection can tell "none" from "not known".
    std::optional<StructRange<ResourceClaim, kd_pod_resource_claim>> resource_claims() const {
        if (!has_1_8()) return std::nullopt;
        return StructRange<ResourceClaim, kd_pod_resource_claim>{p_->spec->resource_claims,
                                                                 p_->spec->resource_claim_count};
    }
    // (API 1.8; 0 on an older host) spec.volumes[].persistentVolumeClaim.claimName, in the volumes' order.
    size_t pvc_claim_count() const { return has_1_8() ? p_->spec->pvc_claim_names.count : 0; }
    std::string_view pvc_claim_name(size_t i) const { return sv(p_->spec->pvc_claim_names.items[i]); }

private:
    bool has_1_3() const { return p_->struct_size >= offsetof(kd_pod, container_status_count) + sizeof(size_t); }
    bool has_1_6() const {
        return p_->spec->struct_size >= offsetof(kd_pod_spec, container_images) + sizeof(kd_str_list);
    }
    bool has_1_8() const {
        return p_->spec->struct_size >= offsetof(kd_pod_spec, pvc_claim_names) + sizeof(kd_str_list);
    }
    const kd_pod* p_;
};

class Node {
public:
    explicit Node(const kd_node* n) : n_(n) {}
    const kd_node* raw() const { return n_; }
    std::string_view uid() const { return sv(n_->uid); }
    std::string_view name() const { return sv(n_->name); }
    bool unschedulable() const { return n_->unschedulable != 0; }
    bool ready() const { return n_->ready != 0; }
    KeyValues labels() const { return KeyValues(n_->labels); }
    KeyValues annotations() const { return KeyValues(n_->annotations); }
    StructRange<Taint, kd_taint> taints() const { return {n_->taints, n_->taint_count}; }
    Resources allocatable() const { return Resources(n_->allocatable); }
    Resources raw_allocatable() const { return Resources(n_->raw_allocatable); }

private:
    const kd_node* n_;
};

class PodMetric {
public:
    explicit PodMetric(const kd_pod_metric* m) : m_(m) {}
    std::string_view ns() const { return sv(m_->namespace_); }
    std::string_view name() const { return sv(m_->name); }
    Resources usage() const { return Resources(m_->usage); }

private:
    const kd_pod_metric* m_;
};

class NodeMetric {
public:
    explicit NodeMetric(const kd_node_metric* m) : m_(m) {}
    bool has_node_metric() const { return m_->has_node_metric != 0; }
    std::optional<int64_t> update_time_ms() const {
        return m_->update_time_ms ? std::optional<int64_t>(m_->update_time_ms) : std::nullopt;
    }
    Resources system_usage() const { return Resources(m_->system_usage); }
    StructRange<PodMetric, kd_pod_metric> pods() const { return {m_->pods, m_->pod_count}; }

private:
    const kd_node_metric* m_;
};

// The workload a pod belongs to (see kd_workload). Valid while the snapshot is.
class Workload {
public:
    explicit Workload(const kd_workload& w) : w_(w) {}
    std::string_view kind() const { return sv(w_.kind); }
    std::string_view ns() const { return sv(w_.namespace_); }
    std::string_view name() const { return sv(w_.name); }
    std::string_view uid() const { return sv(w_.uid); }
    // spec.replicas of the top workload (0 when it has none).
    int32_t replicas() const { return w_.replicas; }
    PtrRange<Pod, kd_pod> pods() const { return {w_.pods.items, w_.pods.count}; }

private:
    kd_workload w_;
};

class Snapshot {
public:
    explicit Snapshot(const kd_snapshot* s) : s_(s) {}
    const kd_snapshot* raw() const { return s_; }
    int64_t now_ms() const { return s_->now_ms; }
    // The nodes this extension point runs on (global and profile node selectors applied).
    PtrRange<Node, kd_node> nodes() const { return {s_->nodes, s_->node_count}; }
    // Every ready node the host knows, for fit checks.
    PtrRange<Node, kd_node> all_nodes() const { return {s_->all_nodes, s_->all_node_count}; }
    PtrRange<Pod, kd_pod> pods() const { return {s_->pods, s_->pod_count}; }
    PtrRange<Pod, kd_pod> pods_on_node(std::string_view node) const {
        kd_pod_ref_list l = s_->pods_on_node(s_, to_kd(node));
        return {l.items, l.count};
    }
    std::optional<NodeMetric> node_metric(std::string_view node) const {
        const kd_node_metric* m = s_->node_metric(s_, to_kd(node));
        return m ? std::optional<NodeMetric>(NodeMetric(m)) : std::nullopt;
    }
    std::optional<Pod> find_pod(std::string_view ns, std::string_view name) const {
        const kd_pod* p = s_->find_pod(s_, to_kd(ns), to_kd(name));
        return p ? std::optional<Pod>(Pod(p)) : std::nullopt;
    }
    // PodMigrationJobs or Reservations as a JSON array (their wire form); "[]" when none.
    // kd_snapshot.list_objects: "PodMigrationJob", "Reservation"; (API 1.7) "Namespace",
    // "PodDisruptionBudget"; (API 1.8) "PriorityClass", "PersistentVolumeClaim",
    // "NodeMetrics.metrics.k8s.io", "PodMetrics.metrics.k8s.io" (the last two when
    // Host::collects_kubernetes_metrics). A JSON array; "[]" for a kind the host does not keep.
    std::string_view list_objects(std::string_view kind) const { return sv(s_->list_objects(s_, to_kd(kind))); }
    std::optional<Node> find_node(std::string_view name) const {
        const kd_node* n = s_->find_node(s_, to_kd(name));
        return n ? std::optional<Node>(Node(n)) : std::nullopt;
    }
    // (API 1.1) The workload of the pod's controller, or nullopt (no controller, or unknown to the
    // host). No fallback: a 1.0 host cannot tell "no workload" from "not asked", so a plugin
    // targeting 1.0 does not compile with it.
    template <class Use = void>
    std::optional<Workload> workload_of(const Pod& pod) const {
        static_assert(detail::targets_api_minor<1, Use>,
                      "kd::Snapshot::workload_of needs a host of plugin API 1.1: KDESCHED_TARGET_API_MINOR >= 1");
        kd_workload w{};
        w.struct_size = sizeof(kd_workload);
        s_->pod_workload(s_, pod.raw(), &w);
        return w.found ? std::optional<Workload>(Workload(w)) : std::nullopt;
    }
    // The host's model revision (API 1.2): equal revisions show the same cluster, so what a
    // plugin derived from one snapshot holds for another of the same revision. 0 from an older host.
    uint64_t revision() const {
        return s_->struct_size >= offsetof(kd_snapshot, revision) + sizeof(s_->revision) ? s_->revision : 0;
    }

private:
    const kd_snapshot* s_;
};

// A pod's spec (owners, labels, requests, affinity…) is one pointer hop past the pod record, and
// pods share specs by the thousand, so each one read is usually a cache miss. Asking for all of a
// node's specs before reading any overlaps those misses (the host has already asked for the pod
// records when it handed out the list).
inline void prefetch_specs(PtrRange<Pod, kd_pod> pods) {
    for (auto p : pods) __builtin_prefetch(p.raw()->spec);
}
// The same, then each spec's request list (one more hop): for sums of the pods' requests.
inline void prefetch_requests(PtrRange<Pod, kd_pod> pods) {
    prefetch_specs(pods);
    for (auto p : pods) __builtin_prefetch(p.raw()->spec->requests.items);
}

}  // namespace kd
