// The parts of the Pod Picker that need no server: the request body, answer ranking and the
// endpoint a podPicker block becomes.
#include "picker/picker_config.hpp"
#include "picker/picker_contract.hpp"
#include "picker/picker_error.hpp"

#include <catch2/catch.hpp>

using namespace kd::core::picker;

namespace {

const std::vector<std::string> kCandidates = {"shop/a", "shop/b", "shop/c"};
const SecretReader kNoSecrets = [](std::string_view, std::string_view, std::map<std::string, std::string>&) {
    return std::string("no Secrets here");
};

}  // namespace

TEST_CASE("contract: the request carries the count and the candidates in order", "[picker]") {
    CHECK(encode_pick_request({"shop/a", "batch/\"q\""}, 1) ==
          R"({"number_of_pods_requested":1,"candidate_pods":["shop/a","batch/\"q\""]})");
}

TEST_CASE("contract: absent or null lists are empty — other members are ignored — ties may exceed the count",
          "[picker]") {
    CHECK(rank_answer(R"({"chosen_pods": ["shop/c"], "reason": "idle"})", kCandidates, 1, "here") ==
          std::vector<uint8_t>{3, 3, 0});
    CHECK(rank_answer(R"({"chosen_pods": null, "tied_pods": ["shop/b", "shop/a", "shop/c"]})", kCandidates, 1,
                      "here") == std::vector<uint8_t>{1, 1, 1});
}

TEST_CASE("contract: a broken answer is an invalid-answer error at the given place, with the contract as hint",
          "[picker]") {
    try {
        rank_answer(R"({"chosen_pods": ["shop/x"]})", kCandidates, 1, "Pod Picker http://p:80/");
        FAIL("no error");
    } catch (const PickerError& e) {
        CHECK(e.failure() == PickFailure::invalid_answer);
        CHECK(std::string(e.what()) ==
              "Pod Picker http://p:80/: chosen_pods names \"shop/x\", which is not a candidate (the picker must "
              "answer {\"chosen_pods\": [...], \"tied_pods\": [...]} with names taken from candidate_pods, at least "
              "number_of_pods_requested in total)");
    }
}

TEST_CASE("contract: an answer nested deeper than the JSON limit is refused before it is parsed", "[picker]") {
    const std::string deep = R"({"chosen_pods": )" + std::string(300'000, '[') + std::string(300'000, ']') + "}";
    try {
        rank_answer(deep, kCandidates, 1, "Pod Picker http://p:80/");
        FAIL("no error");
    } catch (const PickerError& e) {
        CHECK(e.failure() == PickFailure::invalid_answer);
        CHECK_THAT(e.what(), Catch::StartsWith("Pod Picker http://p:80/: answer nests JSON more than 512 levels deep "
                                               "(the limit)"));
    }
}

TEST_CASE("config: the endpoint of a podPicker block", "[picker]") {
    SECTION("defaults: http on port 80 at /, no headers, 5 s, no retry") {
        PickerEndpoint e = resolve_endpoint(R"({"http": {"host": "picker.shop.svc"}})", kNoSecrets);
        CHECK(e.url == "http://picker.shop.svc:80/");
        CHECK(e.headers.empty());
        CHECK(e.ca_pem.empty());
        CHECK(e.timeout == std::chrono::seconds(5));
        CHECK(e.max_retries == 0);
    }
    SECTION("HTTPS as probes spell it, on its default port; headers in order") {
        PickerEndpoint e = resolve_endpoint(
            R"({"http": {"scheme": "HTTPS", "host": "10.0.0.7", "path": "/v1/pick",
                         "httpHeaders": [{"name": "B", "value": "2"}, {"name": "A", "value": "1"}]},
                "maxRetries": 3, "timeoutSeconds": 2})",
            kNoSecrets);
        CHECK(e.url == "https://10.0.0.7:443/v1/pick");
        CHECK(e.headers == std::vector<std::pair<std::string, std::string>>{{"B", "2"}, {"A", "1"}});
        CHECK(e.timeout == std::chrono::seconds(2));
        CHECK(e.max_retries == 3);
    }
    SECTION("an IPv6 address in brackets and an explicit port") {
        CHECK(resolve_endpoint(R"({"http": {"host": "[::1]", "port": 8443, "scheme": "https"}})", kNoSecrets).url ==
              "https://[::1]:8443/");
    }
}
