// One Pod Picker request end to end (the host side of kd_host.pick_pods): the podPicker block
// resolved, the contract's request POSTed with retries, the answer checked and ranked.
#pragma once

#include "picker/picker_config.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kd::core::picker {

struct PickOutcome {
    std::vector<uint8_t> ranks;  // one per candidate on success
    std::string error;           // what went wrong, where, what to do ("" on success)
    std::string result;          // the metric label: "success" or a PickFailure's label
    bool ok() const { return error.empty(); }
};

// Never throws. A connection failure, a timeout or a 5xx answer is tried again, up to
// maxRetries more times; a config or Secret problem, another status or an invalid answer is not.
// `candidates`: "<namespace>/<name>" strings; `requested` between 1 and their number.
PickOutcome pick_pods(std::string_view picker_json, const std::vector<std::string>& candidates, uint32_t requested,
                      const SecretReader& secrets);

}  // namespace kd::core::picker
