// The query part of a URL: a value percent-encoded for a request we send (a continue token, a pod
// name), and a parameter's value read back from a request we answer (/debug/explain?pod=…).
#pragma once

#include <string>
#include <string_view>

namespace kd::core::net {

// Every byte but RFC 3986's unreserved ones as %XX.
std::string query_escape(std::string_view s);

// The value of `name` in `query` ("a=1&b=x%2Fy"), %XX and '+' decoded; "" when absent.
std::string query_value(std::string_view query, std::string_view name);

}  // namespace kd::core::net
