#include "kube/client/api_client.hpp"

#include "kube/client/request_attributes.hpp"

#include "error.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <thread>

namespace kd::core::kube {

namespace {

bool retryable(const ApiResult& r) {
    if (!r.answered()) return r.failure != net::Failure::cancelled && r.failure != net::Failure::too_large;
    return r.code == 429 || r.code >= 500;
}

// Retry-After in seconds (the only form the API server sends); nullopt when absent.
std::optional<std::chrono::milliseconds> retry_after(const ApiResult& r) {
    for (const auto& [k, v] : r.headers) {
        if (k.size() != 11 || !std::equal(k.begin(), k.end(), "retry-after", [](char a, char b) {
                return std::tolower(static_cast<unsigned char>(a)) == b;
            }))
            continue;
        int seconds = 0;
        auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), seconds);
        if (ec == std::errc() && seconds >= 0) return std::chrono::seconds(std::min(seconds, 600));
    }
    return std::nullopt;
}

std::string reason_phrase(int code) {
    switch (code) {
        case 400:
            return "Bad Request";
        case 401:
            return "Unauthorized";
        case 403:
            return "Forbidden";
        case 404:
            return "Not Found";
        case 409:
            return "Conflict";
        case 410:
            return "Gone";
        case 422:
            return "Unprocessable Entity";
        case 429:
            return "Too Many Requests";
        case 500:
            return "Internal Server Error";
        case 503:
            return "Service Unavailable";
        default:
            return "";
    }
}

// An authorizer's denial ("pods is forbidden: User "x" cannot list resource …"), not an admission
// plugin refusing this one object ("pods "a" is forbidden: <why>"): only the first asks for RBAC.
bool authorization_denied(const ApiStatus& s) {
    return s.message.empty() || s.message.find("\" cannot ") != std::string::npos;
}

}  // namespace

std::string ApiResult::describe() const {
    if (failure == net::Failure::cancelled || failure == net::Failure::too_large) return problem;
    if (!answered()) return (failure == net::Failure::timeout ? "no answer in time: " : "no connection: ") + problem;
    std::string out = "HTTP " + std::to_string(code);
    std::string phrase = reason_phrase(code);
    if (!phrase.empty()) out += " " + phrase;
    if (!status.message.empty()) out += ": " + status.message;
    if (code == 403 && !forbidden_rule.empty())
        out += " (grant kdesched's ServiceAccount " + forbidden_rule + " in deploy/base/rbac.yaml)";
    return out;
}

RateLimiter::RateLimiter(double qps, int burst)
    : qps_(qps), tokens_(std::max(1, burst)), burst_(std::max(1, burst)), last_(std::chrono::steady_clock::now()) {}

void RateLimiter::wait() {
    if (qps_ <= 0) return;
    std::chrono::duration<double> sleep{0};
    {
        std::lock_guard lock(mutex_);
        auto now = std::chrono::steady_clock::now();
        tokens_ = std::min(burst_, tokens_ + std::chrono::duration<double>(now - last_).count() * qps_);
        last_ = now;
        tokens_ -= 1;  // taken now; a negative balance is the wait of this caller
        if (tokens_ < 0) sleep = std::chrono::duration<double>(-tokens_ / qps_);
    }
    if (sleep.count() > 0) std::this_thread::sleep_for(sleep);
}

ApiClient::ApiClient(Connection connection, ClientOptions options)
    : connection_(std::move(connection)),
      options_(options),
      credentials_(connection_),
      limiter_(options.qps, options.burst),
      random_(std::random_device{}()) {}

ApiClient::~ApiClient() = default;

std::chrono::milliseconds ApiClient::backoff(int attempt) {
    auto base = options_.backoff_base * (int64_t(1) << std::min(attempt - 1, 20));
    auto capped = std::min<std::chrono::milliseconds>(base, options_.backoff_cap);
    std::lock_guard lock(mutex_);
    std::uniform_int_distribution<int64_t> jitter(capped.count() / 2, std::max<int64_t>(capped.count(), 1));
    return std::chrono::milliseconds(jitter(random_));
}

