// The generic store of the small kinds: keyed by UID, iterated in key order, found by other
// fields through a scan that answers the first match in key order.
#include "cluster/store/object_store.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace kd::core;

namespace {

struct Thing {
    std::string uid, name;
    int version = 0;
};

std::vector<std::string> uids(const std::vector<const Thing*>& things) {
    std::vector<std::string> out;
    for (const Thing* t : things) out.push_back(t->uid);
    return out;
}

}  // namespace

TEST_CASE("an ObjectStore adds by UID, replaces on the same UID and iterates in key order", "[model][store]") {
    ObjectStore<Thing> s;
    s.put({"b", "second", 1});
    s.put({"a", "first", 1});
    s.put({"b", "second", 2});
    CHECK(s.size() == 2);
    CHECK(s.keys() == std::vector<std::string>{"a", "b"});
    REQUIRE(s.find("b"));
    CHECK(s.find("b")->version == 2);
    CHECK(s.find("c") == nullptr);
    std::vector<std::string> seen;
    for (const auto& [key, t] : s.all()) seen.push_back(key + "=" + t.name);
    CHECK(seen == std::vector<std::string>{"a=first", "b=second"});
}

TEST_CASE("an ObjectStore erases a key once", "[model][store]") {
    ObjectStore<Thing> s;
    s.put({"a", "x"});
    CHECK(s.erase("a"));
    CHECK_FALSE(s.erase("a"));
    CHECK_FALSE(s.erase("never"));
    CHECK(s.find("a") == nullptr);
    CHECK(s.keys().empty());
}

TEST_CASE("an ObjectStore finds by other fields: the first match in key order, or every match", "[model][store]") {
    ObjectStore<Thing> s;
    s.put({"c", "same"});
    s.put({"a", "same"});
    s.put({"b", "other"});
    auto named = [](std::string_view name) { return [name](const Thing& t) { return t.name == name; }; };
    REQUIRE(s.find_if(named("same")));
    CHECK(s.find_if(named("same"))->uid == "a");
    CHECK(s.find_if(named("none")) == nullptr);
    CHECK(uids(s.select(named("same"))) == std::vector<std::string>{"a", "c"});
    CHECK(s.select(named("none")).empty());
}
