// The Pod Picker in LowNodeLoad (podPicker args): a source node's candidates, in the built-in
// order, go to the user's picker with the number the built-in order needs; its ranks reorder
// them (rank first, then the built-in order). Any failure keeps the built-in order.
#pragma once

#include "pool_state.hpp"
#include "scoring.hpp"

#include <kdesched/plugin.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kd::plugins::lownodeload {

// Logs each picker failure reason once: a warning when it first appears, nothing while the same
// reason repeats (the host counts every request in descheduler_pod_picker_requests_total), and
// one line when the picker answers again.
class PickerFallbackLog {
public:
    void failed(const kd::Cycle& cycle, std::string_view node, const std::string& reason);
    void answered(const kd::Cycle& cycle);

private:
    std::string last_reason_;
};

// Asks the picker about `keys` (one source node's candidates, sorted in the built-in order) for
// `needed` of them and on success reorders `keys` stably by rank. Returns whether it did.
bool rank_by_picker(const kd::Cycle& cycle, const kd::PodPickerArgs& picker, std::string_view node,
                    const PoolState& state, std::vector<PodOrderKey>& keys, size_t needed, PickerFallbackLog& log);

}  // namespace kd::plugins::lownodeload
