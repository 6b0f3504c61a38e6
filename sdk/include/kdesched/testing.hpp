// Test helpers for plugin authors: build a snapshot, run a plugin through its real C boundary on
// a fake host that records every eviction request. No daemon, no cluster.
//
//     kd::testing::SnapshotBuilder b;
//     b.node("n1").allocatable("cpu", "4").allocatable("memory", "8Gi");
//     b.pod("default", "web-1").on("n1").request("cpu", "500m").owner("ReplicaSet", "web-7d9");
//     b.metric("n1").updated(b.now_ms()).system("cpu", "1").pod_usage("default", "web-1", "cpu", "3");
//     kd::testing::FakeHost host;
//     auto plugin = host.instantiate<MyPlugin>(R"({"limit": 2})");
//     plugin.balance(b.build());
//     REQUIRE(host.evictions().size() == 1);
#pragma once

#include <kdesched/abi.h>
#include <kdesched/plugin.hpp>
#include <kdesched/quantity.hpp>
#include <kdesched/view.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace kd::testing {

// Parses a quantity or throws (test inputs are trusted to be well-formed).
inline int64_t milli(const std::string& q) {
    auto v = parse_quantity_milli(q);
    if (!v) throw std::invalid_argument("bad quantity \"" + q + "\"");
    return *v;
}

// The sizes of the structs a host fills, as a host of plugin API 1.<minor> compiled them: the
// fields later minors appended are cut off, so a plugin sees what an older host hands it and the
// SDK's fallbacks for older hosts run (FakeHost and SnapshotBuilder::as_api_minor take a minor).
struct HostStructSizes {
    uint32_t host, create_info, snapshot, pod, pod_spec;
    static constexpr HostStructSizes of_minor(uint32_t minor) {
        return {size(minor < 1   ? offsetof(kd_host, count_eviction)
                     : minor < 2 ? offsetof(kd_host, update_object_status)
                                 : sizeof(kd_host)),
                size(minor < 1   ? offsetof(kd_create_info, instance_id)
                     : minor < 8 ? offsetof(kd_create_info, metrics_sources)
                                 : sizeof(kd_create_info)),
                size(minor < 1   ? offsetof(kd_snapshot, pod_workload)
                     : minor < 2 ? offsetof(kd_snapshot, revision)
                                 : sizeof(kd_snapshot)),
                size(minor < 3   ? offsetof(kd_pod, status_reason)
                     : minor < 4 ? offsetof(kd_pod, start_time_ms)
                     : minor < 7 ? offsetof(kd_pod, condition_transitions)
                                 : sizeof(kd_pod)),
                size(minor < 5   ? offsetof(kd_pod_spec, topology_spread_constraints)
                     : minor < 6 ? offsetof(kd_pod_spec, preferred_node_terms)
                     : minor < 8 ? offsetof(kd_pod_spec, resource_claims)
                                 : sizeof(kd_pod_spec))};
    }

private:
    static constexpr uint32_t size(size_t n) { return static_cast<uint32_t>(n); }
};

class SnapshotBuilder {
public:
    struct NodeSpec {
        std::string name, uid;
        bool unschedulable = false, ready = true;
        std::vector<std::pair<std::string, std::string>> labels, annotations;
        std::vector<std::array<std::string, 3>> taints;                 // key, value, effect
        std::vector<std::pair<std::string, int64_t>> alloc, raw_alloc;  // raw_alloc empty = same as alloc
        NodeSpec& label(std::string k, std::string v) { return labels.emplace_back(std::move(k), std::move(v)), *this; }
        NodeSpec& annotation(std::string k, std::string v) {
            return annotations.emplace_back(std::move(k), std::move(v)), *this;
        }
        NodeSpec& taint(std::string k, std::string v, std::string effect) {
            return taints.push_back({std::move(k), std::move(v), std::move(effect)}), *this;
        }
        NodeSpec& allocatable(std::string r, const std::string& q) {
            return alloc.emplace_back(std::move(r), milli(q)), *this;
        }
        // The node.koordinator.sh/raw-allocatable value as the host would decode it.
        NodeSpec& raw_allocatable(std::string r, const std::string& q) {
            return raw_alloc.emplace_back(std::move(r), milli(q)), *this;
        }
        NodeSpec& cordon() { return unschedulable = true, *this; }
        NodeSpec& not_ready() { return ready = false, *this; }
    };
    struct PodSpec {
        std::string ns, name, uid, node, scheduler = "default-scheduler", priority_class;
        uint32_t flags = KD_POD_READY;
        int32_t priority = 0;
        kd_pod_phase phase = KD_POD_RUNNING;
        kd_qos_class qos = KD_QOS_BURSTABLE;
        int64_t created_ms = 0, start_ms = 0;
        std::vector<std::pair<std::string, std::string>> labels, annotations, node_selector;
        struct Owner {
            std::string api_version, kind, name, uid;
            bool controller;
        };
        std::vector<Owner> owners;
        std::vector<std::pair<std::string, int64_t>> requests;
        std::vector<std::array<std::string, 4>> tolerations;  // key, operator, value, effect
        std::vector<std::array<std::string, 4>> conditions;   // type, status, reason, message
        std::vector<std::optional<int64_t>> transitions;      // each condition's lastTransitionTime (ms)
        std::string status_reason;
        struct ContainerStatus {
            kd_container_kind kind;
            std::string name;
            int32_t restarts;
            kd_container_state state;
            std::string reason;
            int32_t exit_code;
        };
        std::vector<ContainerStatus> container_statuses;  // kept in kd_pod's order by container_status()
        struct Term {
            std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> expressions, fields;
        };
        std::vector<Term> affinity;
        // (API 1.5) One of spec.topologySpreadConstraints.
        struct SpreadConstraint {
            int32_t max_skew = 1;
            std::string topology_key, when_unsatisfiable = "DoNotSchedule";
            bool has_label_selector = false;
            std::vector<std::pair<std::string, std::string>> match_labels;
            std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> match_expressions;
            int32_t min_domains = 0;
            std::string node_affinity_policy, node_taints_policy;
            std::vector<std::string> match_label_keys;
        };
        std::vector<SpreadConstraint> spread_constraints;
        // (API 1.6) nodeAffinity's preferred terms: a weight and the preference.
        std::vector<std::pair<int32_t, Term>> preferred_node;
        // (API 1.6) A pod affinity or anti-affinity term; `weight` > 0 makes it a preferred one.
        struct AffinityTerm {
            int32_t weight = 0;
            std::string topology_key;
            bool has_label_selector = false;
            std::vector<std::pair<std::string, std::string>> match_labels;
            std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> match_expressions;
            std::vector<std::string> namespaces;
            bool has_namespace_selector = false;
            std::vector<std::pair<std::string, std::string>> namespace_labels;
            std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> namespace_expressions;
            std::vector<std::string> match_label_keys, mismatch_label_keys;
        };
        std::vector<AffinityTerm> pod_affinity, pod_anti_affinity;
        std::vector<std::string> images;  // spec.containers[].image
        // (API 1.8) spec.resourceClaims: name, resourceClaimName, resourceClaimTemplateName.
        std::vector<std::array<std::string, 3>> resource_claims;
        std::vector<std::string> pvc_claims;  // (API 1.8) the claimName of each PVC volume

