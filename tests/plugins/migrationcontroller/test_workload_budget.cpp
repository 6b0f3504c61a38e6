// GetMaxUnavailable / GetMaxMigrating (Koordinator's pkg/descheduler/controllers/migration/util)
// and the token bucket the limits are built on.
#include "token_bucket.hpp"
#include "workload_budget.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

using kd::plugins::migrationcontroller::max_unavailable;
using kd::plugins::migrationcontroller::TokenBucket;

namespace {

std::optional<kd::IntOrString> pct(const std::string& s) {
    return kd::IntOrString{true, 0, s};
}
std::optional<kd::IntOrString> num(int32_t v) {
    return kd::IntOrString{false, v, {}};
}

}  // namespace

TEST_CASE("max_unavailable: the seed's table", "[budget]") {
    struct Case {
        int32_t replicas;
        std::optional<kd::IntOrString> value;
        int32_t want;
    };
    std::vector<Case> cases = {
        {6, pct("80%"), 4},    {6, pct("150%"), 6},     {6, num(5), 5},       {6, num(7), 6},
        {6, std::nullopt, 2},  {50, pct("0%"), 1},      {6, num(0), 1},       {11, std::nullopt, 1},
        {3, std::nullopt, 1},  {100, std::nullopt, 10}, {0, std::nullopt, 0}, {4, std::nullopt, 2},
        {10, std::nullopt, 2}, {1, std::nullopt, 1},    {7, pct("50%"), 3},   {3, pct("10%"), 1},
    };
    for (const auto& c : cases) {
        std::string name = std::to_string(c.replicas) + "," + (c.value ? c.value->text() : "nil");
        SECTION(name) {
            CHECK(max_unavailable(c.replicas, c.value) == c.want);
        }
    }
}

TEST_CASE("token bucket: starts full, refills at its rate up to burst", "[budget]") {
    TokenBucket b(1.0, 2.0, 0);
    CHECK(b.take(0));
    CHECK(b.take(0));
    CHECK_FALSE(b.take(0));
    CHECK_FALSE(b.take(999));
    CHECK(b.take(2000));
    CHECK(b.tokens(10'000) == 2.0);  // capped at burst

    TokenBucket lazy(0.5, 1.0);  // the clock starts at the first use
    CHECK(lazy.take(5000));
    CHECK_FALSE(lazy.take(6000));
    CHECK(lazy.take(7000));
}
