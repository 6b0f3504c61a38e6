// Checks of PEM material before it is used: a certificate or key that does not parse, or a key that
// does not belong to its certificate, is reported where it was configured, not at the first
// handshake as an opaque OpenSSL error.
#pragma once

#include <string>

namespace kd::core::net {

// "" when `pem` holds at least one X.509 certificate, else why not.
std::string certificate_problem(const std::string& pem);
// "" when `pem` holds a private key (RSA, EC, PKCS#8), else why not.
std::string private_key_problem(const std::string& pem);
// "" when the key belongs to the (first) certificate, else why not.
std::string key_pair_problem(const std::string& cert_pem, const std::string& key_pem);

}  // namespace kd::core::net
