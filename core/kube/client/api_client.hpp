// Requests to the Kubernetes API server with client-go's habits: the connection's credentials on
// every request (fetched again after a 401), the client-side rate limit of clientConnection.qps /
// burst, and retries with exponential backoff and jitter on connection errors, 5xx and 429
// (honouring Retry-After) — never on other 4xx. Thread-safe.
#pragma once

#include "kube/client/api_status.hpp"
#include "kube/client/credentials.hpp"
#include "kube/client/kubeconfig.hpp"
#include "net/http_client.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>

namespace kd::core::kube {

struct ApiResult {
    net::Failure failure = net::Failure::none;
    std::string problem;  // the transport's message, or why no request was made (credentials)
    int code = 0;
    std::string body;  // the answer (for a stream: only when not 2xx)
    std::vector<net::Header> headers;
    ApiStatus status;            // when code is not 2xx and the body is a Status
    std::string forbidden_rule;  // on a 403: the RBAC rule the request needed (RequestAttributes::rule)
    int attempts = 0;
    bool answered() const { return failure == net::Failure::none && code != 0; }
    bool ok() const { return answered() && code >= 200 && code < 300; }
    // "HTTP 409 Conflict: <message>" or "no connection to <server>: <problem>"; a 403 names the rule
    // to grant.
    std::string describe() const;
};

struct ClientOptions {
    double qps = 50;  // clientConnection.qps: sustained requests per second (<= 0: no limit)
    int burst = 100;  // clientConnection.burst
    std::chrono::milliseconds timeout{std::chrono::seconds(30)};  // no byte for this long: the request fails
    // The same for LIST bodies and watches: longer than the server's bookmark interval (a minute),
    // so that only a stream that really went silent is dropped.
    std::chrono::milliseconds stream_timeout{std::chrono::seconds(90)};
    int max_attempts = 5;  // a retried request, all attempts
    std::chrono::milliseconds backoff_base{200}, backoff_cap{std::chrono::seconds(10)};
    // The Accept header of reflectors' LIST and WATCH of built-in kinds (clientConnection.
    // acceptContentTypes, else contentType); custom resources are always read as JSON.
    std::string accept = "application/json";
    // Refuse a request whose verb is not in api_verbs() (off only for tests that play another party).
    bool declared_only = true;
};

// One finished request, for metrics (verb and resource are derived by the observer).
struct RequestRecord {
    std::string method, target;
    int code = 0;  // 0: no answer
    double seconds = 0;
};

// A token bucket: `qps` tokens a second, at most `burst` banked. wait() blocks for one.
class RateLimiter {
public:
    RateLimiter(double qps, int burst);
    void wait();

private:
    std::mutex mutex_;
    double qps_, tokens_, burst_;
    std::chrono::steady_clock::time_point last_;
};

class ApiClient {
public:
    ApiClient(Connection connection, ClientOptions options);
    ~ApiClient();

    // One request, retried as the header says. Errors are in the result, never thrown.
    // `retry_too_many` false: a 429 is an answer, not a reason to wait (an Eviction a
    // PodDisruptionBudget refuses).
    ApiResult call(net::Request request, bool retry_too_many = true);
    // A streamed request (LIST body, WATCH): rate limited, tried again once after a 401 with fresh
    // credentials; any other failure is the caller's to handle (reflectors back off themselves).
    ApiResult stream(net::Request request, const std::function<bool(std::string_view)>& on_chunk,
                     const net::CancelToken* cancel = nullptr, net::Delivery delivery = net::Delivery::as_it_arrives);

    const Connection& connection() const { return connection_; }
    const ClientOptions& options() const { return options_; }
    Credentials& credentials() { return credentials_; }
    void set_observer(std::function<void(const RequestRecord&)> observer) { observer_ = std::move(observer); }
    // The wait before attempt `attempt` + 1 (exponential, capped, with jitter).
    std::chrono::milliseconds backoff(int attempt);

private:
    // The HTTP client for the current credential (a client certificate from an exec plugin needs
    // a TLS context of its own); "" or why there is none.
    std::shared_ptr<net::HttpClient> client_for(const Credential& credential, bool stream, std::string& problem);
    ApiResult attempt(net::Request request, const std::function<bool(std::string_view)>* on_chunk,
                      const net::CancelToken* cancel, net::Delivery delivery, Credential& used);

    Connection connection_;
    ClientOptions options_;
    Credentials credentials_;
    RateLimiter limiter_;
    std::mutex mutex_;
    std::shared_ptr<net::HttpClient> client_, stream_client_;
    std::string client_cert_;  // the certificate the clients were made with
    std::function<void(const RequestRecord&)> observer_;
    std::mt19937_64 random_;
    std::set<std::string> forbidden_said_;  // RBAC rules a 403 has been logged for (once each)
};

}  // namespace kd::core::kube