        PodSpec& on(std::string n) { return node = std::move(n), *this; }
        PodSpec& label(std::string k, std::string v) { return labels.emplace_back(std::move(k), std::move(v)), *this; }
        PodSpec& annotation(std::string k, std::string v) {
            return annotations.emplace_back(std::move(k), std::move(v)), *this;
        }
        PodSpec& request(std::string r, const std::string& q) {
            return requests.emplace_back(std::move(r), milli(q)), *this;
        }
        // Owner reference; controller=true by default, uid derived from kind/name when empty.
        PodSpec& owner(std::string kind, std::string owner_name, bool controller = true, std::string owner_uid = "") {
            if (owner_uid.empty()) owner_uid = "uid-" + kind + "-" + owner_name;
            std::string api =
                kind == "ReplicaSet" || kind == "DaemonSet" || kind == "StatefulSet" || kind == "Deployment" ? "apps/v1"
                : kind == "Job" ? "batch/v1"
                                : "v1";
            owners.push_back({api, std::move(kind), std::move(owner_name), std::move(owner_uid), controller});
            return *this;
        }
        PodSpec& with_priority(int32_t p) { return priority = p, flags |= KD_POD_HAS_PRIORITY, *this; }
        PodSpec& with_priority_class(std::string c) { return priority_class = std::move(c), *this; }
        PodSpec& in_phase(kd_pod_phase p) { return phase = p, *this; }
        PodSpec& with_qos(kd_qos_class q) { return qos = q, *this; }
        PodSpec& created(int64_t ms) { return created_ms = ms, *this; }
        // status.startTime (API 1.4). The fake builds kd_pod by hand: core's schema rows, which
        // fill the host's, are not part of the SDK.
        PodSpec& started(int64_t ms) { return start_ms = ms, *this; }
        PodSpec& scheduled_by(std::string s) { return scheduler = std::move(s), *this; }
        PodSpec& set_flag(uint32_t f, bool on = true) { return on ? flags |= f : flags &= ~f, *this; }
        PodSpec& select_node(std::string k, std::string v) {
            return node_selector.emplace_back(std::move(k), std::move(v)), *this;
        }
        // (API 1.6) Adds a preferred node-affinity term with one expression.
        PodSpec& prefer_node(int32_t weight, std::string key, std::string op, std::vector<std::string> values) {
            preferred_node.push_back({weight, Term{{{std::move(key), std::move(op), std::move(values)}}, {}}});
            return *this;
        }
        // (API 1.6) Appends a pod affinity / anti-affinity term (required, or preferred when weight > 0).
        PodSpec& affinity_to(AffinityTerm t) { return pod_affinity.push_back(std::move(t)), *this; }
        PodSpec& anti_affinity_to(AffinityTerm t) { return pod_anti_affinity.push_back(std::move(t)), *this; }
        // (API 1.6) Appends a container's image (spec.containers[].image).
        PodSpec& image(std::string i) { return images.push_back(std::move(i)), *this; }
        // (API 1.8) Appends an entry of spec.resourceClaims.
        PodSpec& resource_claim(std::string entry, std::string claim_name = "", std::string template_name = "") {
            return resource_claims.push_back({std::move(entry), std::move(claim_name), std::move(template_name)}),
                   *this;
        }
        // A persistentVolumeClaim volume: sets KD_POD_PVC and (API 1.8) appends its claimName.
        PodSpec& pvc_volume(std::string claim_name) {
            return flags |= KD_POD_PVC, pvc_claims.push_back(std::move(claim_name)), *this;
        }
        // Appends a topology spread constraint (API 1.5).
        PodSpec& spread(SpreadConstraint c) { return spread_constraints.push_back(std::move(c)), *this; }
        PodSpec& tolerate(std::string key, std::string op, std::string value, std::string effect) {
            return tolerations.push_back({std::move(key), std::move(op), std::move(value), std::move(effect)}), *this;
        }
        PodSpec& condition(std::string type, std::string status, std::string reason = "", std::string message = "") {
            conditions.push_back({std::move(type), std::move(status), std::move(reason), std::move(message)});
            return transitions.emplace_back(), *this;
        }
        // (API 1.7) The condition added last changed at `unix_ms` (its lastTransitionTime).
        PodSpec& transitioned_at(int64_t unix_ms) { return transitions.back() = unix_ms, *this; }
        PodSpec& with_status_reason(std::string r) { return status_reason = std::move(r), *this; }
        // A container status (API 1.3), placed after the others of its kind (app, init, ephemeral).
        PodSpec& container_status(std::string container, int32_t restarts,
                                  kd_container_state state = KD_CONTAINER_STATE_RUNNING, std::string reason = "",
                                  int32_t exit_code = 0, kd_container_kind kind = KD_CONTAINER_APP) {
            auto at = container_statuses.begin();
            while (at != container_statuses.end() && at->kind <= kind) ++at;
            container_statuses.insert(at, {kind, std::move(container), restarts, state, std::move(reason), exit_code});
            return *this;
        }
        // Adds a required node-affinity term with one expression (call again for OR-ed terms).
        PodSpec& require_node(std::string key, std::string op, std::vector<std::string> values) {
            flags |= KD_POD_HAS_NODE_AFFINITY;
            affinity.push_back({{{std::move(key), std::move(op), std::move(values)}}, {}});
            return *this;
        }
    };
    struct MetricSpec {
        std::string node;
        bool has_node_metric = true;
        int64_t update_ms = 0;
        std::vector<std::pair<std::string, int64_t>> system;
        struct PodUsage {
            std::string ns, name;
            std::vector<std::pair<std::string, int64_t>> usage;
        };
        std::vector<PodUsage> pods;
        MetricSpec& updated(int64_t ms) { return update_ms = ms, *this; }
        MetricSpec& system_usage(std::string r, const std::string& q) {
            return system.emplace_back(std::move(r), milli(q)), *this;
        }
        MetricSpec& pod_usage(std::string ns, std::string name, std::string r, const std::string& q) {
            for (auto& p : pods)
                if (p.ns == ns && p.name == name) return p.usage.emplace_back(std::move(r), milli(q)), *this;
            pods.push_back({std::move(ns), std::move(name), {{std::move(r), milli(q)}}});
            return *this;
        }
        MetricSpec& without_node_metric() { return has_node_metric = false, *this; }
    };

    // A workload as the host resolves it (kd_workload): pods whose controller UID is the
    // workload's own or one of `members` (e.g. a Deployment's ReplicaSets) belong to it.
    struct WorkloadSpec {
        std::string kind, ns, name, uid;
        int32_t replicas = 0;
        bool has_replicas = true;
        std::vector<std::string> members;
        // Adds a member controller by UID ("uid-<kind>-<name>" as PodSpec::owner derives it).
        WorkloadSpec& member(std::string member_uid) { return members.push_back(std::move(member_uid)), *this; }
        WorkloadSpec& without_replicas() { return has_replicas = false, replicas = 0, *this; }
    };

    explicit SnapshotBuilder(int64_t now_ms = 1'700'000'000'000) : now_ms_(now_ms) {}
    int64_t now_ms() const { return now_ms_; }
    void set_now(int64_t ms) { now_ms_ = ms; }
    // Builds snapshots as a host of plugin API 1.<minor> would (default: this SDK's).
    void as_api_minor(uint32_t minor) { sizes_ = HostStructSizes::of_minor(minor); }

