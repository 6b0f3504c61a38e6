#include "topology_spread_constraint.hpp"

#include "node_fit.hpp"

#include <kdesched/node_fit.hpp>
#include <kdesched/view_selector.hpp>

namespace kd::plugins::sigs {

namespace {

// Appends one field to an identity string; the separators cannot occur in label keys or values.
void put(std::string& out, std::string_view field) {
    out.append(field).push_back('\x1f');
}

}  // namespace

std::optional<SpreadConstraint> SpreadConstraint::of(const Pod& pod, const TopologySpreadConstraint& c,
                                                     std::string& why) {
    SpreadConstraint out(pod);
    out.max_skew_ = c.max_skew();
    out.topology_key_ = c.topology_key();
    if (c.has_label_selector()) {
        LabelSelector s = label_selector_of(c.match_labels(), c.match_expressions());
        Errors errs;
        s.validate(errs, "labelSelector");
        if (!errs.empty()) {
            why = errs.joined();
            return std::nullopt;
        }
        out.selector_ = std::move(s);
    }
    // matchLabelKeys add the pod's own values of those keys to the selector (the scheduler's
    // rule, which upstream follows); a selector that selects nothing stays so.
    if (out.selector_) {
        KeyValues labels = pod.labels();
        for (size_t i = 0; i < c.match_label_key_count(); ++i) {
            std::string_view key = c.match_label_key(i);
            if (auto v = labels.get(key)) out.key_labels_.emplace_back(std::string(key), std::string(*v));
        }
    }
    // Absent policies: Honor for node affinity, Ignore for taints, as the API defaults them.
    std::string_view affinity = c.node_affinity_policy(), taints = c.node_taints_policy();
    out.honor_affinity_ = affinity.empty() || affinity == "Honor";
    out.honor_taints_ = taints == "Honor";
    out.make_identity();
    return out;
}

bool SpreadConstraint::selects(const Pod& pod) const {
    if (!selector_) return false;
    KeyValues labels = pod.labels();
    for (const auto& [k, v] : key_labels_) {
        auto got = labels.get(k);
        if (!got || *got != v) return false;
    }
    return selector_->matches([&](const std::string& k) { return labels.get(k); });
}

bool SpreadConstraint::includes_every_node() const {
    const bool bound =
        owner_.node_selector().size() > 0 || owner_.has_required_node_affinity() || !owner_.affinity_terms().empty();
    return !(honor_affinity_ && bound) && !honor_taints_;
}

std::optional<std::pair<std::string_view, std::string_view>> SpreadConstraint::required_label() const {
    if (!selector_) return std::nullopt;
    if (!key_labels_.empty()) return std::pair<std::string_view, std::string_view>(key_labels_.front());
    if (!selector_->matchLabels.empty())
        return std::pair<std::string_view, std::string_view>(*selector_->matchLabels.begin());
    for (const auto& r : selector_->matchExpressions)
        if (r.operator_ == "In" && r.values.size() == 1)
            return std::pair<std::string_view, std::string_view>(r.key, r.values[0]);
    return std::nullopt;
}

bool SpreadConstraint::includes(const Node& node) const {
    if (honor_affinity_ && !pod_matches_node_selector(owner_, node)) return false;
    if (honor_taints_ && !tolerates_taints_where(owner_, node, [](const Taint& t) {
            return t.effect() == "NoSchedule" || t.effect() == "NoExecute";
        }))
        return false;
    return true;
}

void SpreadConstraint::make_identity() {
    std::string& id = identity_;
    put(id, std::to_string(max_skew_));
    put(id, topology_key_);
    if (selector_) {
        put(id, "selector");
        for (const auto& [k, v] : selector_->matchLabels) put(id, k), put(id, v);
        for (const auto& r : selector_->matchExpressions) {
            put(id, r.key), put(id, r.operator_);
            for (const auto& v : r.values) put(id, v);
            id.push_back('\x1e');
        }
    }
    id.push_back('\x1d');
    for (const auto& [k, v] : key_labels_) put(id, k), put(id, v);
    id.push_back('\x1d');
    put(id, honor_affinity_ ? "affinity" : "");
    if (honor_affinity_) {
        KeyValues sel = owner_.node_selector();
        for (size_t i = 0; i < sel.size(); ++i) put(id, sel.key(i)), put(id, sel.value(i));
        put(id, owner_.has_required_node_affinity() ? "required" : "");
        for (auto term : owner_.affinity_terms()) {
            for (auto r : term.expressions()) {
                put(id, r.key()), put(id, r.op());
                for (size_t i = 0; i < r.value_count(); ++i) put(id, r.value(i));
                id.push_back('\x1e');
            }
            id.push_back('\x1c');
            for (auto r : term.fields()) {
                put(id, r.key()), put(id, r.op());
                for (size_t i = 0; i < r.value_count(); ++i) put(id, r.value(i));
                id.push_back('\x1e');
            }
            id.push_back('\x1d');
        }
    }
    put(id, honor_taints_ ? "taints" : "");
    if (honor_taints_)
        for (auto t : owner_.tolerations()) put(id, t.key()), put(id, t.op()), put(id, t.value()), put(id, t.effect());
}

}  // namespace kd::plugins::sigs
