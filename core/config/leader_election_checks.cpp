#include "config/leader_election_checks.hpp"

namespace kd::core {

std::vector<std::pair<std::string, std::string>> leader_election_problems(const LeaderElection& le) {
    std::vector<std::pair<std::string, std::string>> out;
    if (!le.leaderElect) return out;
    bool positive = true;
    for (auto [name, d] : {std::pair{"leaseDuration", le.leaseDuration}, std::pair{"renewDeadline", le.renewDeadline},
                           std::pair{"retryPeriod", le.retryPeriod}}) {
        if (d.value.count() < 0) {
            out.emplace_back(name, "must be greater than zero");
            positive = false;
        }
    }
    if (positive && le.leaseDuration <= le.renewDeadline)
        out.emplace_back("leaseDuration", "must be greater than renewDeadline (" +
                                              kd::format_duration(le.leaseDuration) +
                                              " <= " + kd::format_duration(le.renewDeadline) + ")");
    if (positive && le.renewDeadline.value.count() * 10 <= le.retryPeriod.value.count() * 12)
        out.emplace_back("renewDeadline", "must be greater than 1.2 × retryPeriod (" +
                                              kd::format_duration(le.renewDeadline) + " vs retryPeriod " +
                                              kd::format_duration(le.retryPeriod) + ")");
    if (le.resourceLock != "leases")
        out.emplace_back("resourceLock",
                         "unsupported lock type \"" + le.resourceLock + "\" (only \"leases\" is supported)");
    return out;
}

}  // namespace kd::core