    NodeSpec& node(std::string name) {
        auto& n = nodes_.emplace_back();
        n.uid = "uid-node-" + name;
        n.name = std::move(name);
        return n;
    }
    PodSpec& pod(std::string ns, std::string name) {
        auto& p = pods_.emplace_back();
        p.uid = "uid-pod-" + ns + "-" + name;
        p.ns = std::move(ns);
        p.name = std::move(name);
        p.created_ms = now_ms_ - 3'600'000;
        return p;
    }
    WorkloadSpec& workload(std::string kind, std::string ns, std::string name, int32_t replicas) {
        auto& w = workloads_.emplace_back();
        w.uid = "uid-" + kind + "-" + name;
        w.kind = std::move(kind);
        w.ns = std::move(ns);
        w.name = std::move(name);
        w.replicas = replicas;
        return w;
    }
    MetricSpec& metric(std::string node) {
        auto& m = metrics_.emplace_back();
        m.node = std::move(node);
        m.update_ms = now_ms_;
        return m;
    }
    // What Snapshot::list_objects(kind) returns: a JSON array text (default "[]").
    void objects(std::string kind, std::string json_array) { objects_[std::move(kind)] = std::move(json_array); }
    // Limits the nodes given to the extension point (default: all ready nodes).
    void select_nodes(std::vector<std::string> names) { selected_ = std::move(names); }

    // Materialises the snapshot. Valid until the next build() or the builder's destruction.
    const kd_snapshot* build() {
        built_ = std::make_unique<Built>();
        Built& b = *built_;
        b.nodes.reserve(nodes_.size());
        for (auto& n : nodes_) {
            kd_node k{};
            k.struct_size = sizeof(kd_node);
            k.unschedulable = n.unschedulable;
            k.ready = n.ready;
            k.uid = s(n.uid);
            k.name = s(n.name);
            k.labels = kvs(n.labels);
            k.annotations = kvs(n.annotations);
            auto& taints = b.taints.emplace_back();
            for (auto& t : n.taints) taints.push_back({sizeof(kd_taint), s(t[0]), s(t[1]), s(t[2])});
            k.taints = taints.data();
            k.taint_count = taints.size();
            k.allocatable = res(n.alloc);
            k.raw_allocatable = n.raw_alloc.empty() ? k.allocatable : res(n.raw_alloc);
            b.nodes.push_back(k);
        }
        b.pods.reserve(pods_.size());
        b.specs.reserve(pods_.size());
        for (auto& p : pods_) {
            kd_pod_spec sp{};
            sp.struct_size = sizes_.pod_spec;
            sp.namespace_ = s(p.ns);
            sp.labels = kvs(p.labels);
            sp.scheduler_name = s(p.scheduler);
            sp.priority_class_name = s(p.priority_class);
            auto& owners = b.owners.emplace_back();
            for (auto& o : p.owners)
                owners.push_back(
                    {sizeof(kd_owner_reference), s(o.api_version), s(o.kind), s(o.name), s(o.uid), o.controller});
            sp.owners = owners.data();
            sp.owner_count = owners.size();
            sp.requests = res(p.requests);
            sp.node_selector = kvs(p.node_selector);
            auto& terms = b.terms.emplace_back();
            for (auto& t : p.affinity) {
                auto& ex = reqs(t.expressions);
                auto& fl = reqs(t.fields);
                terms.push_back({sizeof(kd_node_selector_term), ex.data(), ex.size(), fl.data(), fl.size()});
            }
            sp.affinity_terms = terms.data();
            sp.affinity_term_count = terms.size();
            auto& tol = b.tolerations.emplace_back();
            for (auto& t : p.tolerations) tol.push_back({sizeof(kd_toleration), s(t[0]), s(t[1]), s(t[2]), s(t[3])});
            sp.tolerations = tol.data();
            sp.toleration_count = tol.size();
            auto& spread = b.spread_constraints.emplace_back();
            for (auto& c : p.spread_constraints) {
                kd_topology_spread_constraint e{};
                e.struct_size = sizeof(kd_topology_spread_constraint);
                e.max_skew = c.max_skew;
                e.min_domains = c.min_domains;
                e.has_label_selector = c.has_label_selector || !c.match_labels.empty() || !c.match_expressions.empty();
                e.topology_key = s(c.topology_key);
                e.when_unsatisfiable = s(c.when_unsatisfiable);
                e.match_labels = kvs(c.match_labels);
                auto& ex = reqs(c.match_expressions);
                e.match_expressions = ex.data();
                e.match_expression_count = ex.size();
                e.node_affinity_policy = s(c.node_affinity_policy);
                e.node_taints_policy = s(c.node_taints_policy);
                e.match_label_keys = strs(c.match_label_keys);
                spread.push_back(e);
            }
            sp.topology_spread_constraints = spread.data();
            sp.topology_spread_constraint_count = spread.size();
            auto& preferred = b.preferred_node_terms.emplace_back();
            for (auto& [weight, t] : p.preferred_node) {
                auto& ex = reqs(t.expressions);
                auto& fl = reqs(t.fields);
                preferred.push_back(
                    {sizeof(kd_preferred_node_term), weight, 1, ex.data(), ex.size(), fl.data(), fl.size()});
            }
            sp.preferred_node_terms = preferred.data();
            sp.preferred_node_term_count = preferred.size();
            auto affinity_terms = [&](const std::vector<PodSpec::AffinityTerm>& in, bool preferred_terms) {
                auto& out = b.pod_affinity_terms.emplace_back();
                for (auto& t : in) {
                    if ((t.weight > 0) != preferred_terms) continue;
                    kd_pod_affinity_term e{};
                    e.struct_size = sizeof(kd_pod_affinity_term);
                    e.weight = t.weight;
                    e.has_term = preferred_terms;
                    e.has_label_selector =
                        t.has_label_selector || !t.match_labels.empty() || !t.match_expressions.empty();
                    e.has_namespace_selector =
                        t.has_namespace_selector || !t.namespace_labels.empty() || !t.namespace_expressions.empty();
                    e.match_labels = kvs(t.match_labels);
                    auto& ex = reqs(t.match_expressions);
                    e.match_expressions = ex.data();
                    e.match_expression_count = ex.size();
                    e.namespaces = strs(t.namespaces);
                    e.topology_key = s(t.topology_key);
                    e.namespace_match_labels = kvs(t.namespace_labels);
                    auto& nex = reqs(t.namespace_expressions);
                    e.namespace_match_expressions = nex.data();
                    e.namespace_match_expression_count = nex.size();
                    e.match_label_keys = strs(t.match_label_keys);
                    e.mismatch_label_keys = strs(t.mismatch_label_keys);
                    out.push_back(e);
                }
                return std::pair<const kd_pod_affinity_term*, size_t>{out.data(), out.size()};
            };
            std::tie(sp.pod_affinity_terms, sp.pod_affinity_term_count) = affinity_terms(p.pod_affinity, false);
            std::tie(sp.preferred_pod_affinity_terms, sp.preferred_pod_affinity_term_count) =
                affinity_terms(p.pod_affinity, true);
            std::tie(sp.pod_anti_affinity_terms, sp.pod_anti_affinity_term_count) =
                affinity_terms(p.pod_anti_affinity, false);
            std::tie(sp.preferred_pod_anti_affinity_terms, sp.preferred_pod_anti_affinity_term_count) =
                affinity_terms(p.pod_anti_affinity, true);
            sp.container_images = strs(p.images);
            auto& claims = b.resource_claims.emplace_back();
            for (auto& c : p.resource_claims)
                claims.push_back({sizeof(kd_pod_resource_claim), s(c[0]), s(c[1]), s(c[2])});
            sp.resource_claims = claims.data();
            sp.resource_claim_count = claims.size();
            sp.pvc_claim_names = strs(p.pvc_claims);
            b.specs.push_back(sp);

            kd_pod k{};
            k.struct_size = sizes_.pod;
            k.flags = p.flags;
            k.uid = s(p.uid);
            k.name = s(p.name);
            k.node_name = s(p.node);
            k.priority = p.priority;
            k.phase = static_cast<uint8_t>(p.phase);
            k.qos_class = static_cast<uint8_t>(p.qos);
            k.creation_ms = p.created_ms;
            k.annotations = kvs(p.annotations);
            auto& cond = b.conditions.emplace_back();
            for (auto& c : p.conditions) cond.push_back({sizeof(kd_pod_condition), s(c[0]), s(c[1]), s(c[2]), s(c[3])});
            k.conditions = cond.data();
            k.condition_count = cond.size();
            k.condition_transitions = transitions(p);
            k.spec = &b.specs.back();
            k.status_reason = s(p.status_reason);
            auto& statuses = b.container_statuses.emplace_back();
            for (auto& c : p.container_statuses) {
                kd_container_status e{};
                e.struct_size = sizeof(kd_container_status);
                e.kind = static_cast<uint8_t>(c.kind);
                e.state = static_cast<uint8_t>(c.state);
                e.restart_count = c.restarts;
                e.exit_code = c.exit_code;
                e.name = s(c.name);
                e.reason = s(c.reason);
                statuses.push_back(e);
            }
            k.container_statuses = statuses.data();
            k.container_status_count = statuses.size();
            k.start_time_ms = p.start_ms;
            b.pods.push_back(k);
        }
        b.metrics.reserve(metrics_.size());
        for (auto& m : metrics_) {
            auto& pms = b.pod_metrics.emplace_back();
            for (auto& pm : m.pods) pms.push_back({sizeof(kd_pod_metric), s(pm.ns), s(pm.name), res(pm.usage)});
            b.metrics.push_back(
                {sizeof(kd_node_metric), m.has_node_metric, m.update_ms, res(m.system), pms.data(), pms.size()});
        }
        for (size_t i = 0; i < metrics_.size(); ++i) b.metric_by_node[metrics_[i].node] = &b.metrics[i];
        for (auto& n : b.nodes) {
            if (!n.ready) continue;
            b.all_nodes.push_back(&n);
            bool sel = selected_.empty();
            for (auto& name : selected_) sel = sel || name == sv(n.name);
            if (sel) b.selected.push_back(&n);
        }
        for (auto& p : b.pods) {
            b.all_pods.push_back(&p);
            b.by_node[std::string(sv(p.node_name))].push_back(&p);
        }
        b.snap = kd_snapshot{sizeof(kd_snapshot),
                             now_ms_,
                             b.selected.data(),
                             b.selected.size(),
                             b.all_nodes.data(),
                             b.all_nodes.size(),
                             b.all_pods.data(),
                             b.all_pods.size(),
                             &b,
                             &Built::pods_on_node,
                             &Built::node_metric,
                             &Built::find_pod,
                             &Built::find_node,
                             &Built::list_objects,
                             &Built::pod_workload,
                             ++revision_};
        b.snap.struct_size = sizes_.snapshot;
        b.objects = objects_;
        b.workloads = &workloads_;
        return &b.snap;
    }

private:
    struct Built {
        std::vector<kd_node> nodes;
        std::vector<kd_pod> pods;
        std::vector<kd_pod_spec> specs;  // reserved up front: pods point into it
        std::vector<kd_node_metric> metrics;
        std::deque<std::vector<kd_taint>> taints;
        std::deque<std::vector<kd_owner_reference>> owners;
        std::deque<std::vector<kd_toleration>> tolerations;
        std::deque<std::vector<kd_topology_spread_constraint>> spread_constraints;
        std::deque<std::vector<kd_preferred_node_term>> preferred_node_terms;
        std::deque<std::vector<kd_pod_affinity_term>> pod_affinity_terms;
        std::deque<std::vector<kd_pod_condition>> conditions;
        std::deque<std::vector<int32_t>> transitions;
        std::deque<std::vector<kd_container_status>> container_statuses;
        std::deque<std::vector<kd_pod_resource_claim>> resource_claims;
        std::deque<std::vector<kd_node_selector_term>> terms;
        std::deque<std::vector<kd_selector_requirement>> requirements;
        std::deque<std::vector<kd_str>> strs;
        std::deque<std::vector<kd_key_value>> kvs;
        std::deque<std::vector<kd_resource>> resources;
        std::deque<std::vector<kd_pod_metric>> pod_metrics;
        std::vector<const kd_node*> all_nodes, selected;
        std::vector<const kd_pod*> all_pods;
        std::map<std::string, std::vector<const kd_pod*>> by_node;
        std::map<std::string, const kd_node_metric*> metric_by_node;
        std::map<std::string, std::string> objects;
        const std::deque<WorkloadSpec>* workloads = nullptr;
        mutable std::deque<std::vector<const kd_pod*>> workload_pods;
        kd_snapshot snap{};

