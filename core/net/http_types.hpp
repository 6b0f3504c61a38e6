// What an HTTP(S) request and its answer are made of, shared by both transports of HttpClient
// (http_client.hpp) and the TLS set-up: requests, responses, failures, TLS and client settings, the
// cancel token.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kd::core::net {

using Header = std::pair<std::string, std::string>;

struct TlsConfig {
    std::string ca_pem;                 // CA certificates (PEM) trusted for the server
    bool use_system_store = true;       // also trust the system's CA store
    std::string cert_pem, key_pem;      // client certificate and its key (PEM), both or neither
    std::string server_name;            // name the server's certificate must carry, when not the URL's host
    bool insecure_skip_verify = false;  // no verification at all (a kubeconfig may ask for it)
};

// The largest body send() reads whole (and the largest error body of stream()): a server that
// sends more is cut off with Failure::too_large instead of filling memory.
constexpr size_t kMaxResponseBytes = 64u << 20;

struct ClientConfig {
    TlsConfig tls;
    // No byte for this long ends the request (a stalled stream too): the timeout resets with every chunk.
    std::chrono::milliseconds timeout{std::chrono::seconds(30)};
    std::string user_agent;               // "" → kdesched/<version>
    size_t max_body = kMaxResponseBytes;  // bytes of a body read whole
};

// Why no HTTP answer came.
enum class Failure {
    none,
    connection,  // refused, unresolvable, reset, TLS handshake or certificate
    timeout,     // nothing for longer than ClientConfig::timeout
    cancelled,   // the caller stopped it
    too_large,   // a body read whole was larger than ClientConfig::max_body (problem names the limit)
};

struct Request {
    std::string method = "GET";
    std::string target;  // path and query, appended to the client's base URL ("" for the base itself)
    std::vector<Header> headers;
    std::string body;
    std::string content_type;  // with a body
};

// How a streamed body with a Content-Length reaches its callback: each piece as soon as it
// arrives, or in pieces of 1 MiB (fewer, larger calls for a LIST). A chunked body — every LIST
// and WATCH of an API server — is handed over as it is read either way.
enum class Delivery { as_it_arrives, in_large_pieces };

struct Response {
    Failure failure = Failure::none;
    std::string problem;  // the transport's message when failure is set
    int status = 0;
    std::string reason;  // the status line's reason phrase
    std::vector<Header> headers;
    std::string body;  // send(); stream() hands the body to its callback instead
    bool answered() const { return failure == Failure::none; }
    // A response header's value (case-insensitive name), "" when absent.
    std::string header(std::string_view name) const;
};

// Cancels a stream from another thread (shutdown, a watch to drop).
class CancelToken {
public:
    struct State;
    CancelToken();
    void cancel();
    bool cancelled() const;

    // While a Waker lives, cancel() also calls its function (on the cancelling thread), so that a
    // blocked wait ends at once instead of at its next look at cancelled().
    class Waker {
    public:
        Waker(std::shared_ptr<State> state, std::function<void()> wake);
        Waker(const Waker&) = delete;
        Waker& operator=(const Waker&) = delete;
        ~Waker();

    private:
        std::shared_ptr<State> state_;
    };
    [[nodiscard]] std::unique_ptr<Waker> wake_with(std::function<void()> wake) const;

    std::shared_ptr<State> state;
};

// "kdesched/<version>".
std::string default_user_agent();

}  // namespace kd::core::net
