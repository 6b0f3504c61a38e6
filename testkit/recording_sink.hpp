// An ObjectSink for tests: keeps owned copies of every draft (their string_views re-pointed into
// an arena, since the decoder's buffer is gone after the load) and a canonical text of each
// object, in arrival order, so that two inputs can be compared object by object.
#pragma once

#include "cluster/decode/snapshot_files.hpp"
#include "cluster/drafts.hpp"
#include "cluster/schema/bound_fields.hpp"

#include <cstring>
#include <deque>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace kd::test {

using namespace kd::core;

// 1Mi as the drafts hold quantities (milli-units).
constexpr int64_t kMi = 1024LL * 1024 * 1000;

class RecordingSink : public ObjectSink {
public:
    std::vector<PodDraft> pods;
    std::vector<NodeDraft> nodes;
    std::vector<NodeMetricDraft> metrics;
    std::vector<WorkloadDraft> workloads;
    std::vector<PodDisruptionBudgetDraft> pdbs;
    std::vector<NamespaceDraft> namespaces;
    std::vector<PriorityClassDraft> priority_classes;
    std::vector<PersistentVolumeClaimDraft> pvcs;
    std::vector<SecretDraft> secrets;
    std::vector<PodMigrationJob> jobs;
    std::vector<Reservation> reservations;
    std::vector<std::string> texts;  // canonical text of every object, in order

    void on_pod(const PodDraft& d) override {
        PodDraft& p = pods.emplace_back(d);
        own(p.meta);
        for (auto* s : {&p.scheduler_name, &p.phase, &p.qos_class}) own(*s);
        auto owned = [&](std::string_view s) {
            std::string_view k = keep(s);
            return kd_str{k.data(), k.size()};
        };
        auto owned_array = [&](const void* data, size_t bytes) -> const void* {
            const auto* words = static_cast<const uint64_t*>(data);
            return arrays_.emplace_back(words, words + bytes / 8).data();
        };
        schema::copy_bound(p.bound, p.bound, owned, owned_array);
        schema::copy_bound(p.bound_spec, p.bound_spec, owned, owned_array);
        p.lists = {};  // the copies are in arrays_
        for (auto& c : p.containers) own(c.requests), own(c.limits);
        for (auto& c : p.init_containers) own(c.requests), own(c.limits);
        own(p.overhead);
        own(p.node_selector);
        for (auto& t : p.affinity_terms) {
            for (auto* reqs : {&t.expressions, &t.fields})
                for (auto& r : *reqs) {
                    own(r.key), own(r.op);
                    for (auto& v : r.values) own(v);
                }
        }
        for (auto& c : p.conditions) own(c.type), own(c.status), own(c.reason), own(c.message);
        for (auto& c : p.container_statuses) own(c.name), own(c.reason);
        texts.push_back(text(p));
    }
    void on_node(const NodeDraft& d) override {
        NodeDraft& n = nodes.emplace_back(d);
        own(n.meta);
        for (auto& t : n.taints) own(t.key), own(t.value), own(t.effect);
        own(n.allocatable);
        if (n.ready_status) own(*n.ready_status);
        texts.push_back(text(n));
    }
    void on_node_metric(const NodeMetricDraft& d) override {
        NodeMetricDraft& m = metrics.emplace_back(d);
        own(m.meta);
        own(m.system_usage);
        for (auto& p : m.pods) own(p.ns), own(p.name), own(p.usage);
        texts.push_back(text(m));
    }
    void on_workload(const WorkloadDraft& d) override {
        WorkloadDraft& w = workloads.emplace_back(d);
        own(w.kind);
        own(w.meta);
        std::ostringstream o;
        o << w.kind << " " << meta(w.meta) << " replicas=" << (w.replicas ? std::to_string(*w.replicas) : "-")
          << " ready=" << w.ready_replicas << " selector=" << selector(w.selector);
        texts.push_back(o.str());
    }
    void on_pdb(const PodDisruptionBudgetDraft& d) override {
        PodDisruptionBudgetDraft& p = pdbs.emplace_back(d);
        own(p.meta);
        auto ios = [](const std::optional<kd::IntOrString>& v) { return v ? v->text() : std::string("-"); };
        texts.push_back("PodDisruptionBudget " + meta(p.meta) + " selector=" + selector(p.selector) +
                        " minAvailable=" + ios(p.min_available) + " maxUnavailable=" + ios(p.max_unavailable) +
                        " disruptionsAllowed=" + std::to_string(p.disruptions_allowed));
    }
    void on_namespace(const NamespaceDraft& d) override {
        NamespaceDraft& n = namespaces.emplace_back(d);
        own(n.meta);
        texts.push_back("Namespace " + meta(n.meta));
    }
    void on_priority_class(const PriorityClassDraft& d) override {
        PriorityClassDraft& c = priority_classes.emplace_back(d);
        own(c.meta);
        texts.push_back("PriorityClass " + meta(c.meta) + " value=" + std::to_string(c.value));
    }
    void on_pvc(const PersistentVolumeClaimDraft& d) override {
        PersistentVolumeClaimDraft& c = pvcs.emplace_back(d);
        own(c.meta);
        own(c.storage_class);
        texts.push_back("PersistentVolumeClaim " + meta(c.meta) + " storageClassName=" + std::string(c.storage_class));
    }
    void on_secret(const SecretDraft& d) override {
        SecretDraft& s = secrets.emplace_back(d);
        own(s.meta);
        own(s.data);
        texts.push_back("Secret " + meta(s.meta) + " data=" + kvs(s.data));
    }
    void on_migration_job(PodMigrationJob j) override {
        texts.push_back("PodMigrationJob " + j.name);
        jobs.push_back(std::move(j));
    }
    void on_reservation(Reservation r) override {
        texts.push_back("Reservation " + r.name);
        reservations.push_back(std::move(r));
    }