        static const Built& of(const kd_snapshot* s) { return *static_cast<const Built*>(s->host_data); }
        static kd_pod_ref_list pods_on_node(const kd_snapshot* s, kd_str node) {
            const Built& b = of(s);
            auto it = b.by_node.find(std::string(sv(node)));
            if (it == b.by_node.end() || sv(node).empty()) return {nullptr, 0};
            return {it->second.data(), it->second.size()};
        }
        static const kd_node_metric* node_metric(const kd_snapshot* s, kd_str node) {
            const Built& b = of(s);
            auto it = b.metric_by_node.find(std::string(sv(node)));
            return it == b.metric_by_node.end() ? nullptr : it->second;
        }
        static const kd_pod* find_pod(const kd_snapshot* s, kd_str ns, kd_str name) {
            for (auto& p : of(s).pods)
                if (sv(p.spec->namespace_) == sv(ns) && sv(p.name) == sv(name)) return &p;
            return nullptr;
        }
        static kd_str list_objects(const kd_snapshot* s, kd_str kind) {
            const Built& b = of(s);
            auto it = b.objects.find(std::string(sv(kind)));
            return it == b.objects.end() ? kd_str{"[]", 2} : to_kd(it->second);
        }
        static void pod_workload(const kd_snapshot* snap, const kd_pod* pod, kd_workload* out) {
            const Built& b = of(snap);
            auto controller = Pod(pod).controller();
            out->found = 0;
            if (!controller) return;
            auto covers = [](const WorkloadSpec& w, std::string_view uid) {
                return w.uid == uid || std::find(w.members.begin(), w.members.end(), uid) != w.members.end();
            };
            for (const auto& w : *b.workloads) {
                if (w.ns != Pod(pod).ns() || !covers(w, controller->uid())) continue;
                auto& pods = b.workload_pods.emplace_back();
                for (const auto& p : b.pods) {
                    auto c = Pod(&p).controller();
                    if (c && Pod(&p).ns() == w.ns && covers(w, c->uid())) pods.push_back(&p);
                }
                out->found = 1;
                out->has_replicas = w.has_replicas;
                out->replicas = w.replicas;
                out->kind = s(w.kind);
                out->namespace_ = s(w.ns);
                out->name = s(w.name);
                out->uid = s(w.uid);
                out->pods = {pods.data(), pods.size()};
                return;
            }
        }
        static const kd_node* find_node(const kd_snapshot* s, kd_str name) {
            for (auto& n : of(s).nodes)
                if (sv(n.name) == sv(name)) return &n;
            return nullptr;
        }
    };

