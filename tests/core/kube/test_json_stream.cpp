// LIST bodies and watch streams split as they arrive, whatever the chunk boundaries.
#include "kube/json_stream.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace kd::core::kube;

namespace {

const std::string kList = R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"42",)"
                          R"("continue":"eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NDJ9"},"items":[)"
                          R"({"metadata":{"name":"a","annotations":{"x":"a \"quoted\" {brace} [x] \\"}}},)"
                          R"( {"metadata":{"name":"b"},"spec":{"containers":[{"name":"c"}]}} ]})";

std::vector<std::string> split_list(const std::string& body, size_t chunk, ListSplitter** out = nullptr) {
    std::vector<std::string> items;
    static ListSplitter* last = nullptr;
    auto* s = new ListSplitter([&](std::string_view item) { items.emplace_back(item); });
    for (size_t i = 0; i < body.size(); i += chunk) s->feed(std::string_view(body).substr(i, chunk));
    delete last;
    last = s;
    if (out) *out = s;
    return items;
}

}  // namespace

TEST_CASE("list splitter: items whole, metadata read, at any chunk size", "[kube][stream]") {
    for (size_t chunk : {size_t(1), size_t(3), size_t(7), size_t(64), kList.size()}) {
        INFO("chunk " << chunk);
        ListSplitter* s = nullptr;
        auto items = split_list(kList, chunk, &s);
        REQUIRE(items.size() == 2);
        CHECK(items[0] == R"({"metadata":{"name":"a","annotations":{"x":"a \"quoted\" {brace} [x] \\"}}})");
        CHECK(items[1] == R"({"metadata":{"name":"b"},"spec":{"containers":[{"name":"c"}]}})");
        CHECK(s->complete());
        CHECK(s->kind() == "PodList");
        CHECK(s->resource_version() == "42");
        CHECK(s->continue_token() == "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NDJ9");
        CHECK(s->items() == 2);
    }
}

TEST_CASE("list splitter: an empty list, a cut body, and something that is not a list", "[kube][stream]") {
    ListSplitter* s = nullptr;
    CHECK(split_list(R"({"kind":"NodeList","metadata":{"resourceVersion":"7"},"items":[]})", 5, &s).empty());
    CHECK(s->complete());
    CHECK(s->resource_version() == "7");
    CHECK(split_list(kList.substr(0, kList.find(R"( {"metadata":{"name":"b")")), 10, &s).size() == 1);
    CHECK_FALSE(s->complete());
    ListSplitter bad([](std::string_view) {});
    CHECK_THROWS_WITH(bad.feed("[1,2]"), Catch::Contains("a list instead of an object"));
    CHECK_THROWS_WITH(ListSplitter([](std::string_view) {}).feed("<html>"), Catch::Contains("no JSON object"));
}

TEST_CASE("watch splitter: events across chunks, several in one chunk, with their resourceVersion", "[kube][stream]") {
    std::string stream =
        R"({"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"10"}}})"
        "\n"
        R"({"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"12"}}})"
        "\n"
        R"({"object":{"metadata":{"name":"b","uid":"u","resourceVersion":"13"},"spec":{"x":"}\n"}},"type":"DELETED"})"
        "\n"
        R"({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","code":410,"reason":"Expired"}})"
        "\n";
    for (size_t chunk : {size_t(1), size_t(5), size_t(100), stream.size()}) {
        INFO("chunk " << chunk);
        std::vector<std::string> seen;
        WatchSplitter w([&](const WatchEvent& e) {
            seen.push_back(std::string(e.type) + " " + std::string(e.resource_version) + " " +
                           std::string(e.object.substr(0, 12)));
        });
        for (size_t i = 0; i < stream.size(); i += chunk) w.feed(std::string_view(stream).substr(i, chunk));
        CHECK(seen == std::vector<std::string>{"ADDED 10 {\"kind\":\"Pod", "BOOKMARK 12 {\"kind\":\"Pod",
                                               "DELETED 13 {\"metadata\":", "ERROR  {\"kind\":\"Sta"});
    }
    WatchSplitter w([](const WatchEvent&) {});
    CHECK_THROWS_WITH(w.feed("{\"type\":\"ADDED\"}\n"), Catch::Contains("not {\"type\""));
}

TEST_CASE("stream splitters: an object past kMaxObjectBytes is refused, not buffered without end", "[kube][stream]") {
    const std::string mib(1u << 20, ' ');
    WatchSplitter w([](const WatchEvent&) {});
    w.feed(R"({"type":"ADDED","object":{"x":")");
    CHECK_THROWS_WITH(
        [&] {
            for (size_t i = 0; i <= kMaxObjectBytes >> 20; ++i) w.feed(mib);
        }(),
        "a watch event of more than 67108864 bytes (no end of line)");
    ListSplitter l([](std::string_view) {});
    l.feed(R"({"kind":"PodList","items":[{"x":")");
    CHECK_THROWS_WITH(
        [&] {
            for (size_t i = 0; i <= kMaxObjectBytes >> 20; ++i) l.feed(mib);
        }(),
        Catch::StartsWith("the LIST body is not a Kubernetes list: an item larger than 64 MiB at byte"));
}
