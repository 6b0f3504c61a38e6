// Fuzz target: a profile file's bytes through the loader `kdesched validate` uses — the YAML guard,
// a Koordinator ConfigMap unwrapped, YAML → JSON with positions, the strict decode, defaults, the
// plugin-set merge and validation. A bad profile is a kd::core::Error; anything else is a finding.
#include "config/configuration.hpp"
#include "error.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        kd::core::parse_configuration(std::string(reinterpret_cast<const char*>(data), size), "profile.yaml");
    } catch (const kd::core::Error&) {
    }
    return 0;
}