    static kd_str s(const std::string& x) { return kd_str{x.data(), x.size()}; }
    kd_key_value_list kvs(const std::vector<std::pair<std::string, std::string>>& in) {
        auto& v = built_->kvs.emplace_back();
        for (auto& [k, val] : in) v.push_back({s(k), s(val)});
        return {v.data(), v.size()};
    }
    const int32_t* transitions(const PodSpec& p) {
        bool any = false;
        for (auto& t : p.transitions) any = any || t.has_value();
        if (!any) return nullptr;
        auto& v = built_->transitions.emplace_back();
        for (auto& t : p.transitions) v.push_back(t ? condition_transition_entry(p.created_ms, *t) : KD_NO_TRANSITION);
        return v.data();
    }
    kd_str_list strs(const std::vector<std::string>& in) {
        auto& v = built_->strs.emplace_back();
        for (auto& x : in) v.push_back(s(x));
        return {v.data(), v.size()};
    }
    kd_resource_list res(const std::vector<std::pair<std::string, int64_t>>& in) {
        auto& v = built_->resources.emplace_back();
        for (auto& [r, m] : in) v.push_back({s(r), m});
        return {v.data(), v.size()};
    }
    std::vector<kd_selector_requirement>& reqs(
        const std::vector<std::tuple<std::string, std::string, std::vector<std::string>>>& in) {
        auto& v = built_->requirements.emplace_back();
        for (auto& [key, op, values] : in) {
            auto& vals = built_->strs.emplace_back();
            for (auto& x : values) vals.push_back(s(x));
            v.push_back({sizeof(kd_selector_requirement), s(key), s(op), {vals.data(), vals.size()}});
        }
        return v;
    }

    int64_t now_ms_;
    HostStructSizes sizes_ = HostStructSizes::of_minor(KD_API_VERSION_MINOR);
    uint64_t revision_ = 0;  // one per build(): every snapshot may differ from the last
    std::deque<NodeSpec> nodes_;
    std::deque<PodSpec> pods_;
    std::deque<MetricSpec> metrics_;
    std::vector<std::string> selected_;
    std::map<std::string, std::string> objects_;
    std::deque<WorkloadSpec> workloads_;
    std::unique_ptr<Built> built_;
};

// One eviction request as the fake host saw it.
struct RecordedEviction {
    std::string pod;  // "ns/name"
    std::string node;
    std::string reason;
    std::string plugin;
    EvictOutcome outcome;
};

// One Pod Picker request (kd_host.pick_pods) as the fake host saw it.
struct RecordedPick {
    std::string picker_json;              // the podPicker block the plugin handed over
    std::vector<std::string> candidates;  // "ns/name", in the plugin's order
    uint32_t requested = 0;
};

// A scripted Pod Picker outcome: the names chosen and tied, or the host's failure message.
struct PickAnswer {
    std::vector<std::string> chosen, tied;
    std::string error;  // non-empty: the request failed (timeout, HTTP 500, invalid answer, …)
    static PickAnswer failure(std::string why) { return {{}, {}, std::move(why)}; }
};

// The profile's eviction limits (maxNoOfPodsToEvictPerNode, …PerNamespace, …Total), per cycle.
struct EvictionLimits {
    std::optional<uint32_t> per_node = std::nullopt, per_namespace = std::nullopt, total = std::nullopt;
};

// A plugin library loaded as the host loads it (dlopen, then its kdesched_module entry): to put a
// plugin you ship with, DefaultEvictor say, into the fake host's profile beside yours
// (FakeHost::instantiate(lib.descriptor("DefaultEvictor"), args, profile), add_filter_plugin).
class PluginLibrary {
public:
    explicit PluginLibrary(const std::string& path) : handle_(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
        if (!handle_) throw std::runtime_error("cannot load plugin library " + path + ": " + last_error());
        auto entry = reinterpret_cast<kd_module_entry_fn>(dlsym(handle_, KD_MODULE_ENTRY_SYMBOL));
        module_ = entry ? entry() : nullptr;
        if (!module_) {
            dlclose(handle_);
            throw std::runtime_error(path + " is not a kdesched plugin library (no " KD_MODULE_ENTRY_SYMBOL ")");
        }
    }
    ~PluginLibrary() { dlclose(handle_); }
    PluginLibrary(const PluginLibrary&) = delete;
    PluginLibrary& operator=(const PluginLibrary&) = delete;
    const kd_module* module() const { return module_; }
    // The plugin named `name`; throws naming the ones the library has.
    const kd_plugin_descriptor* descriptor(std::string_view name) const {
        std::string names;
        for (size_t i = 0; i < module_->plugin_count; ++i) {
            if (name == module_->plugins[i]->name) return module_->plugins[i];
            names += (names.empty() ? "" : ", ") + std::string(module_->plugins[i]->name);
        }
        throw std::runtime_error("plugin library " + std::string(module_->name) + " has no plugin \"" +
                                 std::string(name) + "\" (it has: " + names + ")");
    }

private:
    static std::string last_error() {
        const char* e = dlerror();
        return e ? e : "unknown error";
    }
    void* handle_;
    const kd_module* module_ = nullptr;
};

