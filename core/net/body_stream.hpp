// HttpClient::stream's transport (Boost.Beast): one request on a connection of its own, the body
// handed over as it arrives. Not cpprestsdk's: a Kubernetes API server sends a whole LIST as one
// HTTP chunk (kube-apiserver 1.32: one write of the encoded list), and cpprest reads a chunk
// whole into memory before its body stream sees a byte — 1.7 GB resident for a 150,000-pod LIST,
// and a 30 s read timeout that a large LIST outlasts. Beast's parser hands over any chunk piece
// by piece, so a LIST costs what one piece and one item need. Same settings as send(): TLS, the
// inactivity timeout (per read), the User-Agent.
#pragma once

#include "net/http_types.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace kd::core::net {

// Where a client's base URL points.
struct Endpoint {
    bool tls = false;
    std::string host;  // a name or an address, without brackets
    uint16_t port = 0;
    std::string prefix;  // path prefix of the base URL, "" or "/…" without a trailing '/'
};

struct StreamSettings {
    Endpoint endpoint;
    TlsConfig tls;
    std::chrono::milliseconds timeout;
    std::string user_agent;
    size_t max_body;  // of an error body
};

// One streamed request; see HttpClient::stream.
Response stream_body(const StreamSettings& settings, const Request& request,
                     const std::function<bool(std::string_view)>& on_chunk, const CancelToken* cancel,
                     Delivery delivery);

// Response::problem of a body over `limit` (Failure::too_large), whichever transport read it.
std::string body_too_large(size_t limit);

}  // namespace kd::core::net
