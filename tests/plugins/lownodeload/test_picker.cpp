// The Pod Picker in LowNodeLoad (podPicker): who is asked about what, the re-ranking, the cap at
// what the built-in order would evict, every fallback, and the args.
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace lnl_test;
using kd::testing::PickAnswer;
using kd::testing::RecordedPick;

namespace {

const std::string kPicker = R"({"http":{"host":"picker.shop","port":8080,"path":"/pick"},"timeoutSeconds":2})";

std::string args_with_picker() {
    return kArgs.substr(0, kArgs.rfind('}')) + R"(, "podPicker": )" + kPicker + "}";
}

// n1 (10 cpu, high 70 %): a 3 cpu, b 2, c 2, d 1 and `system` cpu of its own; n2 (40 cpu) is
// empty, with room for all of them. The built-in order puts first the pod whose usage is closest
// above the node's excess over 7 cpu (the loadaware pod order), ties in snapshot order.
Cluster hot_node(const std::string& system = "0") {
    Cluster c;
    c.node("n1");
    c.metric("n1").system_usage("cpu", system);
    c.pod("n1", "a", "3");
    c.pod("n1", "b", "2");
    c.pod("n1", "c", "2");
    c.pod("n1", "d", "1");
    c.node("n2", "40");
    return c;
}

PickAnswer chosen(std::vector<std::string> names, std::vector<std::string> tied = {}) {
    return PickAnswer{std::move(names), std::move(tied), ""};
}

}  // namespace

TEST_CASE("picker: asked with the candidates in the built-in order and the number it needs — its choice goes first",
          "[picker]") {
    Cluster c = hot_node();  // 80 %: the built-in order d, b, c, a balances it with d alone: 1 of 4 needed
    FakeHost host;
    host.on_pick_pods = [](const RecordedPick&) { return chosen({"default/a"}); };
    host.instantiate<LowNodeLoad>(args_with_picker()).balance(c.at(c.b.now_ms()));

    REQUIRE(host.picks().size() == 1);
    CHECK(host.picks()[0].candidates == std::vector<std::string>{"default/d", "default/b", "default/c", "default/a"});
    CHECK(host.picks()[0].requested == 1);
    CHECK(host.picks()[0].picker_json == kPicker);
    CHECK(requested(host) == std::vector<std::string>{"default/a"});  // 50 % left
}

TEST_CASE("picker: tied pods go after chosen ones, ties and the unranked rest in the built-in order", "[picker]") {
    Cluster c = hot_node("1");  // 90 %: built-in order b, c, a, d; b alone balances it
    FakeHost host;
    host.on_pick_pods = [](const RecordedPick&) { return chosen({}, {"default/d", "default/c"}); };
    host.instantiate<LowNodeLoad>(args_with_picker()).balance(c.at(c.b.now_ms()));
    REQUIRE(host.picks().size() == 1);
    CHECK(host.picks()[0].candidates == std::vector<std::string>{"default/b", "default/c", "default/a", "default/d"});
    // Order c, d (tied, in the built-in order whatever the answer's order), then b, a: c leaves 70 %.
    CHECK(requested(host) == std::vector<std::string>{"default/c"});
}

TEST_CASE("picker: never more evictions than the built-in order needs, even if the node stays over", "[picker]") {
    Cluster c = hot_node("1.5");  // 95 %: built-in order a, b, c, d; a alone brings it to 65 %
    FakeHost host;
    host.on_pick_pods = [](const RecordedPick&) { return chosen({"default/d"}); };
    host.instantiate<LowNodeLoad>(args_with_picker()).balance(c.at(c.b.now_ms()));
    CHECK(requested(host) == std::vector<std::string>{"default/d"});  // 85 % left, but the cap is 1
    for (const char* pod : {"default/a", "default/b", "default/c"})
        CHECK(std::count(host.reports().begin(), host.reports().end(),
                         "pod " + std::string(pod) + " skipped=PickerLimit") == 1);
}