// A host for unit tests: plugins are created through their real C descriptor. An eviction request
// (Cycle::evict) goes through the host's pipeline: the profile's Filter, its PreEvictionFilter
// (unless the request skips it), `limits`, `dry_run`, and the evict plugin, `on_evict` (default:
// accepted). The profile's filter plugins are `on_filter` / `on_pre_eviction_filter` (named
// `filter_plugin_name`; default: allow) and the real ones given to add_filter_plugin, in that
// order. Every request is recorded in evictions() with its outcome.
class FakeHost {
public:
    std::function<Verdict(const Pod&)> on_filter = [](const Pod&) { return Verdict::allow(); };
    std::function<Verdict(const Pod&)> on_pre_eviction_filter = [](const Pod&) { return Verdict::allow(); };
    std::string filter_plugin_name = "DefaultEvictor";
    // The evict plugin's answer: accepted, filtered or failed (anything else counts as failed).
    std::function<EvictOutcome(const Pod&)> on_evict = [](const Pod&) { return EvictOutcome::accepted(); };
    EvictionLimits limits;
    // Answers the limits step instead of `limits` when set: KD_EVICT_ACCEPTED (within them) or
    // a KD_EVICT_LIMIT_* code, to script one node's or namespace's limit being reached.
    std::function<kd_evict_code(const Pod&)> on_limits;
    // Answers cluster evictions (kd_host.evict_pod): "" = success, else the API error (a
    // WriteResult gives the code too, e.g. {KD_WRITE_REFUSED, "…disruption budget…"}).
    std::function<WriteResult(const Pod&)> on_evict_pod = [](const Pod&) { return WriteResult(); };
    // Answers every other cluster write: "" or a default WriteResult = success, a message = failure,
    // or a WriteResult with its code ({KD_WRITE_CONFLICT, "…"}); `what` is the writes() line.
    // A successful create or update gets resourceVersion "rv-<n>" (n counts them) unless the
    // answer names one.
    std::function<WriteResult(const std::string& what)> on_write = [](const std::string&) { return WriteResult(); };
    // Answers Pod Picker requests. Like the host, the fake refuses an answer naming a pod that is
    // not a candidate; it does not count the names: script a failure to test the other fallbacks.
    std::function<PickAnswer(const RecordedPick&)> on_pick_pods = [](const RecordedPick&) {
        return PickAnswer::failure("no Pod Picker in this test (script FakeHost::on_pick_pods)");
    };
    bool dry_run = false;
    int64_t descheduling_interval_ms = 0;
    std::string instance_id = "test-instance";
    // (API 1.8) kd_create_info.metrics_sources: the kd_metrics_source bits the run collects.
    uint32_t metrics_sources = 0;
    // The cycle number hooks see (kd_call.cycle); 0: every call counts as a cycle of its own. Set it
    // to run several ticks within one cycle, as the host does between two cycles.
    uint64_t cycle = 0;

    // Every eviction request (Cycle::evict), refused ones too, in order.
    const std::vector<RecordedEviction>& evictions() const { return evictions_; }
    // "ns/name" of every accepted eviction (or dry-run one), in request order.
    std::vector<std::string> evicted() const {
        std::vector<std::string> out;
        for (auto& e : evictions_)
            if (e.outcome.evicted()) out.push_back(e.pod);
        return out;
    }
    const std::vector<std::string>& logs() const { return logs_; }
    // Cluster writes other than evictions, one line each, in order: "create <json>", "update <json>",
    // "status <json>" (update_object_status), "delete <kind> <ns>/<name>", "delete-pod <ns>/<name> <reason>", "annotate
    // <ns>/<name> <k>=<v>", "event <kind> <ns>/<name> <type> <reason> <action>: <message>".
    const std::vector<std::string>& writes() const { return writes_; }
    // Facts plugins reported (kd_host.report): "kind subject key=value", in order.
    const std::vector<std::string>& reports() const { return reports_; }
    // descheduler_pods_evicted increments: "result=<r> strategy=<s> namespace=<ns> node=<node>".
    const std::vector<std::string>& counted_evictions() const { return counted_; }
    // Pods an evict plugin evicted from the cluster (kd_host.evict_pod), "ns/name", in order.
    const std::vector<RecordedEviction>& cluster_evictions() const { return cluster_evictions_; }
    // Pod Picker requests, in order.
    const std::vector<RecordedPick>& picks() const { return picks_; }
    void clear() {
        evictions_.clear(), logs_.clear(), cluster_evictions_.clear(), reports_.clear(), writes_.clear();
        counted_.clear();
        picks_.clear();
    }

    // A plugin instance driven through its C boundary.
    class Handle {
    public:
        Handle(FakeHost* host, const kd_plugin_descriptor* d, kd_plugin_instance* inst)
            : host_(host), d_(d), inst_(inst, d->destroy) {}
        void deschedule(const kd_snapshot* s) { host_->run(d_, d_->deschedule, inst_.get(), s, "deschedule"); }
        void balance(const kd_snapshot* s) { host_->run(d_, d_->balance, inst_.get(), s, "balance"); }
        Verdict filter(const kd_snapshot* s, const Pod& pod) {
            return host_->call_filter(d_, d_->filter, inst_.get(), s, pod);
        }
        Verdict pre_eviction_filter(const kd_snapshot* s, const Pod& pod) {
            return host_->call_filter(d_, d_->pre_eviction_filter, inst_.get(), s, pod);
        }
        EvictOutcome evict(const kd_snapshot* s, const Pod& pod, const std::string& reason,
                           const std::string& plugin = "") {
            return host_->call_evict(d_, inst_.get(), s, pod, reason, plugin);
        }
        // Runs the periodic hook; returns the time it asks to be called again (0 = next cycle).
        int64_t tick(const kd_snapshot* s) { return host_->call_tick(d_, inst_.get(), s); }
        const kd_plugin_descriptor* descriptor() const { return d_; }
        kd_plugin_instance* raw() const { return inst_.get(); }

    private:
        FakeHost* host_;
        const kd_plugin_descriptor* d_;
        std::unique_ptr<kd_plugin_instance, void (*)(kd_plugin_instance*)> inst_;
    };

    // Makes a filter plugin instance (e.g. from a PluginLibrary) one of the profile's filter
    // plugins: Cycle::filter, pre_eviction_filter and evict consult it after on_filter. The handle
    // must outlive the calls.
    void add_filter_plugin(Handle& plugin) {
        const kd_plugin_descriptor* d = plugin.descriptor();
        if (!d->filter || !d->pre_eviction_filter)
            throw std::logic_error(std::string(d->name) + " is not a filter plugin (no filter hooks)");
        filter_plugins_.push_back(&plugin);
    }

    // Creates plugin T from args JSON; throws std::runtime_error with the plugin's message on failure.
    template <class T>
    Handle instantiate(const std::string& args_json = "{}", const std::string& profile = "test") {
        return instantiate(descriptor<T>(), args_json, profile);
    }
    Handle instantiate(const kd_plugin_descriptor* d, const std::string& args_json, const std::string& profile) {
        profile_ = profile;
        kd_create_info info{sizes_.create_info, to_kd(profile_), descheduling_interval_ms, to_kd(instance_id),
                            metrics_sources};
        kd_plugin_instance* inst = nullptr;
        Sink err;
        if (d->create(&host_, &info, args_json.data(), args_json.size(), &inst, &err.sink) != KD_OK || !inst)
            throw std::runtime_error(err.message.empty() ? "create failed without a message" : err.message);
        return Handle(this, d, inst);
    }

