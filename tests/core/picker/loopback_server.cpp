#include "loopback_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cctype>
#include <stdexcept>

namespace picker_test {

namespace {

// Plain or TLS reads and writes on one accepted socket.
class Connection {
public:
    Connection(int fd, SSL_CTX* ctx) : fd_(fd) {
        if (!ctx) return;
        ssl_ = SSL_new(ctx);
        SSL_set_fd(ssl_, fd);
        if (SSL_accept(ssl_) != 1) failed_ = true;  // e.g. the client refused our certificate
    }
    ~Connection() {
        if (ssl_) {
            if (!failed_) SSL_shutdown(ssl_);
            SSL_free(ssl_);
        }
        ::close(fd_);
    }
    bool ok() const { return !failed_; }
    long read(char* buf, size_t n) { return ssl_ ? SSL_read(ssl_, buf, int(n)) : ::recv(fd_, buf, n, 0); }
    void write(const std::string& s) {
        if (ssl_)
            SSL_write(ssl_, s.data(), int(s.size()));
        else
            ::send(fd_, s.data(), s.size(), MSG_NOSIGNAL);
    }

private:
    int fd_;
    SSL* ssl_ = nullptr;
    bool failed_ = false;
};

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Reads one request; nullopt when the peer closed or sent garbage.
std::optional<LoopbackServer::Request> read_request(Connection& c) {
    std::string data;
    char buf[4096];
    size_t head_end;
    while ((head_end = data.find("\r\n\r\n")) == std::string::npos) {
        long n = c.read(buf, sizeof buf);
        if (n <= 0) return std::nullopt;
        data.append(buf, size_t(n));
    }
    LoopbackServer::Request r;
    size_t line_end = data.find("\r\n");
    std::string line = data.substr(0, line_end);
    size_t sp1 = line.find(' '), sp2 = line.rfind(' ');
    if (sp1 == std::string::npos || sp2 == sp1) return std::nullopt;
    r.method = line.substr(0, sp1);
    r.target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    for (size_t pos = line_end + 2; pos < head_end;) {
        size_t end = data.find("\r\n", pos);
        std::string h = data.substr(pos, end - pos);
        size_t colon = h.find(':');
        if (colon != std::string::npos) {
            size_t v = h.find_first_not_of(' ', colon + 1);
            r.headers[lower(h.substr(0, colon))] = v == std::string::npos ? "" : h.substr(v);
        }
        pos = end + 2;
    }
    size_t length = r.headers.count("content-length") ? std::stoul(r.headers["content-length"]) : 0;
    r.body = data.substr(head_end + 4);
    while (r.body.size() < length) {
        long n = c.read(buf, sizeof buf);
        if (n <= 0) return std::nullopt;
        r.body.append(buf, size_t(n));
    }
    return r;
}

const char* reason_phrase(int status) {
    switch (status) {
        case 200:
            return "OK";
        case 404:
            return "Not Found";
        case 500:
            return "Internal Server Error";
        case 503:
            return "Service Unavailable";
    }
    return "Status";
}

}  // namespace

LoopbackServer::LoopbackServer(Handler handler, std::optional<Tls> tls) : handler_(std::move(handler)) {
    if (tls) {
        SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
        if (SSL_CTX_use_certificate_chain_file(ctx, tls->cert_file.c_str()) != 1 ||
            SSL_CTX_use_PrivateKey_file(ctx, tls->key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
            SSL_CTX_free(ctx);
            throw std::runtime_error("LoopbackServer: cannot load " + tls->cert_file + " / " + tls->key_file);
        }
        ssl_ctx_ = ctx;
    }
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;  // the kernel picks
    socklen_t len = sizeof addr;
    if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listen_fd_, 16) != 0 ||
        ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
        throw std::runtime_error("LoopbackServer: cannot listen on 127.0.0.1");
    port_ = ntohs(addr.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
}

LoopbackServer::~LoopbackServer() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stopping_ = true;
    }
    stopped_.notify_all();
    acceptor_.join();
    for (auto& w : workers_) w.join();
    ::close(listen_fd_);
    if (ssl_ctx_) SSL_CTX_free(static_cast<SSL_CTX*>(ssl_ctx_));
}

std::vector<LoopbackServer::Request> LoopbackServer::requests() const {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
}

void LoopbackServer::accept_loop() {
    while (!stopping_) {
        pollfd p{listen_fd_, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
        int fd = ::accept(listen_fd_, nullptr, nullptr);
        if (fd < 0) continue;
        timeval tv{5, 0};  // a stuck client cannot keep a worker forever
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        workers_.emplace_back([this, fd] { serve(fd); });
    }
}

void LoopbackServer::serve(int fd) {
    Connection c(fd, static_cast<SSL_CTX*>(ssl_ctx_));
    if (!c.ok()) return;
    std::optional<Request> request = read_request(c);
    if (!request) return;
    Reply reply = handler_(*request);
    {
        std::unique_lock<std::mutex> lock(mu_);
        requests_.push_back(*request);
        if (stopped_.wait_for(lock, reply.delay, [this] { return stopping_.load(); })) return;
    }
    c.write("HTTP/1.1 " + std::to_string(reply.status) + " " + reason_phrase(reply.status) +
            "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(reply.body.size()) +
            "\r\nConnection: close\r\n\r\n" + reply.body);
}

}  // namespace picker_test
