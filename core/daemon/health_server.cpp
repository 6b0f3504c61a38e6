#include "daemon/health_server.hpp"

#include "error.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <list>

namespace kd::core::daemon {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;
using Answer = http::response<http::string_body>;

namespace {

int64_t steady_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

tcp::endpoint endpoint_of(const std::string& address) {
    auto colon = address.rfind(':');
    std::string host = address.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
    return {asio::ip::make_address(host), static_cast<unsigned short>(std::stoi(address.substr(colon + 1)))};
}

// Every answer closes its connection (one request per connection: no idle keep-alive to bound).
Answer text_answer(http::status status, unsigned version, std::string body) {
    Answer res{status, version};
    res.keep_alive(false);
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.body() = std::move(body);
    return res;
}

// A failed accept (out of file descriptors, mostly) is tried again after this, not in a busy loop.
constexpr std::chrono::milliseconds kAcceptRetryDelay{100};

}  // namespace

void HealthState::beat() {
    heartbeat_ms = steady_ms();
}

void HealthState::set_ready(std::string missing) {
    std::lock_guard lock(mutex);
    not_ready = std::move(missing);
}

// Threads: one I/O thread runs every socket and timer of the server and answers /healthz and
// /readyz itself (an atomic load, a short lock): it never waits, so a probe never queues behind
// anything. /metrics and /debug/model may block (model_digest waits for the control loop up to its
// timeout), so each is handed to a worker thread of its own: a slow digest delays neither the probes
// nor a scrape, and requests for the same endpoint are answered in turn, as before. A pool of I/O
// threads running the handlers inline would not do: enough concurrent /debug/model requests would
// occupy every thread, and the probes with them. The number of requests waiting for a worker is
// bounded by kMaxConnections, and each by its deadline (one whose client is gone costs no work).
struct HealthServer::Impl {
    struct Listener {
        Listener(asio::io_context& io, bool h, bool m, std::shared_ptr<ServingCertificates> c)
            : acceptor(io), retry(io), health(h), metrics(m), certificates(std::move(c)) {}
        tcp::acceptor acceptor;
        asio::steady_timer retry;
        bool health, metrics;
        const std::shared_ptr<ServingCertificates> certificates;  // the secure port's; null: plain HTTP
        int port = 0;  // read once bound: ports() must not touch the acceptor the I/O thread uses
    };
    struct Session;

    HealthState& state;
    const std::function<std::string()> metrics_text;
    const std::function<std::optional<std::string>()> model_digest;
    const HealthServerLimits limits;
    const DebugHandler explain;
    asio::io_context io;
    std::vector<std::unique_ptr<Listener>> listeners;
    std::list<std::shared_ptr<Session>> sessions;  // open connections, oldest first (I/O thread only)
    asio::thread_pool metrics_worker{1}, model_worker{1}, explain_worker{1};
    std::thread io_thread;

    Impl(HealthState& s, std::function<std::string()> m, std::function<std::optional<std::string>()> d,
         HealthServerLimits l, DebugHandler e)
        : state(s), metrics_text(std::move(m)), model_digest(std::move(d)), limits(l), explain(std::move(e)) {}

    void listen(const std::string& address, bool health, bool metrics,
                std::shared_ptr<ServingCertificates> certificates = {}) {
        const bool secure = certificates != nullptr;
        try {
            auto l = std::make_unique<Listener>(io, health, metrics, std::move(certificates));
            tcp::endpoint ep = endpoint_of(address);
            l->acceptor.open(ep.protocol());
            l->acceptor.set_option(asio::socket_base::reuse_address(true));
            l->acceptor.bind(ep);
            l->acceptor.listen();
            l->port = l->acceptor.local_endpoint().port();
            listeners.push_back(std::move(l));
        } catch (const std::exception& e) {
            if (secure)
                throw Error(address, std::string("cannot listen for HTTPS (the secure port): ") + e.what(),
                            "free the port, or set --secure-port / --bind-address to another one (0 turns it off)");
            throw Error(address,
                        std::string("cannot listen for ") + (health ? "/healthz" : "") +
                            (health && metrics ? " and " : "") + (metrics ? "/metrics" : "") + ": " + e.what(),
                        "free the port, or set healthzBindAddress / metricsBindAddress to another one");
        }
    }

    void accept(Listener& l);
    void open(Listener& l, tcp::socket socket);

    // Until stopped. A handler that throws fails its own connection (closed at its deadline at the
    // latest), not the server.
    void run_io() {
        for (;;) {
            try {
                io.run();
                return;
            } catch (const std::exception& e) {
                spdlog::error("health server: {}", e.what());
            }
        }
    }

    Answer healthz(unsigned version) const {
        int64_t age = steady_ms() - state.heartbeat_ms.load();
        if (age <= state.stuck_after.count()) return text_answer(http::status::ok, version, "ok");
        return text_answer(http::status::internal_server_error, version,
                           "the control loop has not moved for " + std::to_string(age / 1000) + " s");
    }

