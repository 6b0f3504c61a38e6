// HttpClient::stream (Boost.Beast, core/net/body_stream.cpp) against the test API server: a LIST
// that the server sends as one HTTP chunk, as kube-apiserver does, reaches the caller in pieces of
// at most the read buffer (never held whole); a silent stream ends with Failure::timeout after the
// inactivity timeout; a cancelled one ends at once with Failure::cancelled; an error answer is
// read whole into the body.
#include "fake_apiserver.hpp"
#include "net/http_client.hpp"

#include <catch2/catch.hpp>

#include <rapidjson/document.h>

#include <chrono>
#include <string>
#include <thread>

using namespace kd::core;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

TEST_CASE("stream: a LIST sent as one HTTP chunk arrives piece by piece, whole and in order") {
    kd_test::FakeApiServer server;
    std::string objects = "[", label(2000, 'x');
    for (int i = 0; i < 3000; ++i)
        objects += (i ? "," : "") + std::string(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ns-)") +
                   std::to_string(i) + R"(","uid":"u-)" + std::to_string(i) + R"(","labels":{"l":")" + label +
                   R"("}}})";
    server.load(objects + "]");

    net::HttpClient client(server.url(), net::ClientConfig{});
    std::string body;
    size_t pieces = 0, largest = 0;
    auto r = client.stream(
        {"GET", "/api/v1/namespaces", {}, "", ""},
        [&](std::string_view piece) {
            ++pieces;
            largest = std::max(largest, piece.size());
            body.append(piece);
            return true;
        },
        nullptr, net::Delivery::in_large_pieces);
    REQUIRE(r.answered());
    CHECK(r.status == 200);
    CHECK(r.header("Transfer-Encoding") == "chunked");
    CHECK(body.size() > 6'000'000);
    CHECK(largest <= 512u << 10);  // at most the read buffer: never the whole chunk
    CHECK(pieces >= body.size() / (512u << 10));
    rapidjson::Document d;
    d.Parse(body.c_str());
    REQUIRE(d.IsObject());
    CHECK(d["items"].Size() == 3000);
    CHECK(std::string(d["items"][2999]["metadata"]["name"].GetString()) == "ns-999");  // sorted by name
}

TEST_CASE("stream: a stream that goes silent ends with a timeout after the inactivity timeout") {
    kd_test::FakeApiServer server;
    net::ClientConfig config;
    config.timeout = std::chrono::milliseconds(500);
    net::HttpClient client(server.url(), config);
    size_t pieces = 0;
    auto t0 = std::chrono::steady_clock::now();
    auto r = client.stream({"GET", "/api/v1/namespaces?watch=1&timeoutSeconds=30", {}, "", ""},
                           [&](std::string_view) { return ++pieces, true; });
    CHECK(r.failure == net::Failure::timeout);
    CHECK(r.status == 200);  // the headers came; the events did not
    CHECK(pieces == 0);
    CHECK(seconds_since(t0) < 5);
}

TEST_CASE("stream: a cancelled stream ends at once, reported as cancelled") {
    kd_test::FakeApiServer server;
    net::HttpClient client(server.url(), net::ClientConfig{});
    net::CancelToken cancel;
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        cancel.cancel();
    });
    auto t0 = std::chrono::steady_clock::now();
    auto r = client.stream(
        {"GET", "/api/v1/namespaces?watch=1&timeoutSeconds=30", {}, "", ""}, [](std::string_view) { return true; },
        &cancel);
    canceller.join();
    CHECK(r.failure == net::Failure::cancelled);
    CHECK(r.problem == "cancelled");
    CHECK(seconds_since(t0) < 2);
}

TEST_CASE("stream: a cancel wakes the waiting stream through its Waker, only while the Waker lives") {
    net::CancelToken cancel;
    int woken = 0;
    {
        auto waker = cancel.wake_with([&] { ++woken; });
        cancel.cancel();
        CHECK(woken == 1);
        CHECK(cancel.cancelled());
    }
    cancel.cancel();  // no Waker now: nothing to call
    CHECK(woken == 1);
    // A token shared by two streams: whichever ends first leaves no function behind.
    net::CancelToken shared;
    int a = 0, b = 0;
    auto first = shared.wake_with([&] { ++a; });
    {
        auto second = shared.wake_with([&] { ++b; });
    }
    shared.cancel();
    CHECK(a + b == 0);
}

TEST_CASE("stream: an error answer is read whole into the body, not streamed") {
    kd_test::FakeApiServer server;
    net::HttpClient client(server.url(), net::ClientConfig{});
    size_t pieces = 0;
    auto r = client.stream({"GET", "/api/v1/namespaces/none/pods/missing", {}, "", ""},
                           [&](std::string_view) { return ++pieces, true; });
    REQUIRE(r.answered());
    CHECK(r.status == 404);
    CHECK(pieces == 0);
    CHECK(r.body.find("\"kind\":\"Status\"") != std::string::npos);
}

TEST_CASE("stream: a server that cannot be reached is a connection failure naming the step") {
    net::ClientConfig config;
    config.timeout = std::chrono::milliseconds(2000);
    net::HttpClient client("http://127.0.0.1:1", config);
    auto r = client.stream({"GET", "/api/v1/pods", {}, "", ""}, [](std::string_view) { return true; });
    CHECK(r.failure == net::Failure::connection);
    CHECK_THAT(r.problem, Catch::StartsWith("connecting: "));
}
