#include "net/http_client.hpp"

#include "error.hpp"
#include "net/body_stream.hpp"
#include "net/tls_material.hpp"

#include <cpprest/http_client.h>
#include <boost/asio/ssl/context.hpp>

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <optional>
#include <system_error>

namespace kd::core::net {

namespace http = web::http;

namespace {

// What is wrong with the TLS material, found now rather than at the first handshake: "" or why.
std::string check_tls(const TlsConfig& tls) {
    if (tls.cert_pem.empty() != tls.key_pem.empty())
        return tls.cert_pem.empty() ? "a client key without a certificate" : "a client certificate without a key";
    try {
        boost::asio::ssl::context ctx(boost::asio::ssl::context::tls_client);
        apply_tls(tls, ctx);
    } catch (const boost::system::system_error& e) {
        return e.what();
    }
    return "";
}

std::vector<Header> headers_of(const http::http_response& r) {
    std::vector<Header> out;
    for (const auto& [k, v] : r.headers()) out.emplace_back(k, v);
    return out;
}

Failure failure_of(const http::http_exception& e) {
    return e.error_code() == std::errc::timed_out ? Failure::timeout : Failure::connection;
}

}  // namespace

struct HttpClient::Impl {
    std::optional<http::client::http_client> client;
    // The settings of both transports: stream()'s (body_stream.hpp) and send()'s, which takes the
    // user agent, the largest body and tls-server-name (sent as Host: cpprest takes it for SNI and
    // verification) from here.
    StreamSettings settings;
};

namespace {

Endpoint endpoint_of(const web::uri& u) {
    Endpoint e;
    e.tls = u.scheme() == "https";
    e.host = u.host();
    if (e.host.size() > 2 && e.host.front() == '[') e.host = e.host.substr(1, e.host.size() - 2);
    e.port = static_cast<uint16_t>(u.port() > 0 ? u.port() : (e.tls ? 443 : 80));
    e.prefix = u.path();
    while (!e.prefix.empty() && e.prefix.back() == '/') e.prefix.pop_back();
    return e;
}

}  // namespace

HttpClient::HttpClient(const std::string& base_url, const ClientConfig& config)
    : base_url_(base_url), impl_(std::make_unique<Impl>()) {
    if (std::string bad = check_tls(config.tls); !bad.empty())
        throw Error(base_url, "unusable TLS settings: " + bad,
                    "check the CA, client certificate and key (PEM, matching each other)");
    http::client::http_client_config cfg;
    cfg.set_timeout(config.timeout);
    cfg.set_validate_certificates(!config.tls.insecure_skip_verify);
    TlsConfig tls = config.tls;
    if (!tls.ca_pem.empty() || !tls.cert_pem.empty() || !tls.use_system_store)
        cfg.set_ssl_context_callback([tls](boost::asio::ssl::context& ctx) { apply_tls(tls, ctx); });
    try {
        impl_->client.emplace(utility::conversions::to_string_t(base_url), cfg);
    } catch (const web::uri_exception& e) {
        throw Error(base_url, std::string("not a URL: ") + e.what(), "give scheme://host[:port][/path]");
    }
    impl_->settings = {endpoint_of(impl_->client->base_uri()), config.tls, config.timeout,
                       config.user_agent.empty() ? default_user_agent() : config.user_agent, config.max_body};
}

HttpClient::~HttpClient() = default;

namespace {

http::http_request make_request(const Request& r, const std::string& user_agent, const std::string& server_name) {
    http::http_request req(utility::conversions::to_string_t(r.method));
    if (!r.target.empty()) req.set_request_uri(utility::conversions::to_string_t(r.target));
    req.headers().add(http::header_names::user_agent, user_agent);
    if (!server_name.empty()) req.headers().add(http::header_names::host, server_name);
    for (const auto& [name, value] : r.headers) req.headers().add(name, value);
    if (!r.body.empty() || !r.content_type.empty()) req.set_body(r.body, r.content_type);
    return req;
}

// Reads the whole body (raw bytes: no charset games) into `out`; false, with `out` cut short, when
// it is larger than `limit`.
bool read_all(const http::http_response& response, size_t limit, std::string& out) {
    auto buf = response.body().streambuf();
    std::vector<char> piece(1 << 16);
    while (size_t n = buf.getn(reinterpret_cast<uint8_t*>(piece.data()), piece.size()).get()) {
        if (out.size() + n > limit) return false;
        out.append(piece.data(), n);
    }
    return true;
}

}  // namespace

Response HttpClient::send(const Request& request) {
    Response out;
    try {
        const StreamSettings& s = impl_->settings;
        http::http_response response =
            impl_->client->request(make_request(request, s.user_agent, s.tls.server_name)).get();
        out.status = response.status_code();
        out.reason = response.reason_phrase();
        out.headers = headers_of(response);
        if (!read_all(response, s.max_body, out.body)) {
            out.failure = Failure::too_large;
            out.problem = body_too_large(s.max_body);
        }
    } catch (const http::http_exception& e) {
        out.failure = failure_of(e);
        out.problem = e.what();
    } catch (const std::system_error& e) {  // TLS material refused by OpenSSL at handshake time
        out.failure = Failure::connection;
        out.problem = e.what();
    }
    return out;
}

Response HttpClient::stream(const Request& request, const std::function<bool(std::string_view)>& on_chunk,
                            const CancelToken* cancel, Delivery delivery) {
    return stream_body(impl_->settings, request, on_chunk, cancel, delivery);
}

}  // namespace kd::core::net
