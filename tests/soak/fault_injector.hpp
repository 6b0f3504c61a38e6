// The faults of the soak, on a random, seeded schedule: dropped and stalled watches, 410 on watch
// and list, 429 with Retry-After and 500 on writes, slow lists, a restart of the server with its
// resourceVersions reset, Conflicts on updates. Killing the leader is the soak's own (it owns the
// processes); the injector only draws when.
#pragma once

#include "fake_apiserver.hpp"

#include <map>
#include <random>
#include <string>

namespace kd::soak {

class FaultInjector {
public:
    FaultInjector(kd_test::FakeApiServer& server, uint64_t seed) : server_(server), dice_(seed) {}

    // Injects one fault drawn at random; returns its name.
    std::string inject_one();
    // Stops every fault still pending (rules not yet used up).
    void clear();

    std::mt19937_64& dice() { return dice_; }
    const std::map<std::string, size_t>& injected() const { return injected_; }
    void count(const std::string& fault) { ++injected_[fault]; }

private:
    kd_test::FakeApiServer& server_;
    std::mt19937_64 dice_;
    std::map<std::string, size_t> injected_;
};

}  // namespace kd::soak
