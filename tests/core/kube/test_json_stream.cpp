// LIST bodies and watch streams split as they arrive, whatever the chunk boundaries.
#include "kube/watch/json_stream.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <stdexcept>
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

namespace {

// A random JSON value: nested objects and arrays whose strings hold quotes, runs of backslashes and
// brackets, so that item ends fall anywhere in the splitter's 64-byte blocks.
void random_value(std::mt19937& rng, std::string& out, int depth) {
    auto pick = [&](int n) { return int(rng() % unsigned(n)); };
    auto string = [&] {
        out += '"';
        for (int k = pick(40); k > 0; --k) {
            switch (pick(8)) {
                case 0:
                    out.append(size_t(pick(4)) * 2, '\\');
                    break;  // \\ pairs
                case 1:
                    out += "\\\"";
                    break;
                case 2:
                    out += "{[}]"[pick(4)];
                    break;
                case 3:
                    out += "\\u00e9";
                    break;
                default:
                    out += char('a' + pick(26));
                    break;
            }
        }
        out += '"';
    };
    switch (depth > 6 ? 2 + pick(2) : pick(4)) {
        case 0:
            out += '{';
            for (int k = pick(5); k > 0; --k) {
                string();
                out += ':';
                random_value(rng, out, depth + 1);
                if (k > 1) out += ',';
            }
            out += '}';
            break;
        case 1:
            out += '[';
            for (int k = pick(5); k > 0; --k) {
                random_value(rng, out, depth + 1);
                if (k > 1) out += ", ";
            }
            out += ']';
            break;
        case 2:
            string();
            break;
        default:
            out += std::to_string(rng());
            break;
    }
}

// What a splitter saw of a body fed in pieces of the given sizes (0: byte by byte).
std::string split_record(const std::string& body, std::mt19937* random_chunks) {
    std::string seen;
    ListSplitter s([&](std::string_view item) { seen.append(item).append("\n"); });
    try {
        for (size_t i = 0; i < body.size();) {
            size_t n = random_chunks ? 1 + (*random_chunks)() % 300 : 1;
            s.feed(std::string_view(body).substr(i, n));
            i += n;
        }
    } catch (const std::runtime_error& e) {
        seen += std::string("error: ") + e.what();
    }
    return seen + (s.complete() ? "complete " : "open ") + std::to_string(s.items()) + " " + s.resource_version();
}

}  // namespace

TEST_CASE("list splitter: 64-byte block scan and byte loop agree on any bytes, JSON or not", "[kube][stream]") {
    std::mt19937 rng(20261126);
    const std::string head = R"({"kind":"PodList","metadata":{"resourceVersion":"9"},"items":[)";
    for (int round = 0; round < 400; ++round) {
        std::string body = head;
        for (int k = int(rng() % 6); k > 0; --k) {
            body += '{';
            body += R"("metadata":)";
            random_value(rng, body, 1);
            body += '}';
            if (k > 1) body += ',';
        }
        body += "]}";
        if (round % 2 == 1) {
            // Not JSON: bytes flipped to structure, quotes and backslashes anywhere after the head.
            for (int k = int(rng() % 8); k > 0; --k)
                body[head.size() + rng() % (body.size() - head.size())] = "{}[]\"\\ a"[rng() % 8];
        }
        INFO("body " << body);
        const std::string by_byte = split_record(body, nullptr);
        CHECK(split_record(body, &rng) == by_byte);
        std::string whole;
        ListSplitter s([&](std::string_view item) { whole.append(item).append("\n"); });
        try {
            s.feed(body);
        } catch (const std::runtime_error& e) {
            whole += std::string("error: ") + e.what();
        }
        CHECK(whole + (s.complete() ? "complete " : "open ") + std::to_string(s.items()) + " " + s.resource_version() ==
              by_byte);
        if (round % 2 == 0) CHECK(by_byte.find("complete") != std::string::npos);
    }
}

TEST_CASE("managedFields cut out of an object: middle, first, only member, absent or not in metadata kept",
          "[kube][stream]") {
    auto cut = [](std::string_view object) {
        ObjectPieces p = without_managed_fields(object);
        return std::string(p.before) + std::string(p.after);
    };
    const std::string fields =
        R"([{"manager":"kubelet","fieldsV1":{"f:status":{"f:x":{}}},"time":"2026-11-26T00:00:00Z"}])";
    CHECK(cut(R"({"metadata":{"name":"a","managedFields":)" + fields + R"(,"uid":"u"},"spec":{}})") ==
          R"({"metadata":{"name":"a","uid":"u"},"spec":{}})");
    CHECK(cut(R"({"metadata":{"name":"a", "managedFields" : )" + fields + R"( },"spec":{}})") ==
          R"({"metadata":{"name":"a" },"spec":{}})");
    CHECK(cut(R"({"spec":{"x":1},"metadata":{"managedFields":)" + fields + R"(, "name":"a"}})") ==
          R"({"spec":{"x":1},"metadata":{ "name":"a"}})");
    CHECK(cut(R"({"metadata":{"managedFields":)" + fields + R"(}})") == R"({"metadata":{}})");
    // Values of every shape and length, the 64-byte block scan ending anywhere in them.
    std::mt19937 rng(7);
    for (int round = 0; round < 300; ++round) {
        std::string value;
        random_value(rng, value, 0);
        INFO(value);
        CHECK(cut(R"({"metadata":{"name":"a","managedFields":)" + value + R"(,"uid":"u"}})") ==
              R"({"metadata":{"name":"a","uid":"u"}})");
    }
    // Kept: none there; one outside metadata; the words inside a string; not an object at all.
    for (std::string_view kept :
         {R"({"metadata":{"name":"a"},"spec":{}})", R"({"metadata":{"name":"a"},"spec":{"managedFields":[1]}})",
          R"({"metadata":{"annotations":{"x":"\"managedFields\":[]"}}})", "[1,2]",
          R"({"metadata":{"name":"a","managedFields":[)"}) {
        INFO(kept);
        ObjectPieces p = without_managed_fields(kept);
        CHECK(p.before == kept);
        CHECK(p.after.empty());
    }
}
