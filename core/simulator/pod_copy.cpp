#include "simulator/pod_copy.hpp"

#include "cluster/schema/bound_fields.hpp"

#include <kdesched/view.hpp>

namespace kd::core {

namespace {
std::vector<std::pair<std::string, std::string>> copy_kvs(kd::KeyValues kvs) {
    std::vector<std::pair<std::string, std::string>> out;
    for (size_t i = 0; i < kvs.size(); ++i) out.emplace_back(kvs.key(i), kvs.value(i));
    return out;
}
const char* qos_name(kd_qos_class q) {
    return q == KD_QOS_GUARANTEED ? "Guaranteed" : q == KD_QOS_BEST_EFFORT ? "BestEffort" : "Burstable";
}
}  // namespace

PodCopy::PodCopy(const kd_pod& raw) {
    kd::Pod p(&raw);
    uid_ = p.uid();
    creation_ms_ = p.creation_ms();
    static const char* const kPhases[] = {"Pending", "Running", "Succeeded", "Failed", "Unknown"};
    phase_ = kPhases[p.phase() <= KD_POD_UNKNOWN ? p.phase() : KD_POD_UNKNOWN];
    ns_ = p.ns();
    name_ = p.name();
    node_ = p.node_name();
    scheduler_ = p.scheduler_name();
    qos_ = qos_name(p.qos_class());
    priority_ = p.priority();
    flags_ = raw.flags;
    labels_ = copy_kvs(p.labels());
    annotations_ = copy_kvs(p.annotations());
    node_selector_ = copy_kvs(p.node_selector());
    for (auto o : p.owners()) {
        owners_.push_back({std::string(o.api_version()), std::string(o.kind()), std::string(o.name()),
                           std::string(o.uid()), o.controller()});
        if (o.controller()) {
            controller_kind_ = o.kind();
            controller_name_ = o.name();
        }
    }
    auto req = p.requests();
    for (size_t i = 0; i < req.size(); ++i) requests_.emplace_back(req.name(i), req.milli_at(i));
    for (auto t : p.affinity_terms()) {
        Term term;
        auto copy = [](auto range, std::vector<Requirement>& out) {
            for (auto r : range) {
                Requirement q{std::string(r.key()), std::string(r.op()), {}};
                for (size_t i = 0; i < r.value_count(); ++i) q.values.emplace_back(r.value(i));
                out.push_back(std::move(q));
            }
        };
        copy(t.expressions(), term.expressions);
        copy(t.fields(), term.fields);
        terms_.push_back(std::move(term));
    }
    for (size_t i = 0; i < p.conditions().size(); ++i) {
        auto c = p.conditions()[i];
        conditions_.push_back(
            {std::string(c.type()), std::string(c.status()), std::string(c.reason()), std::string(c.message())});
        transitions_.push_back(p.condition_transition_ms(i));
    }
    for (auto c : p.container_statuses())
        container_statuses_.push_back({static_cast<uint8_t>(c.kind()), static_cast<uint8_t>(c.state()),
                                       c.restart_count(), c.exit_code(), std::string(c.name()),
                                       std::string(c.reason())});
    auto keep = [&](std::string_view s) { return s.empty() ? kd_str{} : kd::to_kd(texts_.emplace_back(s)); };
    auto keep_array = [&](const void* data, size_t bytes) -> const void* {
        const auto* words = static_cast<const uint64_t*>(data);
        return arrays_.emplace_back(words, words + bytes / 8).data();
    };
    schema::copy_bound(bound_, raw, keep, keep_array);
    schema::copy_bound(bound_spec_, *raw.spec, keep, keep_array);
}

const PodDraft& PodCopy::replacement(const std::string& name, const std::string& uid, const std::string& node,
                                     int64_t now_ms) {
    new_name_ = name;
    new_uid_ = uid;
    new_node_ = node;
    PodDraft& d = draft_;
    d.clear();
    d.meta.uid = new_uid_;
    d.meta.ns = ns_;
    d.meta.name = new_name_;
    d.meta.creation_ms = now_ms;
    for (const auto& [k, v] : labels_) d.meta.labels.emplace_back(k, v);
    for (const auto& [k, v] : annotations_) d.meta.annotations.emplace_back(k, v);
    for (const auto& o : owners_) d.meta.owners.push_back({o.api_version, o.kind, o.name, o.uid, o.controller});
    // The template's bound fields; of the pod's own (its status), only where it runs.
    d.bound_spec = bound_spec_;
    d.bound.node_name = kd::to_kd(new_node_);
    // A bound replacement has started (its kubelet set status.startTime) when the scheduler placed it.
    if (!node.empty()) d.bound.start_time_ms = now_ms;
    d.scheduler_name = scheduler_;
    d.priority = priority_;
    d.qos_class = qos_;
    d.phase = node.empty() ? "Pending" : "Running";
    d.containers.resize(1);
    d.containers[0].requests.clear();
    d.containers[0].limits.clear();
    for (const auto& [r, milli] : requests_) d.containers[0].requests.emplace_back(r, milli);
    for (const auto& [k, v] : node_selector_) d.node_selector.emplace_back(k, v);
    d.has_required_affinity = flags_ & KD_POD_HAS_NODE_AFFINITY;
    for (const auto& t : terms_) {
        NodeSelectorTermDraft term;
        for (const auto& r : t.expressions)
            term.expressions.push_back({r.key, r.op, {r.values.begin(), r.values.end()}});
        for (const auto& r : t.fields) term.fields.push_back({r.key, r.op, {r.values.begin(), r.values.end()}});
        d.affinity_terms.push_back(std::move(term));
    }
    d.local_storage = flags_ & KD_POD_LOCAL_STORAGE;
    d.pvc = flags_ & KD_POD_PVC;
    d.ephemeral_volume = flags_ & KD_POD_EPHEMERAL_VOLUME;
    if (node.empty()) {
        d.conditions.push_back(
            {"PodScheduled", "False", "Unschedulable", "no node fits the pod (simulated scheduler)", now_ms});
    } else {
        d.conditions.push_back({"PodScheduled", "True", "", "", now_ms});
        d.conditions.push_back({"Ready", "True", "", "", now_ms});
    }
    return d;
}

const PodDraft& PodCopy::annotated(const std::string& key, const std::string& value) {
    replacement(name_, uid_, node_, creation_ms_);
    draft_.phase = phase_;
    draft_.conditions.clear();
    for (size_t i = 0; i < conditions_.size(); ++i) {
        const auto& c = conditions_[i];
        draft_.conditions.push_back({c[0], c[1], c[2], c[3], transitions_[i]});
    }
    draft_.bound = bound_;
    for (const auto& c : container_statuses_)
        draft_.container_statuses.push_back({c.kind, c.state, c.restart_count, c.exit_code, c.name, c.reason});
    bool replaced = false;
    for (auto& [k, v] : draft_.meta.annotations)
        if (k == key) v = value, replaced = true;
    if (!replaced) draft_.meta.annotations.emplace_back(key, value);
    return draft_;
}

}  // namespace kd::core
