#include "simulator/template_pod.hpp"

namespace kd::core {

kd_str TemplatePod::keep(const std::string& s) {
    strings_.push_back(s);
    return kd_str{strings_.back().data(), strings_.back().size()};
}

TemplatePod::TemplatePod(const PodTemplate& t, const std::string& ns, const std::string& name) {
    for (const auto& [r, milli] : t.requests) requests_.push_back({keep(r), milli});
    for (const auto& [k, v] : t.node_selector) selector_.push_back({keep(k), keep(v)});
    auto requirements = [&](const std::vector<PodTemplate::Requirement>& in) {
        auto& out = requirements_.emplace_back();
        for (const auto& r : in) {
            auto& vals = values_.emplace_back();
            for (const auto& v : r.values) vals.push_back(keep(v));
            out.push_back({sizeof(kd_selector_requirement), keep(r.key), keep(r.op), {vals.data(), vals.size()}});
        }
        return &out;
    };
    for (const auto& term : t.affinity_terms) {
        auto* ex = requirements(term.expressions);
        auto* fl = requirements(term.fields);
        terms_.push_back({sizeof(kd_node_selector_term), ex->data(), ex->size(), fl->data(), fl->size()});
    }
    for (const auto& tol : t.tolerations)
        tolerations_.push_back({sizeof(kd_toleration), keep(tol.key), keep(tol.op), keep(tol.value), keep(tol.effect)});
    spec_.struct_size = sizeof(kd_pod_spec);
    spec_.namespace_ = keep(ns);
    spec_.scheduler_name = keep(t.scheduler_name);
    spec_.requests = {requests_.data(), requests_.size()};
    spec_.node_selector = {selector_.data(), selector_.size()};
    spec_.affinity_terms = terms_.data();
    spec_.affinity_term_count = terms_.size();
    spec_.tolerations = tolerations_.data();
    spec_.toleration_count = tolerations_.size();
    pod_.struct_size = sizeof(kd_pod);
    pod_.flags = t.has_required_affinity ? KD_POD_HAS_NODE_AFFINITY : 0;
    pod_.uid = keep(name);
    pod_.name = keep(name);
    pod_.phase = KD_POD_PENDING;
    pod_.spec = &spec_;
}

}  // namespace kd::core
