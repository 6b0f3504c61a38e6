// The Pod Picker host service end to end against real HTTP(S) servers on 127.0.0.1: the request
// it sends, the ranks it makes of an answer, and every way a request fails.
#include "loopback_server.hpp"
#include "picker/picker_contract.hpp"
#include "picker/pod_picker.hpp"
#include "test_pki.hpp"

#include <rapidjson/document.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>

using kd::core::picker::PickOutcome;
using kd::core::picker::SecretReader;
using picker_test::LoopbackServer;
using Reply = LoopbackServer::Reply;
using namespace std::chrono_literals;

namespace {

const std::vector<std::string> kFourCandidates = {"shop/a", "shop/b", "shop/c", "batch/d"};

// A podPicker block for a picker on 127.0.0.1:`port` at /pick; `http_more` and `more` are extra
// members of http and of the block.
std::string config(uint16_t port, const std::string& http_more = "", const std::string& more = "") {
    return R"({"http": {"host": "127.0.0.1", "port": )" + std::to_string(port) + R"(, "path": "/pick")" + http_more +
           "}" + more + "}";
}

// Secret shop/picker holds token = "Bearer s3cret" and newline = "line\n".
const SecretReader kSecrets = [](std::string_view ns, std::string_view name, std::map<std::string, std::string>& data) {
    if (ns != "shop" || name != "picker")
        return std::string("Secret ") + std::string(ns) + "/" + std::string(name) + " is not in the cluster";
    data = {{"token", "QmVhcmVyIHMzY3JldA=="}, {"newline", "bGluZQo="}, {"broken", "not base64!"}};
    return std::string();
};

PickOutcome pick(const std::string& json, uint32_t requested = 2) {
    return kd::core::picker::pick_pods(json, kFourCandidates, requested, kSecrets);
}

Reply answer(const std::string& body) {
    return Reply{200, body, 0ms};
}

}  // namespace

TEST_CASE("a normal answer with ties ranks chosen 0, tied 1, the rest 3", "[picker]") {
    LoopbackServer server(
        [](const auto&) { return answer(R"({"chosen_pods": ["shop/c"], "tied_pods": ["batch/d", "shop/a"]})"); });
    PickOutcome out = pick(config(server.port(), R"(, "httpHeaders": [
        {"name": "Authorization", "valueFrom": {"secretKeyRef": {"namespace": "shop", "name": "picker", "key": "token"}}},
        {"name": "X-Team", "value": "shop"}])"));
    INFO(out.error);
    REQUIRE(out.ok());
    CHECK(out.result == "success");
    CHECK(out.ranks ==
          std::vector<uint8_t>{1, 3, 0, 1});  // shop/a tied, shop/b not returned, shop/c chosen, batch/d tied

    auto requests = server.requests();
    REQUIRE(requests.size() == 1);
    const auto& r = requests[0];
    CHECK(r.method == "POST");
    CHECK(r.target == "/pick");
    CHECK(r.headers.at("content-type") == "application/json");
    CHECK(r.headers.at("authorization") == "Bearer s3cret");
    CHECK(r.headers.at("x-team") == "shop");
    rapidjson::Document body;
    body.Parse(r.body.c_str());
    REQUIRE(body.IsObject());
    CHECK(body["number_of_pods_requested"].GetInt() == 2);
    std::vector<std::string> sent;
    for (const auto& v : body["candidate_pods"].GetArray()) sent.emplace_back(v.GetString());
    CHECK(sent == kFourCandidates);
}

TEST_CASE("a slow answer past the timeout is tried maxRetries more times, then fails as timeout", "[picker]") {
    LoopbackServer server([](const auto&) { return Reply{200, R"({"chosen_pods": ["shop/a", "shop/b"]})", 3000ms}; });
    auto start = std::chrono::steady_clock::now();
    PickOutcome out = pick(config(server.port(), "", R"(, "timeoutSeconds": 1, "maxRetries": 1)"));
    auto elapsed = std::chrono::steady_clock::now() - start;
    CHECK_FALSE(out.ok());
    CHECK(out.result == "timeout");
    CHECK(out.ranks.empty());
    CHECK(out.error == "Pod Picker http://127.0.0.1:" + std::to_string(server.port()) +
                           "/pick: no answer within 1s (2 attempts) (raise podPicker.timeoutSeconds or make the "
                           "picker answer faster)");
    CHECK(server.requests().size() == 2);
    CHECK(elapsed >= 1900ms);  // two attempts of 1 s each
}

TEST_CASE("a retry after a slow first attempt gets the answer", "[picker]") {
    std::atomic<int> calls{0};
    LoopbackServer server([&](const auto&) {
        return Reply{200, R"({"chosen_pods": ["shop/b", "shop/a"]})", ++calls == 1 ? 3000ms : 0ms};
    });
    PickOutcome out = pick(config(server.port(), "", R"(, "timeoutSeconds": 1, "maxRetries": 2)"));
    INFO(out.error);
    REQUIRE(out.ok());
    CHECK(out.ranks == std::vector<uint8_t>{0, 0, 3, 3});
    CHECK(server.requests().size() == 2);
}

