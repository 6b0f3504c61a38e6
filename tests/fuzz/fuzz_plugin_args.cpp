// Fuzz target: the args of our plugins through the decoder their `create` hook runs
// (kd::parse<Args>: strict JSON decode, defaults, validation). The first byte picks the plugin,
// the rest is the args JSON. The plugins' args sources are compiled in; a plugin's bad args are a
// kd::DecodeError (the SDK's error, turned into KD_ERROR at the boundary).
#include "defaultevictor/args.hpp"
#include "lownodeload/args.hpp"
#include "migrationcontroller/args.hpp"
#include "sigs/pod_lifetime.hpp"
#include "sigs/remove_failed_pods.hpp"
#include "sigs/too_many_restarts.hpp"

#include <kdesched/decode.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    std::string_view json(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        // 0-2 as before the kubernetes-sigs plugins came, so the seeds keep their plugin.
        switch (data[0] % 6) {
            case 0:
                kd::parse<kd::plugins::defaultevictor::DefaultEvictorArgs>(json);
                break;
            case 1:
                kd::parse<kd::plugins::lownodeload::LowNodeLoadArgs>(json);
                break;
            case 2:
                kd::parse<kd::plugins::migrationcontroller::MigrationControllerArgs>(json);
                break;
            case 3:
                kd::parse<kd::plugins::sigs::PodLifeTimeArgs>(json);
                break;
            case 4:
                kd::parse<kd::plugins::sigs::RemoveFailedPodsArgs>(json);
                break;
            default:
                kd::parse<kd::plugins::sigs::RemovePodsHavingTooManyRestartsArgs>(json);
                break;
        }
    } catch (const kd::DecodeError&) {
    }
    return 0;
}
