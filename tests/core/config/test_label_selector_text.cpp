// The selector-as-text grammar of a DeschedulerPolicy's nodeSelector (config/label_selector_text.hpp),
// with the cases of k8s.io/apimachinery pkg/labels/selector_test.go (TestSelectorParse,
// TestSelectorMatches) as facts.
#include "config/label_selector_text.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>

using kd::core::parse_label_selector_text;

namespace {

bool text_matches(const std::string& text, const std::map<std::string, std::string>& labels) {
    auto parsed = parse_label_selector_text(text);
    REQUIRE(parsed.problem.empty());
    return parsed.selector.matches_map(labels);
}

std::string text_problem(const std::string& text) {
    return parse_label_selector_text(text).problem;
}

}  // namespace

TEST_CASE("label selector text: every operator becomes the structured requirement", "[selector-text]") {
    auto parsed = parse_label_selector_text("a=1, b==2,c!=3, d in (x, y, x), e notin (z), f, !g");
    REQUIRE(parsed.problem.empty());
    const auto& e = parsed.selector.matchExpressions;
    REQUIRE(e.size() == 7);
    CHECK((e[0].key == "a" && e[0].operator_ == "In" && e[0].values == std::vector<std::string>{"1"}));
    CHECK((e[1].key == "b" && e[1].operator_ == "In" && e[1].values == std::vector<std::string>{"2"}));
    CHECK((e[2].key == "c" && e[2].operator_ == "NotIn" && e[2].values == std::vector<std::string>{"3"}));
    CHECK((e[3].key == "d" && e[3].operator_ == "In" && e[3].values == std::vector<std::string>{"x", "y"}));
    CHECK((e[4].key == "e" && e[4].operator_ == "NotIn" && e[4].values == std::vector<std::string>{"z"}));
    CHECK((e[5].key == "f" && e[5].operator_ == "Exists" && e[5].values.empty()));
    CHECK((e[6].key == "g" && e[6].operator_ == "DoesNotExist"));
    CHECK(parse_label_selector_text("").selector.matchExpressions.empty());
    CHECK(parse_label_selector_text("   ").problem.empty());
}

TEST_CASE("label selector text: matching as apimachinery matches", "[selector-text]") {
    CHECK(text_matches("", {{"x", "y"}}));
    CHECK(text_matches("x=y", {{"x", "y"}}));
    CHECK(text_matches("x=y,z=w", {{"x", "y"}, {"z", "w"}}));
    CHECK(text_matches("x!=y,z!=w", {{"x", "z"}, {"z", "a"}}));
    CHECK(text_matches("notin=in", {{"notin", "in"}}));  // keywords are fine as keys and values
    CHECK(text_matches("x", {{"x", "z"}}));
    CHECK(text_matches("!x", {{"y", "z"}}));
    CHECK(text_matches("x in (y,z)", {{"x", "z"}}));
    CHECK(text_matches("x notin (y,z)", {{"x", "w"}}));
    CHECK(text_matches("x notin (y,z)", {}));  // absent key: notin and != hold
    CHECK(text_matches("x!=y", {}));
    CHECK(text_matches("x=", {{"x", ""}}));
    CHECK_FALSE(text_matches("x=z", {}));
    CHECK_FALSE(text_matches("x=y", {{"x", "z"}}));
    CHECK_FALSE(text_matches("x=y,z=w", {{"x", "w"}, {"z", "w"}}));
    CHECK_FALSE(text_matches("x!=y,z!=w", {{"x", "z"}, {"z", "w"}}));
    CHECK_FALSE(text_matches("x", {{"y", "z"}}));
    CHECK_FALSE(text_matches("!x", {{"x", "z"}}));
    CHECK_FALSE(text_matches("x in (y,z)", {{"x", "w"}}));
    CHECK_FALSE(text_matches("x notin (y,z)", {{"x", "y"}}));
    CHECK_FALSE(text_matches("x in (y,z)", {}));
}

TEST_CASE("label selector text: what apimachinery refuses is refused, saying where", "[selector-text]") {
    // "|" is no special character: "a||y" is one (invalid) value, as apimachinery's lexer reads it.
    CHECK(text_problem("x=a||y=b") ==
          "at character 3 (\"a||y\"): invalid label value: at most 63 characters of "
          "[A-Za-z0-9-_.], starting and ending with a letter or digit");
    CHECK(text_problem("x=a b") == "at character 5 (\"b\"): expected \",\" between requirements");
    CHECK(text_problem("x==a==b") == "at character 5 (\"==\"): expected \",\" between requirements");
    CHECK(text_problem("!x=a") == "at character 3 (\"=\"): expected \",\" between requirements");
    CHECK(text_problem("x in ()") == "at character 7 (\")\"): in and notin need at least one value");
    CHECK(text_problem("x in (a b)") == "at character 9 (\"b\"): expected \",\" or \")\"");
    CHECK(text_problem("x in a") == "at character 6 (\"a\"): expected \"(\" after in/notin");
    CHECK(text_problem("x y") ==
          "at character 3 (\"y\"): expected an operator: =, ==, !=, in or notin (or \",\" after "
          "a key that must exist)");
    CHECK(text_problem(",x") == "at character 1 (\",\"): expected a label key");
    CHECK(text_problem("x=a,") == "at character 5 (the end): expected a label key");
    CHECK(text_problem("-x=a").find("at character 1 (\"-x\"): invalid label key: name \"-x\"") == 0);
    CHECK(text_problem("x=" + std::string(64, 'a')).find("at character 3") == 0);
    CHECK(text_problem("x>1") ==
          "at character 2 (\">\"): the numeric comparisons > and < are not supported in this "
          "selector (use =, !=, in, notin, exists or !exists)");
    CHECK(text_problem("x in (a,)").empty());  // an empty value in the set is a value
}
