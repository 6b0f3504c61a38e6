// The string label selector behind DefaultEvictorArgs.nodeSelector (labels.Parse syntax).
#include <kdesched/selector_string.hpp>

#include <kdesched/testing.hpp>

#include <catch2/catch.hpp>

#include <string>

using kd::StringLabelSelector;
using kd::testing::SnapshotBuilder;

TEST_CASE("selector string: matching", "[selector]") {
    SnapshotBuilder b;
    b.node("n").label("zone", "a").label("tier", "web").label("cores", "16").label("empty", "");
    kd::Snapshot s(b.build());
    kd::KeyValues labels = s.find_node("n")->labels();
    struct Case {
        const char* text;
        bool matches;
    };
    const Case cases[] = {
        {"", true},
        {"   ", true},
        {"zone=a", true},
        {"zone==a", true},
        {"zone = a", true},
        {"zone=b", false},
        {"zone!=b", true},
        {"zone!=a", false},
        {"missing!=a", true},
        {"zone in (a,b)", true},
        {"zone in (b, c)", false},
        {"zone notin (b,c)", true},
        {"zone notin (a)", false},
        {"missing notin (a)", true},
        {"zone", true},
        {"missing", false},
        {"!missing", true},
        {"!zone", false},
        {"zone=a,tier=web", true},
        {"zone=a,tier=db", false},
        {"cores>8", true},
        {"cores<8", false},
        {"cores>16", false},
        {"zone>1", false},  // label not an integer
        {"empty=", true},
        {"empty in ()", true},  // "()" is the set {""}
        {"zone in (a,)", true},
        {"in=x", false},  // `in` is a valid key
        {"zone in (in)", false},
        {"node-role.kubernetes.io/worker", false},
        {"!node-role.kubernetes.io/control-plane,zone", true},
    };
    for (const auto& c : cases) {
        INFO("selector: \"" << c.text << "\"");
        std::string err;
        auto sel = StringLabelSelector::parse(c.text, &err);
        REQUIRE(sel);
        CHECK(err.empty());
        CHECK(sel->matches(labels) == c.matches);
    }
}

TEST_CASE("selector string: syntax errors", "[selector]") {
    struct Case {
        const char* text;
        const char* error;
    };
    const Case cases[] = {
        {"zone in (a", "found 'end of string', expected: ',', ')' or identifier"},
        {"zone in a", "found 'a', expected: '('"},
        {"zone=a,", "found 'end of string', expected: identifier after ','"},
        {",zone", "found ',', expected: !, identifier, or end of string"},
        {"zone=a b", "found 'b', expected: ',' or end of string"},
        {"!zone=a", "found '=', expected: ',' or end of string"},
        {"zone>x", "for '>' and '<' the value must be an integer, got \"x\""},
        {"zone>-1", "invalid label value \"-1\""},
        {"zone=(a)", "found '(', expected: identifier"},
        {"a/b/c=x", "invalid label key \"a/b/c\""},
        {"zone=a!", "found '!', expected: ',' or end of string"},
        {"zone="
         "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
         "invalid label value"},
    };
    for (const auto& c : cases) {
        INFO("selector: \"" << c.text << "\"");
        std::string err;
        CHECK_FALSE(StringLabelSelector::parse(c.text, &err));
        CHECK_THAT(err, Catch::Matchers::Contains(c.error));
    }
}