    // A host of plugin API 1.<api_minor> (default: this SDK's): its kd_host, kd_create_info and
    // write answers end where that minor's did.
    explicit FakeHost(uint32_t api_minor = KD_API_VERSION_MINOR)
        : api_minor_(api_minor), sizes_(HostStructSizes::of_minor(api_minor)) {
        host_ = kd_host{sizes_.host,    {KD_API_VERSION_MAJOR, api_minor, 0},
                        this,           &log_cb,
                        &filter_cb,     &pre_filter_cb,
                        &evict_cb,      &evict_pod_cb,
                        &report_cb,     &create_cb,
                        &update_cb,     &delete_cb,
                        &delete_pod_cb, &annotate_cb,
                        &event_cb,      &count_cb,
                        &pick_cb,       &status_cb};
    }
    FakeHost(const FakeHost&) = delete;
    FakeHost& operator=(const FakeHost&) = delete;

private:
    struct Sink {
        std::string message;
        kd_error_sink sink{sizeof(kd_error_sink), this, &set, KD_WRITE_OK, {}};
        static void set(kd_error_sink* self, const char* m, size_t n) {
            static_cast<Sink*>(self->host_data)->message.assign(m, n);
        }
    };
    static FakeHost& of(const kd_host* h) { return *static_cast<FakeHost*>(h->host_data); }
    static void log_cb(const kd_host* h, const kd_call*, int32_t, const char* m, size_t n) {
        of(h).logs_.emplace_back(m, n);
    }
    // The first of the profile's filter plugins to reject the pod, as the host reports it: the
    // plugin's name in `plugin`, its reason in `reason`; nullopt when all allow it.
    std::optional<EvictOutcome> first_rejection(const kd_call* call, const Pod& pod, bool pre_eviction) {
        Verdict v = pre_eviction ? on_pre_eviction_filter(pod) : on_filter(pod);
        if (!v.allowed) return EvictOutcome{KD_EVICT_FILTERED, filter_plugin_name, v.reason};
        for (Handle* f : filter_plugins_) {
            const kd_plugin_descriptor* d = f->descriptor();
            kd_call c = *call;
            c.plugin = kd_str{d->name, std::char_traits<char>::length(d->name)};
            kd_filter_result r{sizeof(kd_filter_result), 1, {}};
            Sink err;
            auto hook = pre_eviction ? d->pre_eviction_filter : d->filter;
            if (hook(f->raw(), &c, pod.raw(), &r, &err.sink) != KD_OK)
                throw std::runtime_error(std::string(d->name) + ": " + err.message);
            if (!r.allowed) return EvictOutcome{KD_EVICT_FILTERED, d->name, std::string(sv(r.reason))};
        }
        return std::nullopt;
    }
    // kd_host.filter and pre_eviction_filter: the AND of the filter plugins, "<plugin>: <reason>".
    static void answer_filter(const kd_host* h, const kd_call* call, const kd_pod* pod, bool pre_eviction,
                              kd_filter_result* out) {
        FakeHost& self = of(h);
        std::optional<EvictOutcome> no = self.first_rejection(call, Pod(pod), pre_eviction);
        self.verdict_ = no ? Verdict::reject(no->plugin + ": " + no->reason) : Verdict::allow();
        out->allowed = self.verdict_.allowed;
        out->reason = to_kd(self.verdict_.reason);
    }
    static void filter_cb(const kd_host* h, const kd_call* call, const kd_pod* pod, kd_filter_result* out) {
        answer_filter(h, call, pod, false, out);
    }
    static void pre_filter_cb(const kd_host* h, const kd_call* call, const kd_pod* pod, kd_filter_result* out) {
        answer_filter(h, call, pod, true, out);
    }
    // The host's eviction pipeline (core/runtime/evictor_proxy.cpp): Filter → PreEvictionFilter
    // (a host of API 1.4 on, unless the request skips it) → limits → dry run → the evict plugin.
    EvictOutcome run_eviction(const kd_call* call, const Pod& p, const kd_evict_options& o) {
        if (auto no = first_rejection(call, p, false)) return *no;
        bool has_flags = o.struct_size >= offsetof(kd_evict_options, flags) + sizeof(o.flags);
        bool skip_pre = has_flags && (o.flags & KD_EVICT_SKIP_PRE_EVICTION_FILTER);
        if (api_minor_ >= 4 && !skip_pre)
            if (auto no = first_rejection(call, p, true)) return *no;
        if (call->cycle != limits_cycle_) {
            limits_cycle_ = call->cycle;
            by_node_.clear(), by_namespace_.clear(), evicted_in_cycle_ = 0;
        }
        std::string node(p.node_name()), ns(p.ns());
        auto over = [](const std::optional<uint32_t>& limit, uint32_t count) { return limit && count + 1 > *limit; };
        kd_evict_code limit = on_limits                                                ? on_limits(p)
                              : !node.empty() && over(limits.per_node, by_node_[node]) ? KD_EVICT_LIMIT_NODE
                              : over(limits.per_namespace, by_namespace_[ns])          ? KD_EVICT_LIMIT_NAMESPACE
                              : over(limits.total, evicted_in_cycle_)                  ? KD_EVICT_LIMIT_TOTAL
                                                                                       : KD_EVICT_ACCEPTED;
        if (limit != KD_EVICT_ACCEPTED) return {limit, {}, evict_code_name(limit)};
        EvictOutcome r = dry_run ? EvictOutcome{KD_EVICT_DRY_RUN, {}, "framework dry run"} : on_evict(p);
        if (r.code != KD_EVICT_ACCEPTED && r.code != KD_EVICT_DRY_RUN && r.code != KD_EVICT_FILTERED)
            r.code = KD_EVICT_FAILED;
        if (r.evicted()) {
            if (!node.empty()) ++by_node_[node];
            ++by_namespace_[ns];
            ++evicted_in_cycle_;
        }
        return r;
    }
    static void evict_cb(const kd_host* h, const kd_call* call, const kd_pod* pod, const kd_evict_options* o,
                         kd_evict_result* out) {
        FakeHost& self = of(h);
        Pod p(pod);
        EvictOutcome r = self.run_eviction(call, p, *o);
        std::string plugin(sv(o->plugin_name).empty() ? sv(call->plugin) : sv(o->plugin_name));
        self.evictions_.push_back({p.key(), std::string(p.node_name()), std::string(sv(o->reason)), plugin, r});
        auto& last = self.evictions_.back().outcome;
        out->code = last.code;
        out->plugin = to_kd(last.plugin);
        out->reason = to_kd(last.reason);
    }

    static kd_status evict_pod_cb(const kd_host* h, const kd_call* call, const kd_pod* pod, kd_str reason,
                                  kd_error_sink* err) {
        FakeHost& self = of(h);
        Pod p(pod);
        WriteResult answer = self.on_evict_pod(p);
        EvictOutcome r = answer.ok() ? EvictOutcome::accepted() : EvictOutcome::failed(answer.message);
        self.cluster_evictions_.push_back(
            {p.key(), std::string(p.node_name()), std::string(sv(reason)), std::string(sv(call->plugin)), r});
        return self.reply(std::move(answer), false, err);
    }

    static void report_cb(const kd_host* h, const kd_call*, kd_str kind, kd_str subject, kd_str key, kd_str value) {
        of(h).reports_.push_back(std::string(sv(kind)) + " " + std::string(sv(subject)) + " " + std::string(sv(key)) +
                                 "=" + std::string(sv(value)));
    }

