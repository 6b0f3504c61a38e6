// The secure port: kubernetes-sigs/descheduler and koord-descheduler serve /healthz and /metrics
// over HTTPS on 10258 (k8s.io/apiserver's SecureServingOptions; sigs.k8s.io/descheduler v0.35.1,
// cmd/descheduler/app/options/options.go), and kubernetes-sigs/descheduler's chart probes it. The
// certificate is the operator's (--tls-cert-file / --tls-private-key-file, re-read when the files
// change, as upstream's dynamic serving content does when cert-manager rotates them) or one made
// at start-up and kept in memory.
#pragma once

#include "net/self_signed.hpp"

#include <boost/asio/ssl/context.hpp>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>

namespace kd::core::daemon {

// OpenSSL's protocol version numbers (TLS1_2_VERSION …), as --tls-min-version names them.
constexpr int kTls12 = 0x0303;

struct SecureServing {
    std::string address;                             // host:port to listen on
    std::string certificate_file, private_key_file;  // both, or neither for a self-signed certificate
    int min_tls_version = kTls12;                    // Go's default minimum for servers
};

// Reads a certificate (chain) and its key; kd::core::Error naming the file and what to do when a
// file cannot be read, holds no PEM certificate or key, or the two do not belong together.
net::PemKeyPair read_key_pair(const std::string& certificate_file, const std::string& private_key_file);

// The TLS context that new connections use. Thread-safe.
class ServingCertificates {
public:
    // Throws kd::core::Error for files that do not hold a usable key pair.
    ServingCertificates(const SecureServing& serving, const std::string& host, int64_t now_s);

    // With files, they are read again at most every `recheck` when asked; changed and usable, they
    // make a new context (connections already open keep theirs); unusable, the old one stays and
    // the problem is logged once per change.
    std::shared_ptr<boost::asio::ssl::context> current();

    // For the start-up log: the files, or "a self-signed certificate for <host> (in memory)".
    const std::string& source() const { return source_; }
    const std::string& address() const { return serving_.address; }

    std::chrono::milliseconds recheck{std::chrono::seconds(10)};

private:
    std::shared_ptr<boost::asio::ssl::context> context_of(const net::PemKeyPair& pair) const;

    const SecureServing serving_;
    std::string source_;
    std::mutex mutex_;
    std::shared_ptr<boost::asio::ssl::context> context_;
    net::PemKeyPair loaded_;    // what `context_` was made of (files only)
    std::string last_problem_;  // logged once until the files change again
    std::chrono::steady_clock::time_point checked_;
};

}  // namespace kd::core::daemon
