// A label selector a snapshot holds as views (a topology spread constraint's or a pod affinity
// term's matchLabels and matchExpressions) as the decodable kd::LabelSelector, which validates and
// matches with metav1.LabelSelector's rules.
//
//     kd::LabelSelector s = kd::label_selector_of(term.match_labels(), term.match_expressions());
//     if (s.matches([&](const std::string& k) { return pod.labels().get(k); })) …
#pragma once

#include <kdesched/label_selector.hpp>
#include <kdesched/view.hpp>

#include <string>

namespace kd {

inline LabelSelector label_selector_of(KeyValues match_labels,
                                       StructRange<SelectorRequirement, kd_selector_requirement> match_expressions) {
    LabelSelector s;
    for (size_t i = 0; i < match_labels.size(); ++i)
        s.matchLabels[std::string(match_labels.key(i))] = std::string(match_labels.value(i));
    for (auto r : match_expressions) {
        LabelSelectorRequirement req{std::string(r.key()), std::string(r.op()), {}};
        for (size_t i = 0; i < r.value_count(); ++i) req.values.emplace_back(r.value(i));
        s.matchExpressions.push_back(std::move(req));
    }
    return s;
}

}  // namespace kd
