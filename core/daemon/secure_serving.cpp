#include "daemon/secure_serving.hpp"

#include "error.hpp"
#include "net/tls_material.hpp"

#include <spdlog/spdlog.h>

#include <fstream>
#include <sstream>

namespace kd::core::daemon {

namespace asio = boost::asio;

namespace {

std::string read_file(const std::string& path, const char* flag) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path, "cannot read the file given to " + std::string(flag), "check the path and its mount");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

net::PemKeyPair read_key_pair(const std::string& certificate_file, const std::string& private_key_file) {
    if (certificate_file.empty() != private_key_file.empty())
        throw Error("--tls-cert-file / --tls-private-key-file", "only one of the two is given",
                    "give both (a certificate and its key), or neither for a self-signed certificate");
    net::PemKeyPair pair{read_file(certificate_file, "--tls-cert-file"),
                         read_file(private_key_file, "--tls-private-key-file")};
    if (auto p = net::certificate_problem(pair.certificate); !p.empty())
        throw Error(certificate_file, p, "give --tls-cert-file a PEM certificate (the CA's after it, if any)");
    if (auto p = net::private_key_problem(pair.private_key); !p.empty())
        throw Error(private_key_file, p, "give --tls-private-key-file the certificate's PEM private key");
    if (auto p = net::key_pair_problem(pair.certificate, pair.private_key); !p.empty())
        throw Error(private_key_file, p + " in " + certificate_file, "give the key the certificate was issued for");
    return pair;
}

ServingCertificates::ServingCertificates(const SecureServing& serving, const std::string& host, int64_t now_s)
    : serving_(serving), checked_(std::chrono::steady_clock::now()) {
    if (serving.certificate_file.empty() && serving.private_key_file.empty()) {
        context_ = context_of(net::self_signed_certificate(host, now_s));
        source_ = "a self-signed certificate for " + host + " (in memory)";
        return;
    }
    loaded_ = read_key_pair(serving.certificate_file, serving.private_key_file);
    context_ = context_of(loaded_);
    source_ = serving.certificate_file + " and " + serving.private_key_file;
}

std::shared_ptr<asio::ssl::context> ServingCertificates::context_of(const net::PemKeyPair& pair) const {
    auto ctx = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_server);
    ctx->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                     asio::ssl::context::no_sslv3 | asio::ssl::context::single_dh_use);
    SSL_CTX_set_min_proto_version(ctx->native_handle(), serving_.min_tls_version);
    ctx->use_certificate_chain(asio::buffer(pair.certificate));
    ctx->use_private_key(asio::buffer(pair.private_key), asio::ssl::context::pem);
    return ctx;
}

std::shared_ptr<asio::ssl::context> ServingCertificates::current() {
    std::lock_guard lock(mutex_);
    auto now = std::chrono::steady_clock::now();
    if (serving_.certificate_file.empty() || now - checked_ < recheck) return context_;
    checked_ = now;
    try {
        net::PemKeyPair pair = read_key_pair(serving_.certificate_file, serving_.private_key_file);
        if (pair.certificate == loaded_.certificate && pair.private_key == loaded_.private_key) return context_;
        context_ = context_of(pair);
        loaded_ = std::move(pair);
        last_problem_.clear();
        spdlog::info("secure port: serving the new certificate of {}", source_);
    } catch (const std::exception& e) {
        if (last_problem_ != e.what())
            spdlog::warn("secure port: keeping the certificate in use: {}", last_problem_ = e.what());
    }
    return context_;
}

}  // namespace kd::core::daemon
