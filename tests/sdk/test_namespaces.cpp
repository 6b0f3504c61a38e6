// kd::Namespaces (sdk/include/kdesched/namespaces.hpp): decoded from a plugin's args through
// kd::parse, validated as upstream validates it (kubernetes-sigs/descheduler v0.35.1
// pkg/framework/plugins/removeduplicates/validation_test.go and its siblings: include alone and
// exclude alone pass, both fail with one message), and allows() as upstream's pod filter
// (pkg/descheduler/pod/pods.go) reads the lists.
#include <kdesched/decode.hpp>
#include <kdesched/namespaces.hpp>

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

namespace {

struct NamespacesArgs {
    std::optional<kd::Namespaces> namespaces;
    int64_t limit = 0;
    template <class V>
    void fields(V& v) {
        v("namespaces", namespaces);
        v("limit", limit);
    }
};

// The same type deeper down, to see the path follow it.
struct NamespacesProfile {
    std::vector<NamespacesArgs> plugins;
    template <class V>
    void fields(V& v) {
        v("plugins", plugins);
    }
};

template <class T>
std::string namespaces_problems(const std::string& json) {
    try {
        kd::parse<T>(json);
    } catch (const kd::DecodeError& e) {
        return e.what();
    }
    return "";
}

kd::Namespaces namespace_lists(std::vector<std::string> include, std::vector<std::string> exclude) {
    kd::Namespaces n;
    n.include = std::move(include);
    n.exclude = std::move(exclude);
    return n;
}

}  // namespace

TEST_CASE("namespaces: include alone or exclude alone decodes, both are refused at the field's path",
          "[sdk][namespaces]") {
    struct Case {
        const char* name;
        std::string json;
        std::string namespaces_problems;
    };
    const std::vector<Case> cases = {
        {"absent", "{}", ""},
        {"null", R"({"namespaces": null})", ""},
        {"empty object", R"({"namespaces": {}})", ""},
        {"include only", R"({"namespaces": {"include": ["default"]}})", ""},
        {"exclude only", R"({"namespaces": {"exclude": ["kube-system", "monitoring"]}})", ""},
        // Upstream counts entries (len > 0), so two empty lists are not "both set".
        {"both empty", R"({"namespaces": {"include": [], "exclude": []}})", ""},
        {"one empty", R"({"namespaces": {"include": ["default"], "exclude": []}})", ""},
        {"null list", R"({"namespaces": {"include": null, "exclude": ["kube-system"]}})", ""},
        {"both", R"({"namespaces": {"include": ["default"], "exclude": ["kube-system"]}})",
         "namespaces: only one of Include/Exclude namespaces can be set"},
        // Nothing upstream or Koordinator refuses is refused here, an empty name included.
        {"empty name", R"({"namespaces": {"include": [""]}})", ""},
        {"unknown field", R"({"namespaces": {"includes": ["default"]}})",
         "namespaces.includes: unknown field (known fields: include, exclude)"},
        {"not a list", R"({"namespaces": {"exclude": "kube-system"}})",
         "namespaces.exclude: must be a list, got a string"},
        {"not a string", R"({"namespaces": {"include": ["a", 7]}})",
         "namespaces.include[1]: must be a string, got a number"},
        {"not an object", R"({"namespaces": ["default"]})", "namespaces: must be an object, got a list"},
    };
    for (const auto& c : cases) {
        INFO(c.name);
        CHECK(namespaces_problems<NamespacesArgs>(c.json) == c.namespaces_problems);
    }
}

TEST_CASE("namespaces: the lists decode as written", "[sdk][namespaces]") {
    auto args = kd::parse<NamespacesArgs>(R"({"namespaces": {"exclude": ["kube-system", "monitoring"]}, "limit": 2})");
    REQUIRE(args.namespaces);
    CHECK(args.namespaces->include.empty());
    CHECK(args.namespaces->exclude == std::vector<std::string>{"kube-system", "monitoring"});
    CHECK_FALSE(args.namespaces->empty());
    CHECK(args.limit == 2);
    auto none = kd::parse<NamespacesArgs>(R"({"namespaces": {}})");
    REQUIRE(none.namespaces);
    CHECK(none.namespaces->empty());
}

TEST_CASE("namespaces: the problem is reported with the rest, at a nested path", "[sdk][namespaces]") {
    CHECK(namespaces_problems<NamespacesProfile>(R"({"plugins": [{"namespaces": {"include": ["a"]}, "limit": "x"},
                                                  {"namespaces": {"include": ["a"], "exclude": ["b"]}}]})") ==
          "plugins[0].limit: must be an integer, got a string\n"
          "plugins[1].namespaces: only one of Include/Exclude namespaces can be set");
    // A list that did not decode is not judged.
    CHECK(namespaces_problems<NamespacesArgs>(R"({"namespaces": {"include": "a", "exclude": ["b"]}})") ==
          "namespaces.include: must be a list, got a string");
}

TEST_CASE("namespaces: allows() reads include as the only namespaces, exclude as the ones left out",
          "[sdk][namespaces]") {
    const kd::Namespaces every;
    CHECK(every.empty());
    CHECK(every.allows("default"));
    CHECK(every.allows(""));

    auto include = namespace_lists({"default", "team-a"}, {});
    CHECK(include.allows("default"));
    CHECK(include.allows("team-a"));
    CHECK_FALSE(include.allows("kube-system"));
    CHECK_FALSE(include.allows("team"));  // whole names only
    CHECK_FALSE(include.allows("Default"));

    auto exclude = namespace_lists({}, {"kube-system"});
    CHECK_FALSE(exclude.allows("kube-system"));
    CHECK(exclude.allows("default"));
    CHECK(exclude.allows("kube-system-2"));

    // Args that skipped validation: both lists apply, as upstream's pod filter applies both.
    auto both = namespace_lists({"a", "b"}, {"b", "c"});
    CHECK(both.allows("a"));
    CHECK_FALSE(both.allows("b"));
    CHECK_FALSE(both.allows("c"));
    CHECK_FALSE(both.allows("d"));

    // An empty name is just a name no pod has.
    auto empty_name = namespace_lists({""}, {});
    CHECK_FALSE(empty_name.allows("default"));
    CHECK(namespace_lists({}, {""}).allows("default"));
}