TEST_CASE("picker: pods the built-in filters reject are never sent, and naming one falls back", "[picker]") {
    Cluster c = hot_node();
    FakeHost host;
    host.on_filter = [](const kd::Pod& p) {
        return p.name() == "c" ? kd::Verdict::reject("Protected") : kd::Verdict::allow();
    };
    host.on_pick_pods = [](const RecordedPick&) { return chosen({"default/c"}); };
    host.instantiate<LowNodeLoad>(args_with_picker()).balance(c.at(c.b.now_ms()));
    REQUIRE(host.picks().size() == 1);
    CHECK(host.picks()[0].candidates == std::vector<std::string>{"default/d", "default/b", "default/a"});
    CHECK(requested(host) == std::vector<std::string>{"default/d"});
    auto warned = logs_with(host, "Pod picker failed");
    REQUIRE(warned.size() == 1);
    CHECK(warned[0] ==
          "Pod picker failed, evicting in the built-in order node=\"n1\" reason=\"answer names \"default/c\", "
          "which is not a candidate\" (repeats of this reason are counted, not logged)");
}

TEST_CASE("picker: not asked when every candidate is needed anyway, nor without podPicker", "[picker]") {
    SECTION("one candidate") {
        Cluster c;
        c.node("n1");
        c.pod("n1", "big", "8");
        c.node("n2", "40");
        FakeHost host;
        host.instantiate<LowNodeLoad>(args_with_picker()).balance(c.at(c.b.now_ms()));
        CHECK(host.picks().empty());
        CHECK(requested(host) == std::vector<std::string>{"default/big"});
    }
    SECTION("every candidate needed: two 1-cpu pods on a node at 85 %") {
        Cluster c;
        c.node("n1");
        c.metric("n1").system_usage("cpu", "6.5");
        c.pods("n1", "p", 2, "1");
        c.node("n2", "40");
        FakeHost host;
        host.instantiate<LowNodeLoad>(args_with_picker()).balance(c.at(c.b.now_ms()));
        CHECK(host.picks().empty());
        CHECK(requested(host) == std::vector<std::string>{"default/p1", "default/p2"});  // 85 % → 75 % → 65 %
    }
    SECTION("no podPicker") {
        Cluster c = hot_node();
        FakeHost host;
        host.instantiate<LowNodeLoad>(kArgs).balance(c.at(c.b.now_ms()));
        CHECK(host.picks().empty());
        CHECK(requested(host) == std::vector<std::string>{"default/d"});
    }
}

TEST_CASE("picker: every failure falls back to the built-in order for that node and is logged once", "[picker]") {
    const std::string url = "Pod Picker http://picker.shop:8080/pick: ";
    const std::vector<PickAnswer> failures = {
        PickAnswer::failure(url + "no answer within 2s (1 attempt)"),
        PickAnswer::failure(url + "no connection: Connection refused (1 attempt)"),
        PickAnswer::failure(url + "answered HTTP 500 Internal Server Error (1 attempt)"),
        PickAnswer::failure(url + "answer is not JSON (Missing a name for object member. at offset 1): {x"),
        chosen({"kube-system/not-a-candidate"}),  // the host refuses a foreign name
        PickAnswer::failure(url + "answer names 0 pods, 1 requested"),
        PickAnswer::failure("podPicker.http.httpHeaders[0].valueFrom.secretKeyRef: cannot read Secret shop/x"),
    };
    for (size_t i = 0; i < failures.size(); ++i) {
        const PickAnswer& failure = failures[i];
        DYNAMIC_SECTION("failure " << i << ": " << failure.error) {
            Cluster c = hot_node();
            FakeHost host;
            host.on_pick_pods = [&](const RecordedPick&) { return failure; };
            host.instantiate<LowNodeLoad>(args_with_picker()).balance(c.at(c.b.now_ms()));
            CHECK(host.picks().size() == 1);
            CHECK(requested(host) == std::vector<std::string>{"default/d"});  // the built-in choice
            auto warned = logs_with(host, "Pod picker failed, evicting in the built-in order node=\"n1\"");
            REQUIRE(warned.size() == 1);
            CHECK(warned[0].find(failure.error.empty() ? "which is not a candidate" : failure.error) !=
                  std::string::npos);
        }
    }
}

