#include "net/http_client.hpp"

#include "error.hpp"

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

struct CancelToken::State {
    pplx::cancellation_token_source source;
};

CancelToken::CancelToken() : state(std::make_shared<State>()) {}
void CancelToken::cancel() {
    state->source.cancel();
}
bool CancelToken::cancelled() const {
    return state->source.get_token().is_canceled();
}

std::string default_user_agent() {
    return std::string("kdesched/") + KDESCHED_VERSION;
}

std::string Response::header(std::string_view name) const {
    auto same = [&](const std::string& h) {
        return h.size() == name.size() && std::equal(h.begin(), h.end(), name.begin(), [](char a, char b) {
                   return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
               });
    };
    for (const auto& [k, v] : headers)
        if (same(k)) return v;
    return "";
}

namespace {

// Applies the TLS settings to an Asio SSL context (the one cpprest makes per connection).
void apply_tls(const TlsConfig& tls, boost::asio::ssl::context& ctx) {
    if (!tls.use_system_store) SSL_CTX_set_cert_store(ctx.native_handle(), X509_STORE_new());
    if (!tls.ca_pem.empty()) ctx.add_certificate_authority(boost::asio::buffer(tls.ca_pem));
    if (!tls.cert_pem.empty()) {
        ctx.use_certificate_chain(boost::asio::buffer(tls.cert_pem));
        ctx.use_private_key(boost::asio::buffer(tls.key_pem), boost::asio::ssl::context::pem);
    }
}

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
    std::string user_agent;
    std::string server_name;  // tls-server-name: cpprest takes the Host header for SNI and verification
    size_t max_body = kMaxResponseBytes;
};

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
    impl_->user_agent = config.user_agent.empty() ? default_user_agent() : config.user_agent;
    impl_->server_name = config.tls.server_name;
    impl_->max_body = config.max_body;
    try {
        impl_->client.emplace(utility::conversions::to_string_t(base_url), cfg);
    } catch (const web::uri_exception& e) {
        throw Error(base_url, std::string("not a URL: ") + e.what(), "give scheme://host[:port][/path]");
    }
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

// Response::problem for a body over the limit.
std::string too_large(size_t limit) {
    return "the answer's body is larger than " + std::to_string(limit >> 10) + " KiB, the limit on a body read whole";
}

}  // namespace

Response HttpClient::send(const Request& request) {
    Response out;
    try {
        http::http_response response =
            impl_->client->request(make_request(request, impl_->user_agent, impl_->server_name)).get();
        out.status = response.status_code();
        out.reason = response.reason_phrase();
        out.headers = headers_of(response);
        if (!read_all(response, impl_->max_body, out.body)) {
            out.failure = Failure::too_large;
            out.problem = too_large(impl_->max_body);
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
    Response out;
    pplx::cancellation_token token = cancel ? cancel->state->source.get_token() : pplx::cancellation_token::none();
    try {
        http::http_response response =
            impl_->client->request(make_request(request, impl_->user_agent, impl_->server_name), token).get();
        out.status = response.status_code();
        out.reason = response.reason_phrase();
        out.headers = headers_of(response);
        if (out.status < 200 || out.status > 299) {
            if (!read_all(response, impl_->max_body, out.body)) {
                out.failure = Failure::too_large;
                out.problem = too_large(impl_->max_body);
            }
            return out;
        }
        auto buf = response.body().streambuf();
        if (delivery == Delivery::in_large_pieces) {
            std::vector<char> piece(1 << 20);
            // getn() waits for a full piece (or the end of the body): one wake-up per MiB.
            while (size_t n = buf.getn(reinterpret_cast<uint8_t*>(piece.data()), piece.size()).get())
                if (!on_chunk(std::string_view(piece.data(), n))) break;
            return out;
        }
        std::vector<char> chunk(1 << 16);
        for (;;) {
            // bumpc() waits for at least one byte; getn() then takes only what has arrived
            // (getn alone would wait for a full buffer, holding a watch event back).
            auto c = buf.bumpc().get();
            if (c == std::char_traits<char>::eof()) break;
            chunk[0] = static_cast<char>(c);
            size_t n = 1;
            size_t ready = std::min(buf.in_avail(), chunk.size() - 1);
            if (ready > 0) n += buf.getn(reinterpret_cast<uint8_t*>(chunk.data() + 1), ready).get();
            if (!on_chunk(std::string_view(chunk.data(), n))) break;
        }
    } catch (const http::http_exception& e) {
        out.failure = cancel && cancel->cancelled() ? Failure::cancelled : failure_of(e);
        out.problem = e.what();
    } catch (const pplx::task_canceled&) {
        out.failure = Failure::cancelled;
        out.problem = "cancelled";
    } catch (const std::system_error& e) {
        out.failure = cancel && cancel->cancelled() ? Failure::cancelled : Failure::connection;
        out.problem = e.what();
    }
    return out;
}

}  // namespace kd::core::net
