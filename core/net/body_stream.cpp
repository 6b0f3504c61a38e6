#include "net/body_stream.hpp"

#include "net/tls_material.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <openssl/ssl.h>

#include <limits>
#include <optional>
#include <vector>

namespace kd::core::net {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

// How often a blocked read looks at its CancelToken (a cancel also wakes it at once: stream_body's
// Waker).
constexpr auto kCancelPoll = std::chrono::milliseconds(100);

bool is_address(const std::string& host) {
    error_code ec;
    asio::ip::make_address(host, ec);
    return !ec;
}

// One stream's I/O, a step at a time on the calling thread: each step is started, then the
// io_context runs until it ends, its time runs out (no byte for `timeout`) or the caller cancels
// (the socket is closed; the pending operation ends).
struct Steps {
    asio::io_context& io;
    const CancelToken* cancel;
    std::chrono::milliseconds timeout;
    Response& out;

    // False, with out.failure and out.problem set, when the step failed.
    template <class Start>
    bool run(beast::tcp_stream& socket, std::string_view during, Start&& start) {
        bool done = false, cancelled = false;
        error_code ec;
        socket.expires_after(timeout);
        start([&](const error_code& e, auto&&...) {
            ec = e;
            done = true;
        });
        io.restart();
        while (!done) {
            if (io.stopped()) io.restart();  // a cancel stops it, to end the wait at once
            io.run_for(kCancelPoll);
            if (!done && !cancelled && cancel && cancel->cancelled()) {
                cancelled = true;
                socket.cancel();
                error_code ignored;
                socket.socket().close(ignored);
            }
        }
        if (!cancelled && (!ec || ec == bhttp::error::need_buffer)) return true;
        out.failure = cancelled || ec == asio::error::operation_aborted ? Failure::cancelled
                      : ec == beast::error::timeout                     ? Failure::timeout
                                                                        : Failure::connection;
        out.problem = cancelled ? "cancelled" : std::string(during) + ": " + ec.message();
        return false;
    }
};

// The name the server's certificate must carry, and the Host of each request.
const std::string& server_name(const StreamSettings& s) {
    return s.tls.server_name.empty() ? s.endpoint.host : s.tls.server_name;
}

// The exchange on a connected (and, for https, handshaken) stream.
template <class Stream>
void exchange(Stream& stream, Steps& steps, const StreamSettings& s, const Request& r,
              const std::function<bool(std::string_view)>& on_chunk, Delivery delivery, Response& out) {
    auto step = [&](const char* during, auto&& start) {
        return steps.run(beast::get_lowest_layer(stream), during, start);
    };

    bhttp::request<bhttp::string_body> req(bhttp::string_to_verb(r.method), s.endpoint.prefix + r.target, 11);
    std::string host = server_name(s);
    if (host.find(':') != std::string::npos) host = "[" + host + "]";
    req.set(bhttp::field::host, host + ":" + std::to_string(s.endpoint.port));
    req.set(bhttp::field::user_agent, s.user_agent);
    for (const auto& [name, value] : r.headers) req.set(name, value);
    if (!r.body.empty() || !r.content_type.empty()) {
        req.set(bhttp::field::content_type, r.content_type);
        req.body() = r.body;
    }
    req.prepare_payload();
    if (!step("sending the request", [&](auto h) { bhttp::async_write(stream, req, h); })) return;

    // Every byte of the body goes through take(): to the caller for a 2xx answer, into
    // Response::body (bounded) for any other.
    bool streamed = false, stopped = false, too_large = false;
    auto take = [&](std::string_view data) {
        if (streamed) {
            stopped = stopped || !on_chunk(data);
        } else if (out.body.size() + data.size() > s.max_body) {
            too_large = stopped = true;
        } else {
            out.body.append(data);
        }
    };
    // A chunked body (every LIST and WATCH of an API server) is taken straight from the read
    // buffer, with no copy; a body with a Content-Length through `piece`. (Set before the header
    // is read, as Beast requires; it holds the callback by reference.)
    auto on_chunk_data = [&](std::uint64_t, beast::string_view data, error_code&) {
        if (!stopped && !data.empty()) take(std::string_view(data.data(), data.size()));
        return data.size();
    };
    beast::flat_buffer buffer;
    // Beast reads as much as the buffer has room for: a buffer left at its first size (~512 B)
    // would cost a system call and a wake-up per 512 bytes.
    buffer.reserve(512u << 10);
    bhttp::response_parser<bhttp::buffer_body> parser;
    // A stream's size is bounded by its consumer, an error body by take(). (Not boost::none: Boost
    // 1.74 compares a Content-Length with an empty optional as if it were a limit of 0.)
    parser.body_limit(std::numeric_limits<std::uint64_t>::max());
    parser.on_chunk_body(on_chunk_data);
    if (!step("reading the answer", [&](auto h) { bhttp::async_read_header(stream, buffer, parser, h); })) return;
    const auto& head = parser.get();
    out.status = static_cast<int>(head.result_int());
    out.reason = std::string(head.reason());
    for (const auto& f : head) out.headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
    streamed = out.status >= 200 && out.status <= 299;

    std::vector<char> piece(streamed && delivery == Delivery::in_large_pieces ? (1u << 20) : (64u << 10));
    size_t filled = 0;
    while (!parser.is_done() && !stopped) {
        auto& body = parser.get().body();
        body.data = piece.data() + filled;
        body.size = piece.size() - filled;
        if (!step("reading the body", [&](auto h) { bhttp::async_read_some(stream, buffer, parser, h); })) return;
        filled = piece.size() - parser.get().body().size;
        if (filled > 0 &&
            (!streamed || delivery == Delivery::as_it_arrives || filled == piece.size() || parser.is_done())) {
            take(std::string_view(piece.data(), filled));
            filled = 0;
        }
    }
    if (too_large) {
        out.failure = Failure::too_large;
        out.problem = body_too_large(s.max_body);
    }
}

}  // namespace

