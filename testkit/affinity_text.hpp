// A pod spec's API 1.6 fields — nodeAffinity's preferred terms, podAffinity's and
// podAntiAffinity's terms, the containers' images — as lines read through the SDK's views: what the
// tests of these bound lists compare across inputs (JSON, YAML, protobuf), the model and copies.
#pragma once

#include <kdesched/view.hpp>

#include <string>
#include <vector>

namespace kd::test {

namespace affinity_text_detail {

inline std::string requirements(kd::NodeSelectorTerm::Requirements rs) {
    std::string t;
    for (auto r : rs) {
        t += std::string(r.key()) + " " + std::string(r.op()) + " (";
        for (size_t i = 0; i < r.value_count(); ++i) t += std::string(r.value(i)) + ",";
        t += "),";
    }
    return t;
}

inline std::string key_values(kd::KeyValues kv) {
    std::string t;
    for (size_t i = 0; i < kv.size(); ++i) t += std::string(kv.key(i)) + "=" + std::string(kv.value(i)) + ",";
    return t;
}

inline std::string term(kd::PodAffinityTerm t) {
    std::string out = "w=" + std::to_string(t.weight()) + " key=" + std::string(t.topology_key()) + " selector=";
    out +=
        t.has_label_selector() ? "{" + key_values(t.match_labels()) + requirements(t.match_expressions()) + "}" : "-";
    out += " namespaces=";
    for (size_t i = 0; i < t.namespace_count(); ++i) out += std::string(t.namespace_(i)) + ",";
    out += " nsSelector=";
    out += t.has_namespace_selector()
               ? "{" + key_values(t.namespace_match_labels()) + requirements(t.namespace_match_expressions()) + "}"
               : "-";
    out += " keys=";
    for (size_t i = 0; i < t.match_label_key_count(); ++i) out += std::string(t.match_label_key(i)) + ",";
    out += " mismatch=";
    for (size_t i = 0; i < t.mismatch_label_key_count(); ++i) out += std::string(t.mismatch_label_key(i)) + ",";
    return out;
}

}  // namespace affinity_text_detail

inline std::vector<std::string> affinity_text(const kd_pod_spec& s) {
    using namespace affinity_text_detail;
    std::vector<std::string> out;
    kd::StructRange<kd::PreferredNodeTerm, kd_preferred_node_term> preferred(s.preferred_node_terms,
                                                                             s.preferred_node_term_count);
    for (auto p : preferred)
        out.push_back("preferNode w=" + std::to_string(p.weight()) + " " + requirements(p.preference().expressions()) +
                      " fields=" + requirements(p.preference().fields()));
    auto terms = [&](const char* what, const kd_pod_affinity_term* items, size_t count) {
        for (auto t : kd::StructRange<kd::PodAffinityTerm, kd_pod_affinity_term>(items, count))
            out.push_back(std::string(what) + " " + term(t));
    };
    terms("affinity", s.pod_affinity_terms, s.pod_affinity_term_count);
    terms("preferAffinity", s.preferred_pod_affinity_terms, s.preferred_pod_affinity_term_count);
    terms("antiAffinity", s.pod_anti_affinity_terms, s.pod_anti_affinity_term_count);
    terms("preferAntiAffinity", s.preferred_pod_anti_affinity_terms, s.preferred_pod_anti_affinity_term_count);
    std::string images = "images=";
    for (size_t i = 0; i < s.container_images.count; ++i)
        images += std::string(s.container_images.items[i].data, s.container_images.items[i].size) + ",";
    out.push_back(images);
    return out;
}

// web-1's of tests/data/protobuf/objects.yaml (the server merged matchLabelKeys into the selector).
inline const std::vector<std::string> kWebAffinity = {
    "preferNode w=80 disk In (ssd,), fields=",
    "preferNode w=5  fields=metadata.name In (kd-node-2,),",
    "affinity w=0 key=topology.kubernetes.io/zone selector={app=cache,} namespaces= nsSelector=- keys= mismatch=",
    "preferAffinity w=30 key=kubernetes.io/hostname selector={app In (db,queue,),} namespaces=kd-fixtures,other, "
    "nsSelector=- keys= mismatch=",
    "antiAffinity w=0 key=kubernetes.io/hostname selector={app=web,} namespaces= nsSelector={team=a,} keys= mismatch=",
    "antiAffinity w=0 key=topology.kubernetes.io/zone selector={} namespaces= nsSelector={} keys= mismatch=",
    "preferAntiAffinity w=100 key=topology.kubernetes.io/zone selector={app=web,tier In (front,),} namespaces= "
    "nsSelector=- keys=tier, mismatch=track,",
    "images=nginx,fluentbit,",
};

}  // namespace kd::test
