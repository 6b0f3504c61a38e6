// JSON nested deeper than kd::kMaxJsonDepth is refused before RapidJSON's recursive reader sees it
// (found by fuzzing the plugin args: 300,000 '[' overflowed the stack).
#include <kdesched/decode.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace {

std::string nested(int levels) {
    return std::string(levels, '[') + std::string(levels, ']');
}

struct Args {
    std::vector<int> counts;
    template <class V>
    void fields(V& v) {
        v("counts", counts);
    }
};

}  // namespace

TEST_CASE("json depth: arrays and objects are counted, brackets inside strings are not", "[decode]") {
    CHECK_FALSE(kd::json_too_deep(nested(kd::kMaxJsonDepth)));
    CHECK(kd::json_too_deep(nested(kd::kMaxJsonDepth + 1)));
    CHECK(kd::json_too_deep(std::string(kd::kMaxJsonDepth + 1, '{')));  // unfinished text too
    CHECK_FALSE(kd::json_too_deep("[\"" + std::string(10'000, '[') + "\"]"));
    CHECK_FALSE(kd::json_too_deep("[\"\\\"" + std::string(10'000, '[') + "\"]"));  // an escaped quote stays inside
}

TEST_CASE("json depth: kd::parse refuses deeper args with one error", "[decode]") {
    try {
        kd::parse<Args>("{\"counts\": " + nested(300'000) + "}");
        FAIL("no error");
    } catch (const kd::DecodeError& e) {
        CHECK(std::string(e.what()) == "JSON nested more than 512 levels deep (the limit)");
    }
    CHECK_THROWS_WITH(kd::parse<Args>("{\"counts\": " + nested(3) + "}"), Catch::Contains("counts[0]: must be"));
}
