// kd::parse's validation (sdk/include/kdesched/decode.hpp): every nested validate() runs at its own
// path, and decoding's and validation's problems come back together.
#include <kdesched/decode.hpp>

#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

struct CheckedRange {
    int64_t min = 0, max = 0;
    template <class V>
    void fields(V& v) {
        v("min", min);
        v("max", max);
    }
    void validate(kd::Errors& errs, const std::string& path) const {
        if (min > max) errs.add(path, "min must not exceed max");
    }
};

// No validate() of its own: its ranges are still validated.
struct CheckedPool {
    std::string name;
    CheckedRange cpu;
    std::optional<CheckedRange> memory;
    template <class V>
    void fields(V& v) {
        v("name", name);
        v("cpu", cpu);
        v("memory", memory);
    }
};

struct CheckedArgs {
    int64_t count = 1;
    std::vector<CheckedPool> pools;
    std::map<std::string, CheckedRange> named;
    template <class V>
    void fields(V& v) {
        v("count", count);
        v("pools", pools);
        v("named", named);
    }
    void validate(kd::Errors& errs, const std::string& path) const {
        if (count < 1) errs.add(kd::field_path(path, "count"), "must be at least 1");
    }
};

std::string validation_problems(const std::string& json) {
    try {
        kd::parse<CheckedArgs>(json);
    } catch (const kd::DecodeError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("validate: nested validate() runs in structs, optionals, lists and maps, each at its own path", "[decode]") {
    CHECK(validation_problems(R"({"count": 0,
                       "pools": [{"name": "a", "cpu": {"min": 1, "max": 2}},
                                 {"name": "b", "cpu": {"min": 3, "max": 2}, "memory": {"min": 5, "max": 4}}],
                       "named": {"x": {"min": 9, "max": 1}}})") ==
          "count: must be at least 1\n"
          "pools[1].cpu: min must not exceed max\n"
          "pools[1].memory: min must not exceed max\n"
          "named.x: min must not exceed max");
    CHECK(validation_problems(R"({"pools": [{"cpu": {"min": 1, "max": 2}}]})").empty());
}

TEST_CASE(
    "validate: decoding and validation problems are reported together, without validating what did not "
    "decode",
    "[decode]") {
    // pools[0].cpu.min has the wrong type: its CheckedRange is not judged (it would compare a default);
    // the other problems still show in the same run.
    CHECK(
        validation_problems(R"({"count": 0, "pools": [{"cpu": {"min": "x", "max": -1}}, {"cpu": {"min": 2, "max": 1}}],
                       "bogus": 1})") ==
        "pools[0].cpu.min: must be an integer, got a string\n"
        "bogus: unknown field (known fields: count, pools, named)\n"
        "count: must be at least 1\n"
        "pools[1].cpu: min must not exceed max");
}
