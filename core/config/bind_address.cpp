#include "config/bind_address.hpp"

#include <arpa/inet.h>

#include <algorithm>

namespace kd::core {

namespace {

bool is_ipv4(const std::string& s) {
    in_addr a{};
    return inet_pton(AF_INET, s.c_str(), &a) == 1;
}

bool is_ipv6(const std::string& s) {
    in6_addr a{};
    return inet_pton(AF_INET6, s.c_str(), &a) == 1;
}

bool is_ip(const std::string& s) {
    return is_ipv4(s) || is_ipv6(s);
}

std::string join_host_port(const std::string& host, const std::string& port) {
    return host.find(':') != std::string::npos ? "[" + host + "]:" + port : host + ":" + port;
}

// Go's net.SplitHostPort: "host:port" or "[v6]:port"; false on a missing port or stray colons.
bool split_host_port(const std::string& s, std::string& host, std::string& port) {
    if (!s.empty() && s[0] == '[') {
        auto close = s.find(']');
        if (close == std::string::npos || close + 1 >= s.size() || s[close + 1] != ':') return false;
        host = s.substr(1, close - 1);
        port = s.substr(close + 2);
        return port.find(':') == std::string::npos;
    }
    auto colon = s.rfind(':');
    if (colon == std::string::npos || s.find(':') != colon) return false;
    host = s.substr(0, colon);
    port = s.substr(colon + 1);
    return true;
}

bool valid_port(const std::string& port) {
    if (port.empty() || port.size() > 5 ||
        !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    int n = std::stoi(port);
    return n >= 1 && n <= 65535;
}

}  // namespace

BindAddress normalise_bind_address(const std::optional<std::string>& raw) {
    // "" means "not set". kube-scheduler silently replaces any unusable value with the default;
    // we report the others, since a typo there would leave probes on an unexpected port.
    if (!raw || raw->empty()) return {kDefaultBindAddress, ""};
    std::string host, port;
    if (!split_host_port(*raw, host, port)) {
        if (is_ip(*raw)) return {join_host_port(*raw, "10251"), ""};
        return {*raw, "must be host:port with an IP address host (e.g. 0.0.0.0:10251 or [::]:10251)"};
    }
    if (host.empty()) host = "0.0.0.0";
    std::string value = join_host_port(host, port);
    if (!valid_port(port)) return {value, "port \"" + port + "\" must be a number between 1 and 65535"};
    if (!is_ip(host)) return {value, "host \"" + host + "\" must be an IP address (e.g. 0.0.0.0 or ::)"};
    return {value, ""};
}

}  // namespace kd::core
