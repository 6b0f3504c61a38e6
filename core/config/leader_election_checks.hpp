// What client-go's leader elector refuses at start-up (leaderelection.NewLeaderElector), checked
// before: for the configuration's leaderElection and for `kdesched run`'s --leader-elect-* flags.
#pragma once

#include "config/configuration.hpp"

#include <string>
#include <utility>
#include <vector>

namespace kd::core {

// Each problem as (field, message): the field is leaseDuration, renewDeadline, retryPeriod or
// resourceLock, for the caller to name as it was written. None when leader election is off.
std::vector<std::pair<std::string, std::string>> leader_election_problems(const LeaderElection& le);

}  // namespace kd::core