std::shared_ptr<net::HttpClient> ApiClient::client_for(const Credential& credential, bool stream,
                                                       std::string& problem) {
    std::lock_guard lock(mutex_);
    std::string cert = credential.cert_pem.empty() ? connection_.tls.cert_pem : credential.cert_pem;
    if (client_ && cert == client_cert_) return stream ? stream_client_ : client_;
    net::ClientConfig config;
    config.tls = connection_.tls;
    config.tls.cert_pem = cert;
    if (!credential.key_pem.empty()) config.tls.key_pem = credential.key_pem;
    try {
        config.timeout = options_.timeout;
        client_ = std::make_shared<net::HttpClient>(connection_.server, config);
        config.timeout = options_.stream_timeout;
        stream_client_ = std::make_shared<net::HttpClient>(connection_.server, config);
        client_cert_ = cert;
    } catch (const Error& e) {
        problem = e.what();
        client_.reset();
        return nullptr;
    }
    return stream ? stream_client_ : client_;
}

ApiResult ApiClient::attempt(net::Request request, const std::function<bool(std::string_view)>* on_chunk,
                             const net::CancelToken* cancel, net::Delivery delivery, Credential& used) {
    ApiResult r;
    std::optional<RequestAttributes> attributes = request_attributes(request.method, request.target);
    if (attributes && options_.declared_only && !declared_verb(*attributes)) {
        r.failure = net::Failure::cancelled;  // never sent, never retried
        r.problem = request.method + " " + request.target + " needs " + attributes->rule() +
                    ", which kdesched does not declare (a defect: add it to api_verbs() in "
                    "core/kube/resources.cpp and to deploy/base/rbac.yaml)";
        return r;
    }
    try {
        used = credentials_.current();
    } catch (const Error& e) {
        r.failure = net::Failure::connection;
        r.problem = std::string("no credentials: ") + e.what();
        return r;
    }
    std::shared_ptr<net::HttpClient> client = client_for(used, on_chunk != nullptr, r.problem);
    if (!client) {
        r.failure = net::Failure::connection;
        return r;
    }
    if (!used.authorization.empty()) request.headers.emplace_back("Authorization", used.authorization);
    limiter_.wait();
    auto started = std::chrono::steady_clock::now();
    net::Response resp = on_chunk ? client->stream(request, *on_chunk, cancel, delivery) : client->send(request);
    r.failure = resp.failure;
    r.problem = resp.problem;
    r.code = resp.status;
    r.body = std::move(resp.body);
    r.headers = std::move(resp.headers);
    if (r.answered() && !r.ok()) r.status = parse_status(r.body);
    if (r.code == 403 && attributes && authorization_denied(r.status)) {
        r.forbidden_rule = attributes->rule();
        // Whatever asked, an operator must add a rule: say it once per rule, where it shows.
        std::lock_guard lock(mutex_);
        if (forbidden_said_.insert(r.forbidden_rule).second)
            spdlog::error("forbidden: {} {}: {}", request.method, request.target, r.describe());
    }
    if (observer_)
        observer_({request.method, request.target, r.answered() ? r.code : 0,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()});
    return r;
}

ApiResult ApiClient::call(net::Request request, bool retry_too_many) {
    ApiResult r;
    bool refreshed = false;
    for (int n = 1;; ++n) {
        Credential used;
        r = attempt(request, nullptr, nullptr, net::Delivery::as_it_arrives, used);
        r.attempts = n;
        if (r.code == 401 && !refreshed) {  // credentials may have rotated: fetch new ones once
            credentials_.rejected(used.generation);
            refreshed = true;
            continue;
        }
        if (!retryable(r) || (r.code == 429 && !retry_too_many) || n >= options_.max_attempts) return r;
        std::this_thread::sleep_for(retry_after(r).value_or(backoff(n)));
    }
}

ApiResult ApiClient::stream(net::Request request, const std::function<bool(std::string_view)>& on_chunk,
                            const net::CancelToken* cancel, net::Delivery delivery) {
    Credential used;
    ApiResult r = attempt(request, &on_chunk, cancel, delivery, used);
    r.attempts = 1;
    if (r.code == 401) {
        credentials_.rejected(used.generation);
        r = attempt(request, &on_chunk, cancel, delivery, used);
        r.attempts = 2;
    }
    return r;
}

}  // namespace kd::core::kube