TEST_CASE("HTTP 500 is retried and then fails as http-status — a 404 is not retried", "[picker]") {
    SECTION("500") {
        LoopbackServer server([](const auto&) { return Reply{500, "{}", 0ms}; });
        PickOutcome out = pick(config(server.port(), "", R"(, "maxRetries": 2)"));
        CHECK(out.result == "http-status");
        CHECK(
            out.error.find("/pick: answered HTTP 500 Internal Server Error (3 attempts) (see the picker's own logs)") !=
            std::string::npos);
        CHECK(server.requests().size() == 3);
    }
    SECTION("404") {
        LoopbackServer server([](const auto&) { return Reply{404, "", 0ms}; });
        PickOutcome out = pick(config(server.port(), "", R"(, "maxRetries": 2)"));
        CHECK(out.result == "http-status");
        CHECK(out.error.find("answered HTTP 404 Not Found (check podPicker.http.path and headers") !=
              std::string::npos);
        CHECK(server.requests().size() == 1);
    }
}

TEST_CASE("malformed JSON fails as invalid-answer, without a retry", "[picker]") {
    LoopbackServer server([](const auto&) { return answer(R"({"chosen_pods": ["shop/a")"); });
    PickOutcome out = pick(config(server.port(), "", R"(, "maxRetries": 2)"));
    CHECK(out.result == "invalid-answer");
    CHECK(out.error.find("/pick: answer is not JSON (") != std::string::npos);
    CHECK(out.error.find("): {\"chosen_pods\": [\"shop/a\" (the picker must answer") != std::string::npos);
    CHECK(server.requests().size() == 1);
}

TEST_CASE("an answer over kMaxPickerAnswerBytes fails as invalid-answer naming the limit, without a retry",
          "[picker]") {
    // Valid JSON, only padded: the limit is on bytes, before anything is parsed.
    std::string body = R"({"chosen_pods": ["shop/a", "shop/b"], "tied_pods": []})" +
                       std::string(kd::core::picker::kMaxPickerAnswerBytes, ' ');
    LoopbackServer server([&](const auto&) { return answer(body); });
    PickOutcome out = pick(config(server.port(), "", R"(, "maxRetries": 2)"));
    CHECK(out.result == "invalid-answer");
    CHECK(out.error.find("answered more than 1024 KiB, the limit on a Pod Picker answer (kMaxPickerAnswerBytes)") !=
          std::string::npos);
    CHECK(server.requests().size() == 1);
    // At the limit it is read.
    body.resize(kd::core::picker::kMaxPickerAnswerBytes);
    CHECK(pick(config(server.port())).result == "success");
}

TEST_CASE("names that are not candidates, repeated or too few fail as invalid-answer", "[picker]") {
    struct Case {
        const char* answer;
        const char* error;
    };
    const Case cases[] = {
        {R"({"chosen_pods": ["shop/a"], "tied_pods": ["shop/zzz"]})",
         "tied_pods names \"shop/zzz\", which is not a candidate"},
        {R"({"chosen_pods": ["a", "b"]})", "chosen_pods names \"a\", which is not a candidate"},
        {R"({"chosen_pods": ["shop/a"], "tied_pods": ["shop/a", "shop/b"]})",
         "\"shop/a\" is named twice in chosen_pods and tied_pods"},
        {R"({"chosen_pods": ["shop/a"]})", "answer names 1 pod, 2 requested"},
        {R"({"tied_pods": []})", "answer names 0 pods, 2 requested"},
        {R"(["shop/a", "shop/b"])", "answer is not a JSON object"},
        {R"({"chosen_pods": "shop/a"})", "chosen_pods is not a list"},
        {R"({"chosen_pods": ["shop/a", 2]})", "chosen_pods holds a value that is not a string"},
    };
    for (const Case& c : cases) {
        DYNAMIC_SECTION(c.answer) {
            LoopbackServer server([&](const auto&) { return answer(c.answer); });
            PickOutcome out = pick(config(server.port()));
            CHECK(out.result == "invalid-answer");
            CHECK(out.error.find(c.error) != std::string::npos);
            CHECK(out.ranks.empty());
        }
    }
}

TEST_CASE("a refused connection is retried, then fails as connection", "[picker]") {
    PickOutcome out = pick(config(closed_port(), "", R"(, "maxRetries": 1)"));
    CHECK(out.result == "connection");
    CHECK(out.error.find("/pick: no connection: ") != std::string::npos);
    CHECK(out.error.find("(2 attempts) (check podPicker.http (scheme, host, port, caFile)") != std::string::npos);
}