TEST_CASE("picker: a repeated failure is logged once, a recovery once, a new failure again", "[picker]") {
    FakeHost host;
    auto plugin = host.instantiate<LowNodeLoad>(args_with_picker());
    auto cycle = [&](PickAnswer answer) {
        Cluster c = hot_node();  // a fresh cluster each time: evictions are not applied between calls
        host.on_pick_pods = [answer](const RecordedPick&) { return answer; };
        plugin.balance(c.at(c.b.now_ms()));
    };
    cycle(PickAnswer::failure("timeout"));
    cycle(PickAnswer::failure("timeout"));
    CHECK(logs_with(host, "Pod picker failed").size() == 1);
    cycle(chosen({"default/a"}));
    CHECK(logs_with(host, "Pod picker answers again").size() == 1);
    cycle(chosen({"default/a"}));
    CHECK(logs_with(host, "Pod picker answers again").size() == 1);
    cycle(PickAnswer::failure("timeout"));
    CHECK(logs_with(host, "Pod picker failed").size() == 2);
    CHECK(host.picks().size() == 5);
    CHECK(requested(host) == std::vector<std::string>{"default/d", "default/d", "default/a", "default/a", "default/d"});
}

TEST_CASE("picker: podPicker args are checked when the plugin is created, with field paths", "[picker][args]") {
    CHECK(create_error(R"({"podPicker": {"http": {"host": "picker", "port": 8080}}})").empty());
    CHECK(
        create_error(R"({"podPicker": {
        "http": {"scheme": "ftp", "host": "picker:8080", "port": -1, "path": "pick", "caFile": "/ca.crt",
                 "httpHeaders": [{"name": "Bad Name", "value": "x", "valueFrom": {"secretKeyRef": {"name": "s"}}},
                                 {"name": "X-Empty"},
                                 {"name": "X-Ref", "valueFrom": {}}]},
        "maxRetries": -1, "timeoutSeconds": 0}})") ==
        "podPicker.http.scheme: must be http or https (got \"ftp\")\n"
        "podPicker.http.host: must be a host name or IP address alone (got \"picker:8080\"; the scheme, port and path "
        "have fields of their own)\n"
        "podPicker.http.port: must be between 1 and 65535, or 0 for the scheme's default (got -1)\n"
        "podPicker.http.path: must start with / (got \"pick\")\n"
        "podPicker.http.httpHeaders[0].name: must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~; got "
        "\"Bad Name\")\n"
        "podPicker.http.httpHeaders[0]: set exactly one of value and valueFrom\n"
        "podPicker.http.httpHeaders[0].valueFrom.secretKeyRef.namespace: must be set\n"
        "podPicker.http.httpHeaders[0].valueFrom.secretKeyRef.key: must be set\n"
        "podPicker.http.httpHeaders[1]: set exactly one of value and valueFrom\n"
        "podPicker.http.httpHeaders[2].valueFrom.secretKeyRef: must be set (the only source of a header value)\n"
        "podPicker.maxRetries: must be >= 0 (got -1)\n"
        "podPicker.timeoutSeconds: must be >= 1 (got 0)");
    CHECK(create_error(R"({"podPicker": {"http": {"host": "p", "caFile": "/ca.crt"}}})") ==
          "podPicker.http.caFile: is only used with scheme https");
    CHECK(create_error(R"({"podPicker": {"http": {"host": "p"}, "retries": 3}})") ==
          "podPicker.retries: unknown field (known fields: http, maxRetries, timeoutSeconds)");
}
