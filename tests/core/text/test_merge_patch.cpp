// JSON merge patch (RFC 7386): applying one as the API server does, and computing the one that
// turns an object into another — what kdesched sends instead of a whole PodMigrationJob.
#include "text/json_writer.hpp"
#include "text/merge_patch.hpp"

#include <catch2/catch.hpp>

#include <string>

using kd::core::json::apply_merge_patch;
using kd::core::json::merge_patch_diff;
using kd::core::json::text_of;

namespace {

rapidjson::Document parse(const std::string& text) {
    rapidjson::Document d;
    d.Parse(text.c_str());
    REQUIRE_FALSE(d.HasParseError());
    return d;
}

std::string applied(const std::string& target, const std::string& patch) {
    rapidjson::Document t = parse(target), p = parse(patch);
    apply_merge_patch(t, p, t.GetAllocator());
    return text_of(t);
}

std::string diff(const std::string& from, const std::string& to) {
    rapidjson::Document f = parse(from), t = parse(to), out;
    rapidjson::Value patch = merge_patch_diff(f, t, out.GetAllocator());
    return text_of(patch);
}

}  // namespace

TEST_CASE("merge patch: the examples of RFC 7386, appendix A", "[merge-patch]") {
    CHECK(applied(R"({"a":"b"})", R"({"a":"c"})") == R"({"a":"c"})");
    CHECK(applied(R"({"a":"b"})", R"({"b":"c"})") == R"({"a":"b","b":"c"})");
    CHECK(applied(R"({"a":"b"})", R"({"a":null})") == R"({})");
    CHECK(applied(R"({"a":"b","b":"c"})", R"({"a":null})") == R"({"b":"c"})");
    CHECK(applied(R"({"a":["b"]})", R"({"a":"c"})") == R"({"a":"c"})");
    CHECK(applied(R"({"a":"c"})", R"({"a":["b"]})") == R"({"a":["b"]})");
    CHECK(applied(R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})") == R"({"a":{"b":"d"}})");
    CHECK(applied(R"({"a":[{"b":"c"}]})", R"({"a":[1]})") == R"({"a":[1]})");
    CHECK(applied(R"(["a","b"])", R"(["c","d"])") == R"(["c","d"])");
    CHECK(applied(R"({"a":"b"})", R"(["c"])") == R"(["c"])");
    CHECK(applied(R"({"a":"foo"})", "null") == "null");
    CHECK(applied(R"({"a":"foo"})", R"("bar")") == R"("bar")");
    CHECK(applied(R"({"e":null})", R"({"a":1})") == R"({"e":null,"a":1})");
    CHECK(applied(R"([1,2])", R"({"a":"b","c":null})") == R"({"a":"b"})");
    CHECK(applied(R"({})", R"({"a":{"bb":{"ccc":null}}})") == R"({"a":{"bb":{}}})");
}

TEST_CASE("merge patch: a removed member keeps the order of the others", "[merge-patch]") {
    CHECK(applied(R"({"a":1,"b":2,"c":3})", R"({"b":null,"d":4})") == R"({"a":1,"c":3,"d":4})");
}

TEST_CASE("merge patch diff: only what changed — objects member by member, lists and values whole", "[merge-patch]") {
    CHECK(diff(R"({"a":1})", R"({"a":1})") == "{}");
    CHECK(
        diff(R"({"metadata":{"name":"j","finalizers":["x"],"annotations":{"k":"v"}},"spec":{"ttl":"5m"}})",
             R"({"metadata":{"name":"j","finalizers":["x"],"annotations":{"k":"v","new":"1"}},"spec":{"ttl":"5m"}})") ==
        R"({"metadata":{"annotations":{"new":"1"}}})");
    CHECK(diff(R"({"status":{"conditions":[{"type":"A"}]}})",
               R"({"status":{"conditions":[{"type":"A"},{"type":"B"}]}})") ==
          R"({"status":{"conditions":[{"type":"A"},{"type":"B"}]}})");
    CHECK(diff(R"({"a":{"b":1,"c":2}})", R"({"a":{"b":1}})") == R"({"a":{"c":null}})");
    CHECK(diff(R"({"a":{"b":1}})", R"({"a":"flat"})") == R"({"a":"flat"})");
    CHECK(diff(R"({"a":1,"b":null})", R"({"a":null})") == R"({"a":null})");  // null is absence
}

TEST_CASE("merge patch diff: applying the diff of two objects to the first gives the second", "[merge-patch]") {
    const char* pairs[][2] = {
        {R"({"a":1,"b":{"c":[1,2],"d":"x"}})", R"({"b":{"c":[2],"e":{"f":true}},"g":0})"},
        {R"({})", R"({"metadata":{"labels":{"a":"b"}},"spec":{"x":[{"y":1}]}})"},
        {R"({"metadata":{"labels":{"a":"b"}},"spec":{"x":[{"y":1}]}})", R"({})"},
        {R"({"a":{"b":{"c":{"d":1}}}})", R"({"a":{"b":{"c":{"d":2,"e":3}}}})"},
    };
    for (const auto& [from, to] : pairs) {
        INFO(from << " -> " << to);
        CHECK(applied(from, diff(from, to)) == text_of(parse(to)));
    }
}
