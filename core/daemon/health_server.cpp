#include "daemon/health_server.hpp"

#include "error.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <sys/socket.h>

namespace kd::core::daemon {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

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

}  // namespace

void HealthState::beat() {
    heartbeat_ms = steady_ms();
}

void HealthState::set_ready(std::string missing) {
    std::lock_guard lock(mutex);
    not_ready = std::move(missing);
}

struct HealthServer::Impl {
    HealthState& state;
    std::function<std::string()> metrics_text;
    std::function<std::optional<std::string>()> model_digest;
    asio::io_context io;
    struct Listener {
        tcp::acceptor acceptor;
        bool health, metrics;
    };
    std::vector<std::unique_ptr<Listener>> listeners;
    std::vector<std::thread> threads;
    std::atomic<bool> stop{false};

    Impl(HealthState& s, std::function<std::string()> m, std::function<std::optional<std::string>()> d)
        : state(s), metrics_text(std::move(m)), model_digest(std::move(d)) {}

    void listen(const std::string& address, bool health, bool metrics) {
        try {
            auto l = std::make_unique<Listener>(Listener{tcp::acceptor(io), health, metrics});
            tcp::endpoint ep = endpoint_of(address);
            l->acceptor.open(ep.protocol());
            l->acceptor.set_option(asio::socket_base::reuse_address(true));
            l->acceptor.bind(ep);
            l->acceptor.listen();
            listeners.push_back(std::move(l));
        } catch (const std::exception& e) {
            throw Error(address,
                        std::string("cannot listen for ") + (health ? "/healthz" : "") +
                            (health && metrics ? " and " : "") + (metrics ? "/metrics" : "") + ": " + e.what(),
                        "free the port, or set healthzBindAddress / metricsBindAddress to another one");
        }
    }

    http::response<http::string_body> answer(const http::request<http::string_body>& req, const Listener& l) {
        http::response<http::string_body> res;
        res.version(req.version());
        res.keep_alive(false);
        res.set(http::field::content_type, "text/plain; charset=utf-8");
        std::string target(req.target());
        target = target.substr(0, target.find('?'));
        if (l.health && (target == "/healthz" || target == "/livez")) {
            int64_t age = steady_ms() - state.heartbeat_ms.load();
            if (age <= state.stuck_after.count()) {
                res.result(http::status::ok);
                res.body() = "ok";
            } else {
                res.result(http::status::internal_server_error);
                res.body() = "the control loop has not moved for " + std::to_string(age / 1000) + " s";
            }
        } else if (l.health && target == "/readyz") {
            std::lock_guard lock(state.mutex);
            if (state.not_ready.empty()) {
                res.result(http::status::ok);
                res.body() = "ok";
            } else {
                res.result(http::status::service_unavailable);
                res.body() = "not ready: " + state.not_ready;
            }
        } else if (l.metrics && target == "/metrics") {
            res.result(http::status::ok);
            res.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
            res.body() = metrics_text();
        } else if (l.metrics && target == "/debug/model" && model_digest) {
            if (auto digest = model_digest()) {
                res.result(http::status::ok);
                res.set(http::field::content_type, "application/json");
                res.body() = std::move(*digest);
            } else {
                res.result(http::status::service_unavailable);
                res.body() = "the control loop is inside a hook and did not answer in time; try again";
            }
        } else {
            res.result(http::status::not_found);
            res.body() = "not found; try /healthz, /readyz, /metrics or /debug/model";
        }
        res.prepare_payload();
        return res;
    }

    // One connection at a time per listener: probes and scrapes are rare and small.
    void serve(Listener& l) {
        while (!stop) {
            tcp::socket socket(io);
            boost::system::error_code ec;
            l.acceptor.accept(socket, ec);
            if (stop) return;
            if (ec) continue;
            timeval tv{5, 0};  // a client that sends nothing does not hold the listener
            setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
            setsockopt(socket.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
            boost::beast::flat_buffer buffer;
            http::request<http::string_body> req;
            http::read(socket, buffer, req, ec);
            if (ec) continue;
            http::write(socket, answer(req, l), ec);
            socket.shutdown(tcp::socket::shutdown_both, ec);
        }
    }
};

HealthServer::HealthServer(const std::string& healthz_address, const std::string& metrics_address, HealthState& state,
                           std::function<std::string()> metrics_text,
                           std::function<std::optional<std::string>()> model_digest)
    : impl_(std::make_unique<Impl>(state, std::move(metrics_text), std::move(model_digest))) {
    if (healthz_address == metrics_address) {
        impl_->listen(healthz_address, true, true);
    } else {
        impl_->listen(healthz_address, true, false);
        impl_->listen(metrics_address, false, true);
    }
    for (auto& l : impl_->listeners) impl_->threads.emplace_back([this, p = l.get()] { impl_->serve(*p); });
}

HealthServer::~HealthServer() {
    impl_->stop = true;
    for (auto& l : impl_->listeners) {
        boost::system::error_code ec;
        // Wake the blocking accept: shutdown() on a listening socket makes accept() return.
        ::shutdown(l->acceptor.native_handle(), SHUT_RDWR);
        l->acceptor.close(ec);
    }
    for (auto& t : impl_->threads) t.join();
}

std::vector<int> HealthServer::ports() const {
    std::vector<int> out;
    for (const auto& l : impl_->listeners) out.push_back(l->acceptor.local_endpoint().port());
    return out;
}

}  // namespace kd::core::daemon
