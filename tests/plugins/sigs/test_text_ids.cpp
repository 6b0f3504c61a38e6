// TextIds (plugins/sigs/text_ids.hpp): RemoveDuplicates numbers its owner keys and pod identities
// with it; equal text, equal number, in the order first seen, through the table's growth.
#include "text_ids.hpp"

#include <catch2/catch.hpp>

#include <string>

TEST_CASE("text ids: equal text gets the same number, new text the next one, across growth") {
    kd::plugins::sigs::TextIds ids;
    for (size_t i = 0; i < 3000; ++i) REQUIRE(ids.id_of("key-" + std::to_string(i)) == i);
    CHECK(ids.size() == 3000);
    for (size_t i = 0; i < 3000; ++i) CHECK(ids.id_of("key-" + std::to_string(i)) == i);
    // Text differing only in length or an embedded zero is other text.
    CHECK(ids.id_of("") == 3000);
    CHECK(ids.id_of(std::string("key-1\0", 6)) == 3001);
    CHECK(ids.id_of("key-1") == 1);
    CHECK(ids.size() == 3002);
}