    // "Kind ns/name" of every object, in order.
    std::vector<std::string> order() const {
        std::vector<std::string> out;
        for (const auto& t : texts) out.push_back(t.substr(0, t.find(' ', t.find(' ') + 1)));
        return out;
    }

private:
    std::string_view keep(std::string_view v) { return arena_.emplace_back(v); }
    void own(std::string_view& v) { v = keep(v); }
    void own(std::vector<KeyValueDraft>& kv) {
        for (auto& [k, v] : kv) own(k), own(v);
    }
    void own(ResourceDraft& r) {
        for (auto& [k, v] : r) own(k);
    }
    void own(ObjectMetaDraft& m) {
        own(m.uid), own(m.ns), own(m.name);
        own(m.labels), own(m.annotations);
        for (auto& o : m.owners) own(o.api_version), own(o.kind), own(o.name), own(o.uid);
    }

    static std::string kvs(const std::vector<KeyValueDraft>& kv) {
        std::string out = "{";
        for (const auto& [k, v] : kv)
            out += std::string(out.size() > 1 ? "," : "") + std::string(k) + "=" + std::string(v);
        return out + "}";
    }
    static std::string res(const ResourceDraft& r) {
        std::string out = "{";
        for (const auto& [k, v] : r)
            out += std::string(out.size() > 1 ? "," : "") + std::string(k) + "=" + std::to_string(v);
        return out + "}";
    }
    static std::string meta(const ObjectMetaDraft& m) {
        std::ostringstream o;
        o << (m.ns.empty() ? "" : std::string(m.ns) + "/") << m.name << " uid=" << m.uid << " created=" << m.creation_ms
          << " deleting=" << m.deleting << " labels=" << kvs(m.labels) << " annotations=" << kvs(m.annotations)
          << " owners=[";
        for (const auto& ow : m.owners)
            o << ow.api_version << "," << ow.kind << "," << ow.name << "," << ow.uid << "," << ow.controller << ";";
        o << "]";
        return o.str();
    }
    static std::string selector(const std::optional<kd::LabelSelector>& s) {
        if (!s) return "-";
        std::string out = "{";
        for (const auto& [k, v] : s->matchLabels) out += k + "=" + v + ",";
        for (const auto& r : s->matchExpressions) {
            out += r.key + " " + r.operator_ + " (";
            for (const auto& v : r.values) out += v + ",";
            out += "),";
        }
        return out + "}";
    }
    static std::string text(const PodDraft& p) {
        std::ostringstream o;
        o << "Pod " << meta(p.meta) << " scheduler=" << p.scheduler_name
          << " priority=" << (p.priority ? std::to_string(*p.priority) : "-") << " phase=" << p.phase
          << " qos=" << p.qos_class << " containers=[";
        for (const auto& c : p.containers) o << res(c.requests) << res(c.limits) << c.restart_always << ";";
        o << "] init=[";
        for (const auto& c : p.init_containers) o << res(c.requests) << res(c.limits) << c.restart_always << ";";
        o << "] overhead=" << res(p.overhead) << " nodeSelector=" << kvs(p.node_selector)
          << " required=" << p.has_required_affinity << " terms=[";
        for (const auto& t : p.affinity_terms) {
            for (const auto* reqs : {&t.expressions, &t.fields}) {
                o << "(";
                for (const auto& r : *reqs) {
                    o << r.key << " " << r.op;
                    for (auto v : r.values) o << " " << v;
                    o << ";";
                }
                o << ")";
            }
        }
        o << "] volumes=" << p.local_storage << p.pvc << p.ephemeral_volume << " conditions=[";
        for (const auto& c : p.conditions) o << c.type << "," << c.status << "," << c.reason << "," << c.message << ";";
        o << "]";
        // The bound rows' values, as `json=value` in row order; written only when present.
        for (const schema::Context& c : schema::kContexts)
            for (const schema::FieldRow& r : c.rows) {
                auto put = [&](const auto& s) {
                    schema::with_member<std::remove_cvref_t<decltype(s)>>(r.bind, [&](auto mp) {
                        if constexpr (std::is_same_v<typename schema::member_traits<decltype(mp)>::type, kd_str>) {
                            if ((s.*mp).size) o << " " << r.json << "=" << view(s.*mp);
                        } else if (s.*mp) {
                            o << " " << r.json << "=" << int64_t(s.*mp);
                        }
                    });
                };
                put(p.bound);
                put(p.bound_spec);
                const schema::Place& at = r.bind.place;
                if (at.base == schema::Base::pod || at.base == schema::Base::pod_spec) {
                    const auto* s = reinterpret_cast<const std::byte*>(at.base == schema::Base::pod
                                                                           ? static_cast<const void*>(&p.bound)
                                                                           : static_cast<const void*>(&p.bound_spec));
                    std::ostringstream v;
                    if (placed(v, s, at)) o << " " << r.json << "=" << v.str();
                }
            }
        if (!p.container_statuses.empty()) {
            o << " statuses=[";
            for (const auto& c : p.container_statuses)
                o << int(c.kind) << "," << c.name << "," << c.restart_count << "," << int(c.state) << "," << c.reason
                  << "," << c.exit_code << ";";
            o << "]";
        }
        return o.str();
    }
    // A placed member (a bound list, its elements' members) as text; false when absent (empty).
    static bool placed(std::ostream& o, const std::byte* s, const schema::Place& p) {
        auto load = [&](auto v, uint32_t at) {
            std::memcpy(&v, s + at, sizeof v);
            return v;
        };
        switch (p.type) {
            case schema::Field::none:
                return false;
            case schema::Field::str:
                o << view(load(kd_str{}, p.at));
                return load(kd_str{}, p.at).size != 0;
            case schema::Field::int32:
                o << load(int32_t{}, p.at);
                return load(int32_t{}, p.at) != 0;
            case schema::Field::boolean:
                o << int(load(uint8_t{}, p.at));
                return load(uint8_t{}, p.at) != 0;
            case schema::Field::time:
                o << load(int64_t{}, p.at);
                return load(int64_t{}, p.at) != 0;
            case schema::Field::strs: {
                auto l = load(kd_str_list{}, p.at);
                o << "[";
                for (size_t i = 0; i < l.count; ++i) o << (i ? "," : "") << view(l.items[i]);
                o << "]";
                return l.count != 0;
            }
            case schema::Field::kvs: {
                auto l = load(kd_key_value_list{}, p.at);
                o << "{";
                for (size_t i = 0; i < l.count; ++i)
                    o << (i ? "," : "") << view(l.items[i].key) << "=" << view(l.items[i].value);
                o << "}";
                return l.count != 0;
            }
            case schema::Field::object:
            case schema::Field::list: {
                const bool list = p.type == schema::Field::list;
                const auto* items = list ? load(static_cast<const std::byte*>(nullptr), p.at) : s;
                const size_t count = list ? load(size_t{}, p.count) : load(uint8_t{}, p.at);
                uint32_t stride = 0;  // the elements' struct_size
                if (list && count) std::memcpy(&stride, items, sizeof stride);
                o << (list ? "[" : "{");
                for (size_t i = 0; i < count; ++i) {
                    for (const schema::FieldRow& r : p.shape->rows) {
                        std::ostringstream v;
                        if (placed(v, items + i * stride, r.bind.place)) o << r.json << "=" << v.str() << " ";
                    }
                    if (list) o << ";";
                }
                o << (list ? "]" : "}");
                return count != 0;
            }
        }
        return false;
    }
    static std::string text(const NodeDraft& n) {
        std::ostringstream o;
        o << "Node " << meta(n.meta) << " unschedulable=" << n.unschedulable << " taints=[";
        for (const auto& t : n.taints) o << t.key << "," << t.value << "," << t.effect << ";";
        o << "] allocatable=" << res(n.allocatable) << " ready=" << (n.ready_status ? *n.ready_status : "-");
        return o.str();
    }
    static std::string text(const NodeMetricDraft& m) {
        std::ostringstream o;
        o << "NodeMetric " << meta(m.meta) << " update=" << m.update_ms << " has=" << m.has_node_metric
          << " system=" << res(m.system_usage) << " pods=[";
        for (const auto& p : m.pods) o << p.ns << "/" << p.name << res(p.usage) << ";";
        o << "]";
        return o.str();
    }

    std::deque<std::string> arena_;
    std::deque<std::vector<uint64_t>> arrays_;
};

// Loads `text` (named `origin`, whose extension picks the format).
inline LoadReport load_text(const std::string& text, RecordingSink& sink, const std::string& origin = "cluster.json") {
    return load_cluster_text(text, origin, sink);
}

// The error message a load throws, or "" if it succeeds.
template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

}  // namespace kd::test
