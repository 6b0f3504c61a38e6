// The credentials a request carries, kept current: a static bearer token or basic auth; a token
// file re-read when it changes (the in-cluster service-account token at least every minute, as
// bound tokens rotate); or an exec credential plugin (client.authentication.k8s.io ExecCredential)
// whose answer is cached until its expirationTimestamp and fetched again after a 401.
// Thread-safe: reflector threads and the control thread share one.
#pragma once

#include "kube/client/kubeconfig.hpp"

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace kd::core::kube {

struct Credential {
    std::string authorization;      // the Authorization header value ("" = none)
    std::string cert_pem, key_pem;  // a client certificate from an exec plugin ("" = none)
    uint64_t generation = 0;        // changes whenever the credential does
};

class Credentials {
public:
    explicit Credentials(const Connection& connection);

    // The credential to use now; throws kd::core::Error when the token file cannot be read or the
    // exec plugin fails (the message names the plugin command, its exit and its stderr).
    Credential current();
    // A 401 answered a request made with `generation`: drop cached credentials so that the next
    // current() fetches new ones (runs the exec plugin again, re-reads the token file).
    void rejected(uint64_t generation);
    // How often the exec plugin ran (for tests and logs).
    uint64_t exec_runs() const;

private:
    Credential read_token_file();
    Credential run_exec();

    const Connection connection_;
    mutable std::mutex mutex_;
    Credential cached_;
    bool valid_ = false;
    std::optional<std::chrono::system_clock::time_point> expires_;  // exec credentials
    std::chrono::steady_clock::time_point read_at_{};               // token file
    int64_t file_mtime_ns_ = -1;
    uint64_t generation_ = 0, exec_runs_ = 0;
};

// The ExecCredential an exec plugin printed, checked against `api_version`; throws Error naming
// `where` on anything else (not JSON, wrong kind or version, no token and no certificate).
struct ExecAnswer {
    std::string token, cert_pem, key_pem;
    std::optional<std::chrono::system_clock::time_point> expires;
};
ExecAnswer parse_exec_credential(const std::string& output, const std::string& api_version, const std::string& where);

}  // namespace kd::core::kube
