// The one HTTP(S) client of kdesched, shared by the Pod Picker and the Kubernetes API client: TLS
// settings (extra CA certificates, client certificate, server name, verification always on unless
// the configuration turns it off), an inactivity timeout and the User-Agent. Policies on top of
// it — retries, rate limits, authentication headers — belong to its callers.
// Two transports behind one interface, both on Boost.Asio: send() on cpprestsdk (keep-alive
// connections to one server); stream() on Boost.Beast, a connection per stream, which hands a
// body over as it arrives however the server chunks it (see body_stream.hpp for why).
//
// http_client.cpp is the only translation unit that includes cpprestsdk (each costs ~15 s to
// compile); nothing here exposes it.
#pragma once

#include <chrono>
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
    CancelToken();
    void cancel();
    bool cancelled() const;
    struct State;
    std::shared_ptr<State> state;
};

class HttpClient {
public:
    // `base_url`: scheme://host[:port][/prefix]. Throws kd::core::Error when the URL or the TLS
    // material is unusable (the message names what).
    HttpClient(const std::string& base_url, const ClientConfig& config);
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    const std::string& base_url() const { return base_url_; }

    // One request, the whole body read.
    Response send(const Request& request);

    // One request whose body is handed over piece by piece (a watch, a large LIST); `on_chunk`
    // returns false to stop reading. Returns the status and headers (and a failure if the
    // transport broke, before or during the body). For a status other than 2xx the body is read
    // whole into Response::body, not streamed.
    Response stream(const Request& request, const std::function<bool(std::string_view chunk)>& on_chunk,
                    const CancelToken* cancel = nullptr, Delivery delivery = Delivery::as_it_arrives);

private:
    struct Impl;
    std::string base_url_;
    std::unique_ptr<Impl> impl_;
};

// "kdesched/<version>".
std::string default_user_agent();

}  // namespace kd::core::net