    Answer readyz(unsigned version) {
        std::lock_guard lock(state.mutex);
        if (state.not_ready.empty()) return text_answer(http::status::ok, version, "ok");
        return text_answer(http::status::service_unavailable, version, "not ready: " + state.not_ready);
    }

    Answer metrics(unsigned version) const {
        Answer res = text_answer(http::status::ok, version, metrics_text());
        res.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
        return res;
    }

    Answer model(unsigned version) const {
        auto digest = model_digest();
        if (!digest)
            return text_answer(http::status::service_unavailable, version,
                               "the control loop is inside a hook and did not answer in time; try again");
        Answer res = text_answer(http::status::ok, version, std::move(*digest));
        res.set(http::field::content_type, "application/json");
        return res;
    }

    Answer debug(const DebugHandler& handler, unsigned version, const std::string& query) const {
        DebugAnswer a = handler(query);
        Answer res = text_answer(http::status::ok, version, std::move(a.body));
        res.set(http::field::content_type, a.content_type);
        return res;
    }
};

// One connection, one request: read it, answer it, close. The deadline runs from the accept to the
// last byte written, whatever the connection is doing when it passes.
struct HealthServer::Impl::Session : std::enable_shared_from_this<Session> {
    Impl& server;
    const Listener& listener;
    tcp::socket socket;
    // On the secure port: the TLS layer over `socket`, with the context it was accepted under (a
    // certificate rotated meanwhile serves the next connections).
    std::shared_ptr<asio::ssl::context> tls_context;
    std::optional<asio::ssl::stream<tcp::socket&>> tls;
    asio::steady_timer deadline;
    beast::flat_buffer buffer{kMaxRequestHeaderBytes + kMaxRequestBodyBytes};
    http::request_parser<http::string_body> parser;
    Answer answer;  // kept here while it is written
    std::list<std::shared_ptr<Session>>::iterator place;
    std::atomic<bool> closed{false};  // also read by the workers: no work for a client gone

    Session(Impl& s, const Listener& l, tcp::socket sock)
        : server(s), listener(l), socket(std::move(sock)), deadline(s.io) {
        parser.header_limit(kMaxRequestHeaderBytes);
        parser.body_limit(kMaxRequestBodyBytes);
        if (l.certificates) {
            tls_context = l.certificates->current();
            tls.emplace(socket, *tls_context);
        }
    }

    void start() {
        deadline.expires_after(server.limits.max_request_duration);
        deadline.async_wait([self = shared_from_this()](error_code ec) {
            if (!ec) self->close();
        });
        if (!tls) return read();
        // A client that does not speak TLS (plain HTTP to the secure port) fails here and is closed.
        tls->async_handshake(asio::ssl::stream_base::server, [self = shared_from_this()](error_code ec) {
            if (ec) return self->close();
            self->read();
        });
    }

    // `on` the connection's stream: TLS over the socket on the secure port, else the socket.
    template <class Operation>
    void on_stream(Operation op) {
        if (tls)
            op(*tls);
        else
            op(socket);
    }

    void read() {
        on_stream([&](auto& stream) {
            http::async_read(stream, buffer, parser,
                             [self = shared_from_this()](error_code ec, size_t) { self->on_request(ec); });
        });
    }

    void on_request(error_code ec) {
        if (closed) return;
        // The request is not read further: the client learns why, then the connection closes.
        if (ec == http::error::header_limit || ec == http::error::buffer_overflow)
            return reply(text_answer(http::status::request_header_fields_too_large, 11,
                                     "request header larger than " + std::to_string(kMaxRequestHeaderBytes) +
                                         " bytes (kMaxRequestHeaderBytes)"));
        if (ec == http::error::body_limit)
            return reply(text_answer(
                http::status::payload_too_large, 11,
                "request body larger than " + std::to_string(kMaxRequestBodyBytes) + " bytes (kMaxRequestBodyBytes)"));
        if (ec) return close();  // gone before a whole request, or not HTTP
        const auto& req = parser.get();
        const unsigned version = req.version();
        std::string target(req.target());
        const size_t mark = target.find('?');
        std::string query = mark == std::string::npos ? "" : target.substr(mark + 1);
        target = target.substr(0, mark);
        if (listener.health && (target == "/healthz" || target == "/livez")) {
            reply(server.healthz(version));
        } else if (listener.health && target == "/readyz") {
            reply(server.readyz(version));
        } else if (listener.metrics && target == "/metrics") {
            hand_off(server.metrics_worker, [&server = server, version] { return server.metrics(version); });
        } else if (listener.metrics && target == "/debug/model" && server.model_digest) {
            hand_off(server.model_worker, [&server = server, version] { return server.model(version); });
        } else if (listener.metrics && target == "/debug/explain" && server.explain) {
            hand_off(server.explain_worker,
                     [&server = server, version, query] { return server.debug(server.explain, version, query); });
        } else {
            reply(text_answer(http::status::not_found, version,
                              "not found; try /healthz, /readyz, /metrics, /debug/model or /debug/explain"));
        }
    }