TEST_CASE("https is verified against the given CA", "[picker][tls]") {
    kd_test::TestPki pki;
    LoopbackServer server([](const auto&) { return answer(R"({"chosen_pods": ["batch/d", "shop/b"]})"); },
                          LoopbackServer::Tls{pki.server_cert(), pki.server_key()});
    const std::string https = R"(, "scheme": "https")";
    SECTION("the test CA in caFile: verified and answered") {
        PickOutcome out = pick(config(server.port(), https + R"(, "caFile": ")" + pki.ca_cert() + "\""));
        INFO(out.error);
        REQUIRE(out.ok());
        CHECK(out.ranks == std::vector<uint8_t>{3, 0, 3, 0});
        CHECK(server.requests().size() == 1);
    }
    SECTION("without caFile the system store does not know the test CA: no request gets through") {
        PickOutcome out = pick(config(server.port(), https));
        CHECK(out.result == "connection");
        CHECK(out.error.find("Pod Picker https://127.0.0.1:" + std::to_string(server.port()) +
                             "/pick: no connection") != std::string::npos);
        CHECK(server.requests().empty());
    }
    SECTION("a caFile that holds no certificate is a config problem") {
        PickOutcome out = pick(config(server.port(), https + R"(, "caFile": ")" + pki.garbage() + "\""));
        CHECK(out.result == "config");
        CHECK(out.error == "podPicker.http.caFile: " + pki.garbage() +
                               " holds no PEM certificate (give the CA certificate(s) in PEM form, -----BEGIN "
                               "CERTIFICATE----- blocks)");
        CHECK(server.requests().empty());
    }
    SECTION("a caFile that does not exist is a config problem") {
        PickOutcome out = pick(config(server.port(), https + R"(, "caFile": "/nonexistent/ca.crt")"));
        CHECK(out.result == "config");
        CHECK(out.error ==
              "podPicker.http.caFile: cannot read /nonexistent/ca.crt: No such file or directory (point caFile at a "
              "readable PEM file of CA certificates)");
    }
}

TEST_CASE("secretKeyRef problems fail as secret before anything is sent", "[picker]") {
    LoopbackServer server([](const auto&) { return answer(R"({"chosen_pods": ["shop/a", "shop/b"]})"); });
    auto with_header = [&](const std::string& ns, const std::string& name, const std::string& key) {
        return config(server.port(), R"(, "httpHeaders": [{"name": "X-Ok", "value": "1"}, {"name": "Authorization",
            "valueFrom": {"secretKeyRef": {"namespace": ")" +
                                         ns + R"(", "name": ")" + name + R"(", "key": ")" + key + R"("}}}])");
    };
    const std::string where = "podPicker.http.httpHeaders[1].valueFrom.secretKeyRef: ";
    struct Case {
        const char *ns, *name, *key;
        std::string error;
    };
    const Case cases[] = {
        {"shop", "missing", "token",
         where +
             "cannot read Secret shop/missing: Secret shop/missing is not in the cluster (create the Secret, or fix "
             "namespace and name)"},
        {"shop", "picker", "tokn",
         where + "Secret shop/picker has no key \"tokn\" (its keys: broken, newline, token) (add the key to the "
                 "Secret, or fix secretKeyRef.key)"},
        {"shop", "picker", "broken",
         where + "key \"broken\" of Secret shop/picker is not valid base64 (store the value under data as base64, as "
                 "Kubernetes does)"},
        {"shop", "picker", "newline",
         where + "key \"newline\" of Secret shop/picker contains a line break (an HTTP header value is one line; strip "
                 "the trailing newline from the Secret)"},
    };
    for (const Case& c : cases) {
        DYNAMIC_SECTION(c.key << " of " << c.name) {
            PickOutcome out = pick(with_header(c.ns, c.name, c.key));
            CHECK(out.result == "secret");
            CHECK(out.error == c.error);
        }
    }
    CHECK(server.requests().empty());
}

TEST_CASE("a block the plugin did not check is refused with its field paths", "[picker]") {
    PickOutcome out = pick(R"({"http": {"host": "", "port": 70000}, "timeoutSeconds": 0, "retries": 1})");
    CHECK(out.result == "config");
    // An unknown field and the values' problems, in one message.
    CHECK(out.error ==
          "invalid configuration: podPicker.retries: unknown field (known fields: http, maxRetries, "
          "timeoutSeconds); podPicker.http.host: must be set (the picker service's host name or IP address); "
          "podPicker.http.port: must be between 1 and 65535, or 0 for the scheme's default (got 70000); "
          "podPicker.timeoutSeconds: must be >= 1 (got 0) (fix the podPicker block of the plugin's args)");
    out = pick(R"({"http": {"host": "", "port": 70000}, "timeoutSeconds": 0})");
    CHECK(out.error ==
          "invalid configuration: podPicker.http.host: must be set (the picker service's host name or IP address); "
          "podPicker.http.port: must be between 1 and 65535, or 0 for the scheme's default (got 70000); "
          "podPicker.timeoutSeconds: must be >= 1 (got 0) (fix the podPicker block of the plugin's args)");
}

TEST_CASE("a request for more pods than there are candidates is refused", "[picker]") {
    PickOutcome out = pick(config(closed_port()), 5);
    CHECK(out.result == "config");
    CHECK(out.error == "asked for 5 of 4 candidates (a plugin asks for between 1 and the number of candidates)");
}
