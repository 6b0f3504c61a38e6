// RFC 3339 timestamps (metav1.Time) → Unix milliseconds.
#include <kdesched/rfc3339.hpp>

#include <catch2/catch.hpp>

using kd::parse_rfc3339_ms;

TEST_CASE("RFC 3339 timestamps become Unix milliseconds", "[time]") {
    CHECK(parse_rfc3339_ms("1970-01-01T00:00:00Z") == 0);
    CHECK(parse_rfc3339_ms("2024-05-01T12:00:00Z") == 1714564800000);
    CHECK(parse_rfc3339_ms("2024-05-01T12:00:00.123Z") == 1714564800123);
    CHECK(parse_rfc3339_ms("2024-05-01T12:00:00.123999999Z") == 1714564800123);  // truncated
    CHECK(parse_rfc3339_ms("2024-05-01T12:00:00.5Z") == 1714564800500);
    CHECK(parse_rfc3339_ms("2024-05-01T14:00:00+02:00") == 1714564800000);
    CHECK(parse_rfc3339_ms("2024-05-01T07:30:00-04:30") == 1714564800000);
    CHECK(parse_rfc3339_ms("2024-02-29T00:00:00Z") == 1709164800000);  // leap day
    CHECK(parse_rfc3339_ms("1969-12-31T23:59:59Z") == -1000);
    CHECK(parse_rfc3339_ms("2024-05-01t12:00:00z") == 1714564800000);
}

TEST_CASE("malformed timestamps are rejected", "[time]") {
    for (const char* bad :
         {"", "2024-05-01", "2024-05-01T12:00:00", "2024-05-01 12:00:00Z", "2024-13-01T00:00:00Z",
          "2023-02-29T00:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T12:60:00Z", "2024-05-01T12:00:60Z",
          "2024-05-01T12:00:00.Z", "2024-05-01T12:00:00+0200", "2024-05-01T12:00:00Zjunk", "24-05-01T12:00:00Z"}) {
        INFO(bad);
        CHECK_FALSE(parse_rfc3339_ms(bad));
    }
}
