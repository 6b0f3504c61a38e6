#include "cluster/model_digest.hpp"

#include "cluster/cluster_model.hpp"
#include "cluster/kind_table.hpp"
#include "cluster/migration_json.hpp"
#include "cluster/schema/bound_fields.hpp"

#include <cinttypes>
#include <cstdio>

namespace kd::core {

namespace {

// Each list is added with its length first, so that ["a","b"] and ["ab"] differ.
void add(ContentKey& k, kd_str s) {
    k.add(view(s));
}
void add(ContentKey& k, kd_key_value_list l) {
    k.add_word(l.count);
    for (size_t i = 0; i < l.count; ++i) k.add(view(l.items[i].key), view(l.items[i].value));
}
void add(ContentKey& k, kd_resource_list l) {
    k.add_word(l.count);
    for (size_t i = 0; i < l.count; ++i) k.add(view(l.items[i].name)).add_word(uint64_t(l.items[i].milli));
}
void add(ContentKey& k, kd_str_list l) {
    k.add_word(l.count);
    for (size_t i = 0; i < l.count; ++i) add(k, l.items[i]);
}
void add(ContentKey& k, const kd_selector_requirement* r, size_t n) {
    k.add_word(n);
    for (size_t i = 0; i < n; ++i) {
        k.add(view(r[i].key), view(r[i].operator_));
        add(k, r[i].values);
    }
}
template <class Map>
void add_map(ContentKey& k, const Map& m) {
    k.add_word(m.size());
    for (const auto& [key, value] : m) k.add(key, value);
}
void add(ContentKey& k, const std::optional<IntOrString>& v) {
    k.add_word(v ? (v->is_string ? 2 : 1) : 0);
    if (v) k.add(v->str_value).add_word(uint64_t(int64_t(v->int_value)));
}

void add_spec(ContentKey& k, const kd_pod_spec& s) {
    add(k, s.namespace_);
    add(k, s.labels);
    k.add(view(s.scheduler_name));
    k.add_word(s.owner_count);
    for (size_t i = 0; i < s.owner_count; ++i) {
        const auto& o = s.owners[i];
        k.add(view(o.api_version), view(o.kind), view(o.name), view(o.uid)).add_word(o.controller);
    }
    add(k, s.requests);
    add(k, s.node_selector);
    k.add_word(s.affinity_term_count);
    for (size_t i = 0; i < s.affinity_term_count; ++i) {
        add(k, s.affinity_terms[i].match_expressions, s.affinity_terms[i].match_expression_count);
        add(k, s.affinity_terms[i].match_fields, s.affinity_terms[i].match_field_count);
    }
    schema::add_bound(k, s, true);
}

ContentKey pod_key(const kd_pod& p) {
    ContentKey k;
    k.add(view(p.uid), view(p.name));
    k.add_word(p.flags).add_word(uint64_t(int64_t(p.priority))).add_word(p.phase).add_word(p.qos_class);
    k.add_word(uint64_t(p.creation_ms));
    add(k, p.annotations);
    k.add_word(p.condition_count);
    for (size_t i = 0; i < p.condition_count; ++i) {
        const auto& c = p.conditions[i];
        k.add(view(c.type), view(c.status), view(c.reason), view(c.message));
        if (p.condition_transitions) k.add_word(uint64_t(int64_t(p.condition_transitions[i])));
    }
    k.add_word(p.container_status_count);
    for (size_t i = 0; i < p.container_status_count; ++i) {
        const auto& c = p.container_statuses[i];
        k.add_word(c.kind).add_word(c.state).add_word(uint64_t(int64_t(c.restart_count)));
        k.add_word(uint64_t(int64_t(c.exit_code))).add(view(c.name), view(c.reason));
    }
    schema::add_bound(k, p, true);
    add_spec(k, *p.spec);
    return k;
}

ContentKey node_key(const kd_node& n) {
    ContentKey k;
    k.add(view(n.uid), view(n.name)).add_word(n.unschedulable).add_word(n.ready);
    add(k, n.labels);
    add(k, n.annotations);
    k.add_word(n.taint_count);
    for (size_t i = 0; i < n.taint_count; ++i)
        k.add(view(n.taints[i].key), view(n.taints[i].value), view(n.taints[i].effect));
    add(k, n.allocatable);
    add(k, n.raw_allocatable);
    return k;
}

ContentKey node_metric_key(std::string_view node, const kd_node_metric& m) {
    ContentKey k;
    k.add(node).add_word(m.has_node_metric).add_word(uint64_t(m.update_time_ms));
    add(k, m.system_usage);
    k.add_word(m.pod_count);
    for (size_t i = 0; i < m.pod_count; ++i) {
        k.add(view(m.pods[i].namespace_), view(m.pods[i].name));
        add(k, m.pods[i].usage);
    }
    return k;
}

ContentKey workload_key(const Workload& w) {
    ContentKey k;
    k.add(w.kind, w.uid, w.ns, w.name).add(w.controller_kind, w.controller_name, w.controller_uid);
    k.add_word(w.replicas ? uint64_t(1) << 32 | uint32_t(*w.replicas) : 0).add_word(uint64_t(w.ready_replicas));
    return k;
}

ContentKey pdb_key(const PodDisruptionBudget& p) {
    ContentKey k;
    k.add(p.uid, p.ns, p.name).add_word(p.selector.has_value());
    if (p.selector) {
        add_map(k, p.selector->matchLabels);
        k.add_word(p.selector->matchExpressions.size());
        for (const auto& r : p.selector->matchExpressions) {
            k.add(r.key, r.operator_).add_word(r.values.size());
            for (const auto& v : r.values) k.add(v);
        }
    }
    add(k, p.min_available);
    add(k, p.max_unavailable);
    k.add_word(uint64_t(int64_t(p.disruptions_allowed)));
    return k;
}

ContentKey namespace_key(const Namespace& n) {
    ContentKey k;
    k.add(n.uid, n.name);
    add_map(k, n.labels);
    return k;
}

ContentKey priority_class_key(const PriorityClass& c) {
    ContentKey k;
    k.add(c.uid, c.name);
    k.add_word(uint64_t(int64_t(c.value)));
    return k;
}

ContentKey pvc_key(const PersistentVolumeClaim& c) {
    ContentKey k;
    k.add(c.uid, c.ns, c.name, c.storage_class);
    return k;
}

// The wire form holds every field the model keeps of these two kinds, resourceVersion included.
template <class T>
ContentKey wire_key(const T& object) {
    ContentKey k;
    k.add(to_json(object));
    return k;
}

// Order-independent: the objects' keys summed word by word.
struct Sum {
    KindDigest* out;
    uint64_t a = 0, b = 0;
    void add(const ContentKey& k) {
        a += k.a;
        b += k.b;
        ++out->count;
    }
    ~Sum() {
        char hex[33];
        std::snprintf(hex, sizeof hex, "%016" PRIx64 "%016" PRIx64, a, b);
        out->digest = hex;
    }
};

}  // namespace

std::map<std::string, KindDigest> digest_model(const ClusterModel& model) {
    std::map<std::string, KindDigest> out;
    auto sum = [&out](ObjectKind kind) { return Sum{&out[std::string(kind_name(kind))]}; };
    {
        Sum s = sum(ObjectKind::pod);
        for (const kd_pod* p : model.pods()) s.add(pod_key(*p));
    }
    {
        Sum s = sum(ObjectKind::node);
        for (const kd_node* n : model.nodes()) s.add(node_key(*n));
    }
    {
        Sum s = sum(ObjectKind::node_metric);
        for (const auto& node : model.keys_of(ObjectKind::node_metric))
            if (const kd_node_metric* m = model.node_metric(node)) s.add(node_metric_key(node, *m));
    }
    for (ObjectKind kind : {ObjectKind::replica_set, ObjectKind::deployment, ObjectKind::stateful_set, ObjectKind::job,
                            ObjectKind::daemon_set, ObjectKind::replication_controller}) {
        Sum s = sum(kind);
        for (const auto& uid : model.keys_of(kind))
            if (const Workload* w = model.workload_by_uid(uid)) s.add(workload_key(*w));
    }
    {
        Sum s = sum(ObjectKind::pdb);
        for (const auto& [key, p] : model.pdbs()) s.add(pdb_key(p));
    }
    {
        Sum s = sum(ObjectKind::namespace_);
        for (const auto& [key, n] : model.namespaces()) s.add(namespace_key(n));
    }
    {
        Sum s = sum(ObjectKind::priority_class);
        for (const auto& [key, c] : model.priority_classes()) s.add(priority_class_key(c));
    }
    {
        Sum s = sum(ObjectKind::pvc);
        for (const auto& [key, c] : model.pvcs()) s.add(pvc_key(c));
    }
    {
        Sum s = sum(ObjectKind::migration_job);
        for (const auto& [key, j] : model.migration_jobs()) s.add(wire_key(j));
    }
    {
        Sum s = sum(ObjectKind::reservation);
        for (const auto& [key, r] : model.reservations()) s.add(wire_key(r));
    }
    return out;
}

std::string digest_json(const std::map<std::string, KindDigest>& digests) {
    std::string out = "{\"kinds\":{";
    bool first = true;
    for (const auto& [kind, d] : digests) {
        out += (first ? "\"" : ",\"") + kind + "\":{\"count\":" + std::to_string(d.count) + ",\"digest\":\"" +
               d.digest + "\"}";
        first = false;
    }
    return out + "}}";
}

}  // namespace kd::core
