// Base64 as Kubernetes stores Secret data and kubeconfigs carry certificates.
#include "net/base64.hpp"

#include <catch2/catch.hpp>

using kd::core::net::decode_base64;

TEST_CASE("base64: Kubernetes Secret data decodes — anything else is refused", "[net]") {
    CHECK(decode_base64("") == "");
    CHECK(decode_base64("Zg==") == "f");
    CHECK(decode_base64("Zm8=") == "fo");
    CHECK(decode_base64("Zm9v") == "foo");
    CHECK(decode_base64("QmVhcmVyIHMzY3JldA==") == "Bearer s3cret");
    CHECK(decode_base64("/+8=") == std::string("\xff\xef"));
    CHECK_FALSE(decode_base64("Zm9"));       // not a multiple of 4
    CHECK_FALSE(decode_base64("Zm=v"));      // padding inside
    CHECK_FALSE(decode_base64("Zg==Zm9v"));  // padding before the end
    CHECK_FALSE(decode_base64("Zm9v!A=="));
}
