// Not built: compiled by ctest (tests/sdk/CMakeLists.txt) with KDESCHED_TARGET_API_MINOR 0 or 1 to
// pin that a plugin targeting 1.0 cannot use a 1.1 member that has no fallback, and is told why.
#include <kdesched/plugin.hpp>

struct UsesWorkloads {
    static constexpr const char* kName = "UsesWorkloads";
    static constexpr const char* kVersion = "0.0.1";
    UsesWorkloads(kd::Host&, kd::NoArgs) {}
    void balance(kd::Cycle& cycle) {
        auto snap = cycle.snapshot();
        for (auto pod : snap.pods())
            if (snap.workload_of(pod)) cycle.count_eviction(pod, "success", kName);
    }
};

KDESCHED_PLUGIN(UsesWorkloads)