Response stream_body(const StreamSettings& s, const Request& r, const std::function<bool(std::string_view)>& on_chunk,
                     const CancelToken* cancel, Delivery delivery) {
    Response out;
    asio::io_context io;
    // A cancel from another thread stops the io_context, so the step's wait ends now (a relist's
    // watch, a shutdown), not at the next poll. Destroyed before `io`.
    std::unique_ptr<CancelToken::Waker> waker;
    if (cancel) waker = cancel->wake_with([&io] { io.stop(); });
    Steps steps{io, cancel, s.timeout, out};
    beast::tcp_stream socket(io);
    tcp::resolver resolver(io);
    tcp::resolver::results_type addresses;
    if (!steps.run(socket, "resolving " + s.endpoint.host, [&](auto done) {
            resolver.async_resolve(s.endpoint.host, std::to_string(s.endpoint.port),
                                   [&, done](const error_code& e, tcp::resolver::results_type found) {
                                       addresses = std::move(found);
                                       done(e);
                                   });
        }))
        return out;
    if (!steps.run(socket, "connecting", [&](auto done) { socket.async_connect(addresses, done); })) return out;
    socket.socket().set_option(tcp::no_delay(true));

    if (!s.endpoint.tls) {
        exchange(socket, steps, s, r, on_chunk, delivery, out);
        return out;
    }
    asio::ssl::context ctx(asio::ssl::context::tls_client);
    try {
        if (s.tls.use_system_store) ctx.set_default_verify_paths();
        apply_tls(s.tls, ctx);
    } catch (const boost::system::system_error& e) {
        out.failure = Failure::connection;
        out.problem = std::string("TLS settings: ") + e.what();
        return out;
    }
    beast::ssl_stream<beast::tcp_stream> stream(std::move(socket), ctx);
    const std::string& name = server_name(s);
    if (s.tls.insecure_skip_verify) {
        stream.set_verify_mode(asio::ssl::verify_none);
    } else {
        stream.set_verify_mode(asio::ssl::verify_peer);
        stream.set_verify_callback(asio::ssl::host_name_verification(name));
    }
    if (!is_address(name)) SSL_set_tlsext_host_name(stream.native_handle(), name.c_str());  // SNI: names only
    if (!steps.run(beast::get_lowest_layer(stream), "TLS handshake",
                   [&](auto done) { stream.async_handshake(asio::ssl::stream_base::client, done); }))
        return out;
    exchange(stream, steps, s, r, on_chunk, delivery, out);
    return out;
}

std::string body_too_large(size_t limit) {
    return "the answer's body is larger than " + std::to_string(limit >> 10) + " KiB, the limit on a body read whole";
}

}  // namespace kd::core::net
