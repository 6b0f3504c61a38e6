// A pod built from a pod template (a Reservation's spec.template), owned, so the simulated
// scheduler can place a Reservation with the same fit rules as a pod.
#pragma once

#include "cluster/migration_objects.hpp"

#include <kdesched/abi.h>

#include <deque>
#include <string>
#include <vector>

namespace kd::core {

class TemplatePod {
public:
    TemplatePod(const PodTemplate& t, const std::string& ns, const std::string& name);
    TemplatePod(const TemplatePod&) = delete;
    TemplatePod& operator=(const TemplatePod&) = delete;
    const kd_pod& pod() const { return pod_; }

private:
    kd_str keep(const std::string& s);
    std::deque<std::string> strings_;
    std::vector<kd_resource> requests_;
    std::vector<kd_key_value> selector_;
    std::deque<std::vector<kd_str>> values_;
    std::deque<std::vector<kd_selector_requirement>> requirements_;
    std::vector<kd_node_selector_term> terms_;
    std::vector<kd_toleration> tolerations_;
    kd_pod_spec spec_{};
    kd_pod pod_{};
};

}  // namespace kd::core
