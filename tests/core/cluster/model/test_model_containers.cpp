// The model's building blocks: the fast hash, the slot store and index, and the flat maps.
#include "cluster/byte_set.hpp"
#include "cluster/content_key.hpp"
#include "cluster/slot_index.hpp"
#include "cluster/string_pool.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

using namespace kd::core;

TEST_CASE("fast_hash: every byte and the length count, whatever the length", "[model][hash]") {
    std::string text(48, 'x');
    std::set<uint64_t> seen;
    for (size_t n = 0; n <= text.size(); ++n) seen.insert(fast_hash(text.data(), n));
    CHECK(seen.size() == text.size() + 1);  // "", "x", "xx", … all differ
    for (size_t n = 1; n <= text.size(); ++n) {
        for (size_t i = 0; i < n; ++i) {
            std::string changed = text.substr(0, n);
            changed[i] = 'y';
            INFO("length " << n << ", byte " << i);
            CHECK(fast_hash(changed.data(), n) != fast_hash(text.data(), n));
        }
    }
    CHECK(fast_hash(nullptr, 0) == fast_hash("", 0));
}

TEST_CASE("ContentKey: the order and grouping of the parts matter", "[model][hash]") {
    auto key = [](auto&&... parts) {
        ContentKey k;
        (k.add(parts), ...);
        return k;
    };
    CHECK(key("a", "b") == key("a", "b"));
    CHECK_FALSE(key("a", "b") == key("b", "a"));
    CHECK_FALSE(ContentKey().add("a", "b") == key("a", "b"));
    CHECK_FALSE(ContentKey().add("ab", "") == ContentKey().add("a", "b"));
}

TEST_CASE("ContentMap finds what was inserted, across growth", "[model]") {
    ContentMap<int> map;
    auto key = [](int i) { return ContentKey().add_word(static_cast<uint64_t>(i)); };
    for (int i = 0; i < 1000; ++i) {
        REQUIRE(map.find(key(i)) == nullptr);
        map.insert(key(i), i * 2);
    }
    for (int i = 0; i < 1000; ++i) {
        REQUIRE(map.find(key(i)));
        CHECK(*map.find(key(i)) == i * 2);
    }
    CHECK(map.find(key(1000)) == nullptr);
}

TEST_CASE("InternedMap: keyed by address, in insertion order, the empty key included", "[model]") {
    StringPool pool;
    InternedMap<std::vector<int>> map;
    std::vector<std::string_view> keys;
    for (int i = 0; i < 300; ++i) keys.push_back(view(pool.intern("key-" + std::to_string(i))));
    for (int i = 0; i < 300; ++i) map[keys[i]].push_back(i);
    map[{}].push_back(-1);
    map[keys[7]].push_back(7);
    CHECK(map.size() == 301);
    REQUIRE(map.find(keys[7]));
    CHECK(*map.find(keys[7]) == std::vector<int>{7, 7});
    REQUIRE(map.find({}));
    CHECK(*map.find({}) == std::vector<int>{-1});
    std::string same_text = "key-7";  // equal text at another address is another key
    CHECK(map.find(same_text) == nullptr);
    int i = 0;
    for (const auto& [key, values] : map) {
        if (i < 300) CHECK(key.data() == keys[i].data());
        ++i;
    }
}

TEST_CASE("SlotStore: elements stay where they are as it grows", "[model]") {
    SlotStore<std::pair<int, int>> store;
    std::vector<const std::pair<int, int>*> addresses;
    for (int i = 0; i < 1000; ++i) {
        auto& e = store.emplace_back();
        CHECK(e == std::pair<int, int>{0, 0});  // value-initialized
        e.first = i;
        addresses.push_back(&e);
    }
    REQUIRE(store.size() == 1000);
    int i = 0;
    for (const auto& e : store) {
        CHECK(&e == addresses[i]);
        CHECK(e.first == i++);
    }
    CHECK(&store[999] == addresses[999]);
}

TEST_CASE("SlotIndex: keys whose hashes collide, in part or whole, stay apart", "[model]") {
    // Keys are slot numbers; the hash is chosen to collide: the same table position for all, and
    // the same hash bits in the entries (the tag) for every other one.
    std::vector<bool> live;
    auto hash = [](uint32_t s) -> size_t { return (s % 2 ? 0xAB00000000000000ULL : 0) | 5; };
    SlotIndex index(
        hash, [&] { return static_cast<uint32_t>(live.size()); }, [&](uint32_t s) { return bool(live[s]); });
    auto find = [&](uint32_t key) { return index.find(hash(key), [&](uint32_t s) { return s == key; }); };
    for (uint32_t s = 0; s < 200; ++s) {
        live.push_back(true);
        index.insert(hash(s), s);
    }
    for (uint32_t s = 0; s < 200; ++s) CHECK(find(s) == s);
    for (uint32_t s = 0; s < 200; s += 3) {
        index.erase(hash(s), s);
        live[s] = false;
    }
    CHECK(index.size() == 200 - 67);
    for (uint32_t s = 0; s < 200; ++s) CHECK(find(s) == (s % 3 == 0 ? SlotIndex::kNone : s));
    CHECK(index.candidate(hash(1)) == 1);  // the first entry with the hash's bits, unverified
}

TEST_CASE("SlotIndex refuses a slot number it cannot hold", "[model]") {
    SlotIndex index([](uint32_t) { return size_t{0}; }, [] { return 0u; }, [](uint32_t) { return false; });
    CHECK_THROWS_AS(index.insert(1, SlotIndex::kMaxSlot + 1), std::length_error);
    index.insert(1, SlotIndex::kMaxSlot);
    CHECK(index.find(1, [](uint32_t) { return true; }) == SlotIndex::kMaxSlot);
}

TEST_CASE("TextArena keeps strings longer than a chunk", "[model]") {
    TextArena arena;
    std::string big(200 << 10, 'b');
    std::string_view small = arena.copy("small"), copied = arena.copy(big), after = arena.copy("after");
    CHECK(small == "small");
    CHECK(copied == big);
    CHECK(after == "after");
    CHECK(arena.bytes() == big.size() + 10);
}
