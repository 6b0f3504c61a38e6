// A pod spec's topologySpreadConstraints (API 1.5) as one line each, read through the SDK's view:
// what the tests of the bound lists compare across inputs (JSON, YAML, protobuf), the model and
// copies.
#pragma once

#include <kdesched/view.hpp>

#include <string>
#include <vector>

namespace kd::test {

inline std::vector<std::string> spread_text(const kd_pod_spec& s) {
    std::vector<std::string> out;
    kd::StructRange<kd::TopologySpreadConstraint, kd_topology_spread_constraint> all(
        s.topology_spread_constraints, s.topology_spread_constraint_count);
    for (auto c : all) {
        std::string t = std::to_string(c.max_skew()) + " " + std::string(c.topology_key()) + " " +
                        std::string(c.when_unsatisfiable()) + " selector=";
        if (c.has_label_selector()) {
            t += "{";
            for (size_t i = 0; i < c.match_labels().size(); ++i)
                t += std::string(c.match_labels().key(i)) + "=" + std::string(c.match_labels().value(i)) + ",";
            for (auto r : c.match_expressions()) {
                t += std::string(r.key()) + " " + std::string(r.op()) + " (";
                for (size_t i = 0; i < r.value_count(); ++i) t += std::string(r.value(i)) + ",";
                t += "),";
            }
            t += "}";
        } else {
            t += "-";
        }
        t += " minDomains=" + (c.min_domains() ? std::to_string(*c.min_domains()) : std::string("-"));
        t += " affinity=" + std::string(c.node_affinity_policy()) + " taints=" + std::string(c.node_taints_policy());
        t += " keys=";
        for (size_t i = 0; i < c.match_label_key_count(); ++i) t += std::string(c.match_label_key(i)) + ",";
        out.push_back(t);
    }
    return out;
}

// The two constraints of the tests' pod, as spread_text() gives them.
inline const std::vector<std::string> kTwoSpreadConstraints = {
    "1 topology.kubernetes.io/zone DoNotSchedule selector={app=web,tier=front,track In (stable,canary,),legacy "
    "DoesNotExist (),} minDomains=2 affinity=Ignore taints=Honor keys=pod-template-hash,",
    "3 kubernetes.io/hostname ScheduleAnyway selector=- minDomains=- affinity= taints= keys=",
};

}  // namespace kd::test
