// kd::parse_quantity_milli: exact Kubernetes quantities in milli-units (MilliValue()).
#include <kdesched/quantity.hpp>

#include <catch2/catch.hpp>

#include <optional>
#include <string>

namespace {

struct Vector {
    const char* text;
    std::optional<int64_t> milli;  // nullopt = rejected
};

constexpr int64_t kGi = 1024LL * 1024 * 1024;

const Vector kVectors[] = {
    {"100m", 100},
    {"1.5", 1500},
    {"2Gi", 2 * kGi * 1000},
    {"1e3", 1000000},
    {"500Ki", 500LL * 1024 * 1000},
    {"1k", 1000000},
    {"0.1", 100},
    {"1Mi", 1024LL * 1024 * 1000},
    {"1.5Gi", 3 * kGi / 2 * 1000},
    {"0.5m", 1},           // a finer fraction rounds up to the next milli-unit
    {"1E", std::nullopt},  // 10^18 units = 10^21 milli: does not fit in int64
    {"-1", -1000},
    {"+1", 1000},
    {"12e-3", 12},
    {"1.0000001", 1001},  // 1000.0001m rounds up
    {"0", 0},
    {"-0.5m", -1},  // rounds away from zero, as MilliValue()
    {"1.", 1000},
    {".5", 500},
    {"1n", 1},
    {"1u", 1},
    {"1000u", 1},
    {"1000000n", 1},
    {"1M", 1000000000},
    {"1G", 1000000000000},
    {"1T", 1000000000000000},
    {"1P", 1000000000000000000},
    {"8Pi", 8LL * 1024 * 1024 * 1024 * 1024 * 1024 * 1000},
    {"9Ei", std::nullopt},
    {"1E+2", 100000},
    {"2.5e-1", 250},
    {"0.001Ki", 1024},                              // 1.024 units = 1024m exactly
    {"0.0001Ki", 103},                              // 102.4m rounds up
    {"9223372036854775.807", 9223372036854775807},  // INT64_MAX milli-units exactly
    {"9223372036854775.808", std::nullopt},
    {"1.00000000000000Gi", kGi * 1000},  // a long fraction with a binary suffix still fits
    {"0e99999", 0},
    {"1e-99999", 1},
    // Rejected: bad syntax.
    {"1.2.3", std::nullopt},
    {"Ki", std::nullopt},
    {"1KiB", std::nullopt},
    {"1ki", std::nullopt},
    {"", std::nullopt},
    {" 1", std::nullopt},
    {"1 ", std::nullopt},
    {".", std::nullopt},
    {"1K", std::nullopt},
    {"1e", std::nullopt},
    {"1e+", std::nullopt},
    {"1e3.5", std::nullopt},
    {"0.1mi", std::nullopt},
    {"1i", std::nullopt},
    {"--1", std::nullopt},
    {"1e2147483648", std::nullopt},  // the exponent must be a 32-bit integer
};

}  // namespace

TEST_CASE("quantities parse exactly into milli-units", "[quantity]") {
    for (const Vector& v : kVectors) {
        INFO("quantity \"" << v.text << "\"");
        CHECK(kd::parse_quantity_milli(v.text) == v.milli);
    }
}

TEST_CASE("natural units round whole units away from zero like Quantity.Value()", "[quantity]") {
    CHECK(kd::natural_units("cpu", 1500) == 1500);
    CHECK(kd::natural_units("memory", 1500) == 2);
    CHECK(kd::natural_units("memory", 1000) == 1);
    CHECK(kd::natural_units("memory", -1500) == -2);
    CHECK(kd::natural_units("memory", -1000) == -1);
    CHECK(kd::natural_units("memory", 0) == 0);
}