    // The answer is made on `worker`; it comes back to the I/O thread to be written.
    template <class Make>
    void hand_off(asio::thread_pool& worker, Make make) {
        asio::post(worker, [self = shared_from_this(), make = std::move(make)]() mutable {
            std::optional<Answer> res;
            if (!self->closed) {
                try {
                    res = make();
                } catch (const std::exception& e) {
                    spdlog::warn("health server: {}", e.what());
                    res = text_answer(http::status::internal_server_error, 11, e.what());
                } catch (...) {
                    res = text_answer(http::status::internal_server_error, 11, "internal error");
                }
            }
            Impl& server = self->server;
            // Back on the I/O thread even when there is nothing to write, so that the session is
            // released there (or after it has stopped), never on a worker.
            asio::post(server.io, [self = std::move(self), res = std::move(res)]() mutable {
                if (res && !self->closed) self->reply(std::move(*res));
            });
        });
    }

    void reply(Answer res) {
        answer = std::move(res);
        answer.prepare_payload();
        on_stream([&](auto& stream) {
            http::async_write(stream, answer, [self = shared_from_this()](error_code ec, size_t) {
                // TLS ends with close_notify, so that the client sees a clean end; one that never
                // answers it is cut off at the deadline.
                if (self->tls && !ec && !self->closed)
                    return self->tls->async_shutdown([self](error_code) { self->close(); });
                self->close();
            });
        });
    }

    // Idempotent. Pending operations end with operation_aborted and release the session.
    void close() {
        if (closed) return;
        closed = true;
        error_code ec;
        deadline.cancel();
        socket.shutdown(tcp::socket::shutdown_both, ec);
        socket.close(ec);
        server.sessions.erase(place);
    }
};

void HealthServer::Impl::accept(Listener& l) {
    l.acceptor.async_accept([this, &l](error_code ec, tcp::socket socket) {
        if (ec == asio::error::operation_aborted) return;  // the server stops
        if (ec) {
            spdlog::debug("health server: accept failed: {}", ec.message());
            l.retry.expires_after(kAcceptRetryDelay);
            l.retry.async_wait([this, &l](error_code e) {
                if (!e) accept(l);
            });
            return;
        }
        open(l, std::move(socket));
        accept(l);
    });
}

void HealthServer::Impl::open(Listener& l, tcp::socket socket) {
    // At the bound, the connection open longest goes: it has had the most time, and a client that
    // holds many connections open cannot keep a probe out.
    if (sessions.size() >= std::max<size_t>(limits.max_connections, 1)) {
        spdlog::debug("health server: {} connections open (kMaxConnections): closing the oldest", sessions.size());
        sessions.front()->close();
    }
    auto session = std::make_shared<Session>(*this, l, std::move(socket));
    sessions.push_back(session);
    session->place = std::prev(sessions.end());
    session->start();
}

HealthServer::HealthServer(const std::string& healthz_address, const std::string& metrics_address, HealthState& state,
                           std::function<std::string()> metrics_text,
                           std::function<std::optional<std::string>()> model_digest, HealthServerLimits limits,
                           DebugHandler explain, std::shared_ptr<ServingCertificates> secure)
    : impl_(
          std::make_unique<Impl>(state, std::move(metrics_text), std::move(model_digest), limits, std::move(explain))) {
    if (healthz_address == metrics_address) {
        impl_->listen(healthz_address, true, true);
    } else {
        impl_->listen(healthz_address, true, false);
        impl_->listen(metrics_address, false, true);
    }
    if (secure) impl_->listen(secure->address(), true, true, secure);
    for (auto& l : impl_->listeners) impl_->accept(*l);
    impl_->io_thread = std::thread([this] { impl_->run_io(); });
}

HealthServer::~HealthServer() {
    Impl& s = *impl_;
    s.io.stop();
    s.io_thread.join();
    // A handler already running ends within its own wait (model_digest's timeout); those waiting
    // for their turn are dropped.
    for (asio::thread_pool* w : {&s.metrics_worker, &s.model_worker, &s.explain_worker}) w->stop();
    for (asio::thread_pool* w : {&s.metrics_worker, &s.model_worker, &s.explain_worker}) w->join();
    // The I/O thread is gone: close everything here, then let the aborted operations finish so that
    // each session is released before the io_context goes.
    while (!s.sessions.empty()) s.sessions.front()->close();
    for (auto& l : s.listeners) {
        error_code ec;
        l->retry.cancel();
        l->acceptor.close(ec);
    }
    s.io.restart();
    s.io.poll();
}

std::vector<int> HealthServer::ports() const {
    std::vector<int> out;
    for (const auto& l : impl_->listeners) out.push_back(l->port);
    return out;
}

}  // namespace kd::core::daemon
