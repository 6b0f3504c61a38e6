// kd::AddressTable / SpecTable / PodTable (sdk/include/kdesched/address_table.hpp): a value per
// record address, filled in once, found again after the table has grown.
#include <kdesched/address_table.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

TEST_CASE("address table: each record gets its value once, and keeps it through growth") {
    std::vector<kd_pod_spec> specs(5000);
    kd::SpecTable<std::string> table(4);  // grows many times on the way to 5000
    for (size_t i = 0; i < specs.size(); ++i) {
        auto [value, fresh] = table.try_emplace(&specs[i]);
        REQUIRE(fresh);
        REQUIRE(value.empty());
        value = "spec-" + std::to_string(i);
    }
    CHECK(table.size() == specs.size());
    for (size_t i = 0; i < specs.size(); ++i) {
        auto [value, fresh] = table.try_emplace(&specs[i]);
        CHECK_FALSE(fresh);
        CHECK(value == "spec-" + std::to_string(i));
        const std::string* found = table.find(&specs[i]);
        REQUIRE(found);
        CHECK(*found == value);
    }
    CHECK(table.size() == specs.size());
    kd_pod_spec other{};
    CHECK(table.find(&other) == nullptr);
}

TEST_CASE("address table: a per-pod flag (bool values) answers as first set") {
    std::vector<kd_pod> pods(100);
    kd::PodTable<bool> allowed;
    for (size_t i = 0; i < pods.size(); ++i) {
        auto [flag, fresh] = allowed.try_emplace(&pods[i]);
        REQUIRE(fresh);
        CHECK_FALSE(flag);  // default-constructed until filled in
        flag = i % 3 == 0;
    }
    for (size_t i = 0; i < pods.size(); ++i) CHECK(*allowed.find(&pods[i]) == (i % 3 == 0));
}
