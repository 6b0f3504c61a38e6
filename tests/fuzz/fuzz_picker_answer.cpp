// Fuzz target: a Pod Picker service's answer body through the contract check that turns it into
// ranks (JSON shape, only candidates, each once, at least the number requested).
#include "error.hpp"
#include "picker/picker_contract.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::vector<std::string> candidates{"default/web-1", "default/web-2", "batch/job-7",
                                                     "kube-system/dns"};
    try {
        kd::core::picker::rank_answer(std::string_view(reinterpret_cast<const char*>(data), size), candidates, 2,
                                      "pod picker");
    } catch (const kd::core::Error&) {
    }
    return 0;
}
