// A real HTTP(S)/1.1 server on 127.0.0.1, on a port the kernel picks, for the Pod Picker client
// tests: each connection gets one answer from the handler (after its delay) and is closed.
#pragma once

#include "closed_port.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace picker_test {

class LoopbackServer {
public:
    struct Request {
        std::string method, target, body;
        std::map<std::string, std::string> headers;  // names in lower case
    };
    struct Reply {
        int status = 200;
        std::string body;
        std::chrono::milliseconds delay{0};  // before answering; cut short when the server stops
    };
    using Handler = std::function<Reply(const Request&)>;
    struct Tls {
        std::string cert_file, key_file;  // PEM
    };

    explicit LoopbackServer(Handler handler, std::optional<Tls> tls = std::nullopt);
    ~LoopbackServer();
    LoopbackServer(const LoopbackServer&) = delete;
    LoopbackServer& operator=(const LoopbackServer&) = delete;

    uint16_t port() const { return port_; }
    // Every complete request received so far, in arrival order.
    std::vector<Request> requests() const;

private:
    void accept_loop();
    void serve(int fd);

    Handler handler_;
    void* ssl_ctx_ = nullptr;  // SSL_CTX*, only with TLS (keeps OpenSSL out of this header)
    int listen_fd_ = -1;
    uint16_t port_ = 0;
    std::atomic<bool> stopping_{false};
    mutable std::mutex mu_;
    std::condition_variable stopped_;
    std::vector<Request> requests_;
    std::vector<std::thread> workers_;
    std::thread acceptor_;
};

}  // namespace picker_test