    // Hands a write's answer to the plugin through its error sink (code, message, new resourceVersion).
    kd_status reply(WriteResult answer, bool versioned, kd_error_sink* err) {
        if (answer.ok() && versioned && answer.resource_version.empty())
            answer.resource_version = "rv-" + std::to_string(++versions_made_);
        // Before 1.2 a host set neither the code nor the new resourceVersion.
        bool has_fields =
            api_minor_ >= 2 && err->struct_size >= offsetof(kd_error_sink, resource_version) + sizeof(kd_str);
        if (has_fields) err->code = answer.code;
        if (answer.ok()) {
            if (has_fields) err->resource_version = to_kd(kept_.emplace_back(std::move(answer.resource_version)));
            return KD_OK;
        }
        err->set(err, answer.message.data(), answer.message.size());
        return KD_ERROR;
    }
    static kd_status answer(const kd_host* h, std::string what, kd_error_sink* err, bool versioned = false) {
        FakeHost& self = of(h);
        WriteResult result = self.on_write(what);
        self.writes_.push_back(std::move(what));
        return self.reply(std::move(result), versioned, err);
    }
    static kd_status create_cb(const kd_host* h, const kd_call*, kd_str json, kd_error_sink* err) {
        return answer(h, "create " + std::string(sv(json)), err, true);
    }
    static kd_status update_cb(const kd_host* h, const kd_call*, kd_str json, kd_error_sink* err) {
        return answer(h, "update " + std::string(sv(json)), err, true);
    }
    static kd_status status_cb(const kd_host* h, const kd_call*, kd_str json, kd_error_sink* err) {
        return answer(h, "status " + std::string(sv(json)), err, true);
    }
    static kd_status delete_cb(const kd_host* h, const kd_call*, kd_str kind, kd_str ns, kd_str name,
                               kd_error_sink* err) {
        return answer(h, "delete " + std::string(sv(kind)) + " " + std::string(sv(ns)) + "/" + std::string(sv(name)),
                      err);
    }
    static kd_status delete_pod_cb(const kd_host* h, const kd_call*, const kd_pod* pod, kd_str reason,
                                   kd_error_sink* err) {
        return answer(h, "delete-pod " + Pod(pod).key() + " " + std::string(sv(reason)), err);
    }
    static kd_status annotate_cb(const kd_host* h, const kd_call*, const kd_pod* pod, kd_str key, kd_str value,
                                 kd_error_sink* err) {
        return answer(h, "annotate " + Pod(pod).key() + " " + std::string(sv(key)) + "=" + std::string(sv(value)), err);
    }
    static void event_cb(const kd_host* h, const kd_call*, kd_str kind, kd_str ns, kd_str name, kd_str type,
                         kd_str reason, kd_str action, kd_str message) {
        of(h).writes_.push_back("event " + std::string(sv(kind)) + " " + std::string(sv(ns)) + "/" +
                                std::string(sv(name)) + " " + std::string(sv(type)) + " " + std::string(sv(reason)) +
                                " " + std::string(sv(action)) + ": " + std::string(sv(message)));
    }

    static void count_cb(const kd_host* h, const kd_call*, const kd_pod* pod, kd_str result, kd_str strategy) {
        Pod p(pod);
        of(h).counted_.push_back("result=" + std::string(sv(result)) + " strategy=" + std::string(sv(strategy)) +
                                 " namespace=" + std::string(p.ns()) + " node=" + std::string(p.node_name()));
    }

    static kd_status pick_cb(const kd_host* h, const kd_call*, kd_str json, const kd_pod* const* pods, size_t count,
                             uint32_t requested, uint8_t* ranks, kd_error_sink* err) {
        FakeHost& self = of(h);
        RecordedPick& request = self.picks_.emplace_back(RecordedPick{std::string(sv(json)), {}, requested});
        for (size_t i = 0; i < count; ++i) request.candidates.push_back(Pod(pods[i]).key());
        PickAnswer answer = self.on_pick_pods(request);
        const auto& names = request.candidates;
        auto listed = [](const std::vector<std::string>& list, const std::string& name) {
            return std::find(list.begin(), list.end(), name) != list.end();
        };
        for (const auto* list : {&answer.chosen, &answer.tied})
            for (const auto& name : *list)
                if (answer.error.empty() && !listed(names, name))
                    answer.error = "answer names \"" + name + "\", which is not a candidate";
        if (!answer.error.empty()) {
            err->set(err, answer.error.data(), answer.error.size());
            return KD_ERROR;
        }
        for (size_t i = 0; i < count; ++i)
            ranks[i] = listed(answer.chosen, names[i]) ? kPickChosen
                       : listed(answer.tied, names[i]) ? kPickTied
                                                       : kPickOther;
        return KD_OK;
    }

    kd_call make_call(const kd_plugin_descriptor* d, const kd_snapshot* s) {
        return kd_call{sizeof(kd_call),
                       s,
                       to_kd(profile_),
                       kd_str{d->name, std::char_traits<char>::length(d->name)},
                       cycle ? cycle : ++cycle_,
                       dry_run,
                       this};
    }
    template <class Fn>
    void run(const kd_plugin_descriptor* d, Fn fn, kd_plugin_instance* inst, const kd_snapshot* s, const char* point) {
        if (!fn) throw std::logic_error(std::string(d->name) + " does not implement " + point);
        kd_call call = make_call(d, s);
        Sink err;
        if (fn(inst, &call, &err.sink) != KD_OK) throw std::runtime_error(err.message);
    }
    template <class Fn>
    Verdict call_filter(const kd_plugin_descriptor* d, Fn fn, kd_plugin_instance* inst, const kd_snapshot* s,
                        const Pod& pod) {
        if (!fn) throw std::logic_error(std::string(d->name) + " does not implement filter");
        kd_call call = make_call(d, s);
        kd_filter_result out{sizeof(kd_filter_result), 1, {}};
        Sink err;
        if (fn(inst, &call, pod.raw(), &out, &err.sink) != KD_OK) throw std::runtime_error(err.message);
        return {out.allowed != 0, std::string(sv(out.reason))};
    }
    EvictOutcome call_evict(const kd_plugin_descriptor* d, kd_plugin_instance* inst, const kd_snapshot* s,
                            const Pod& pod, const std::string& reason, const std::string& plugin) {
        if (!d->evict) throw std::logic_error(std::string(d->name) + " does not implement evict");
        kd_call call = make_call(d, s);
        kd_evict_options o{sizeof(kd_evict_options), to_kd(reason), plugin.empty() ? call.plugin : to_kd(plugin), 0};
        kd_evict_result out{sizeof(kd_evict_result), KD_EVICT_FAILED, {}, {}};
        Sink err;
        if (d->evict(inst, &call, pod.raw(), &o, &out, &err.sink) != KD_OK) throw std::runtime_error(err.message);
        return {static_cast<kd_evict_code>(out.code), std::string(sv(out.plugin)), std::string(sv(out.reason))};
    }

    int64_t call_tick(const kd_plugin_descriptor* d, kd_plugin_instance* inst, const kd_snapshot* s) {
        if (d->struct_size < offsetof(kd_plugin_descriptor, tick) + sizeof(d->tick) || !d->tick)
            throw std::logic_error(std::string(d->name) + " does not implement tick");
        kd_call call = make_call(d, s);
        int64_t next = 0;
        Sink err;
        if (d->tick(inst, &call, &next, &err.sink) != KD_OK) throw std::runtime_error(err.message);
        return next;
    }

    kd_host host_{};
    std::string profile_;
    uint32_t api_minor_;
    HostStructSizes sizes_;
    uint64_t cycle_ = 0;
    Verdict verdict_;
    std::vector<Handle*> filter_plugins_;
    uint64_t limits_cycle_ = UINT64_MAX;  // the cycle the counts below are of
    std::map<std::string, uint32_t> by_node_, by_namespace_;
    uint32_t evicted_in_cycle_ = 0;
    std::vector<RecordedEviction> evictions_, cluster_evictions_;
    std::vector<std::string> logs_, reports_, writes_, counted_;
    std::vector<RecordedPick> picks_;
    uint64_t versions_made_ = 0;
    std::deque<std::string> kept_;  // resourceVersions handed to plugins (kd_str must stay valid)
};

}  // namespace kd::testing
