// PEM material: checks before it is used (a certificate or key that does not parse, or a key that
// does not belong to its certificate, is reported where it was configured, not at the first
// handshake as an opaque OpenSSL error), and its use in a TLS context.
#pragma once

#include "net/http_types.hpp"

#include <boost/asio/ssl/context.hpp>

#include <string>

namespace kd::core::net {

// Applies the TLS settings to an Asio SSL context (cpprest's for send(), Beast's for stream()):
// the CA certificates (and whether the system's count), the client certificate and key.
// Throws boost::system::system_error for material OpenSSL refuses.
void apply_tls(const TlsConfig& tls, boost::asio::ssl::context& ctx);

// "" when `pem` holds at least one X.509 certificate, else why not.
std::string certificate_problem(const std::string& pem);
// "" when `pem` holds a private key (RSA, EC, PKCS#8), else why not.
std::string private_key_problem(const std::string& pem);
// "" when the key belongs to the (first) certificate, else why not.
std::string key_pair_problem(const std::string& cert_pem, const std::string& key_pem);

}  // namespace kd::core::net
