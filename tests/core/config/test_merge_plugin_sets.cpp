// koord's v1alpha2 plugin-set merge: a profile's plugin set with the default set, table-driven,
// then the same rule seen through a whole profile.
#include "config/merge_plugin_sets.hpp"

#include "support.hpp"

using namespace kd::core;
using kd::core::test::kHeader;
using kd::core::test::names;

namespace {

std::vector<PluginRef> refs(const std::vector<std::string>& names, const std::string& file) {
    std::vector<PluginRef> out;
    for (size_t i = 0; i < names.size(); ++i)
        out.push_back({names[i], SourceLocation{file, static_cast<int>(i + 1), 1}});
    return out;
}

// "name@file:line" (line = index in the input list): shows which entry, default or user, survived.
std::vector<std::string> origins(const std::vector<PluginRef>& refs) {
    std::vector<std::string> out;
    for (const auto& r : refs) out.push_back(r.name + "@" + r.where.file + ":" + std::to_string(r.where.line));
    return out;
}

// "name@file:line:column".
std::vector<std::string> described(const std::vector<PluginRef>& refs) {
    std::vector<std::string> out;
    for (const auto& r : refs) out.push_back(r.name + "@" + r.where.text());
    return out;
}

}  // namespace

TEST_CASE("merge_plugin_set follows Koordinator's mergePluginSet") {
    struct Case {
        const char* what;
        std::vector<std::string> defaults, enabled, disabled, expected;
    };
    // Defaults come from "d" and user entries from "u"; the number is the 1-based index in that list.
    auto c = GENERATE(values<Case>({
        {"no user set keeps the defaults", {"A", "B"}, {}, {}, {"A@d:1", "B@d:2"}},
        {"disabled defaults are dropped", {"A", "B", "C"}, {}, {"B"}, {"A@d:1", "C@d:3"}},
        {"disabling an unknown name changes nothing", {"A"}, {}, {"Z"}, {"A@d:1"}},
        {"* drops every default", {"A", "B"}, {}, {"*"}, {}},
        {"* with enabled keeps only the user's, in order", {"A", "B"}, {"C", "A"}, {"*"}, {"C@u:1", "A@u:2"}},
        {"an enabled default is replaced in place, keeping D's position",
         {"A", "B", "C"},
         {"C", "B"},
         {},
         {"A@d:1", "B@u:2", "C@u:1"}},
        {"extra enabled entries are appended in user order", {"A"}, {"Y", "X"}, {}, {"A@d:1", "Y@u:1", "X@u:2"}},
        {"replacement and appending mix", {"A", "B"}, {"X", "B", "Y"}, {}, {"A@d:1", "B@u:2", "X@u:1", "Y@u:3"}},
        {"disabled and re-enabled moves to the end", {"A", "B"}, {"A"}, {"A"}, {"B@d:2", "A@u:1"}},
        {"duplicates are kept", {}, {"X", "X"}, {}, {"X@u:1", "X@u:2"}},
        {"a duplicated default: the last user entry replaces, the first is appended",
         {"A", "B"},
         {"A", "A"},
         {},
         {"A@u:2", "B@d:2", "A@u:1"}},
        {"empty defaults just take the user's list", {}, {"A", "B"}, {"A"}, {"A@u:1", "B@u:2"}},
    }));
    CAPTURE(c.what);
    UserPluginSet user{refs(c.enabled, "u"), c.disabled};
    CHECK(origins(merge_plugin_set(refs(c.defaults, "d"), user)) == c.expected);
}

TEST_CASE("default_plugin_sets: MigrationController evicts and filters, nothing deschedules or balances") {
    PluginSets d = default_plugin_sets();
    CHECK(d.deschedule.empty());
    CHECK(d.balance.empty());
    CHECK(names(d.evict) == std::vector<std::string>{"MigrationController"});
    CHECK(names(d.filter) == std::vector<std::string>{"MigrationController"});
}

TEST_CASE("a profile's plugin sets are merged per extension point, with the user's locations") {
    DeschedulerConfiguration cfg = parse_configuration(kHeader + R"(profiles:
- name: p
  plugins:
    deschedule:
      enabled:
      - name: RemovePodsViolatingNodeTaints
    balance:
      enabled:
      - name: LowNodeLoad
      - name: LowNodeLoad
    evict:
      disabled:
      - name: "*"
      enabled:
      - name: DefaultEvictor
    filter:
      disabled:
      - name: MigrationController
      enabled:
      - name: DefaultEvictor
)",
                                                       "test.yaml");
    const Profile& p = cfg.profiles.at(0);
    CHECK(described(p.plugins.deschedule) == std::vector<std::string>{"RemovePodsViolatingNodeTaints@test.yaml:8:9"});
    CHECK(described(p.plugins.balance) ==
          std::vector<std::string>{"LowNodeLoad@test.yaml:11:9", "LowNodeLoad@test.yaml:12:9"});
    CHECK(described(p.plugins.evict) == std::vector<std::string>{"DefaultEvictor@test.yaml:17:9"});
    CHECK(described(p.plugins.filter) == std::vector<std::string>{"DefaultEvictor@test.yaml:22:9"});
}

TEST_CASE("defaults that survive a merge point at the profile") {
    DeschedulerConfiguration cfg = parse_configuration(kHeader +
                                                           "profiles:\n- name: p\n  plugins:\n    filter:\n"
                                                           "      enabled:\n      - name: MigrationController\n",
                                                       "test.yaml");
    const Profile& p = cfg.profiles.at(0);
    CHECK(described(p.plugins.evict) == std::vector<std::string>{"MigrationController@test.yaml:4:3"});
    CHECK(described(p.plugins.filter) == std::vector<std::string>{"MigrationController@test.yaml:8:9"});
}

TEST_CASE("plugin entries without a name are reported") {
    CHECK(kd::core::test::text_errors(kHeader + "profiles:\n- name: p\n  plugins:\n    evict:\n      disabled:\n"
                                                "      - name: \"\"\n      enabled:\n      - {}\n") ==
          std::vector<std::string>{
              "test.yaml: invalid DeschedulerConfiguration, 2 problems:",
              "test.yaml:8:15: profiles[0].plugins.evict.disabled[0].name: required: the plugin's name",
              "test.yaml:10:9: profiles[0].plugins.evict.enabled[0].name: required: the plugin's name",
          });
}
