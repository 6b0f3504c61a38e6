#include "net/tls_material.hpp"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <memory>

namespace kd::core::net {

namespace {

using Bio = std::unique_ptr<BIO, decltype(&BIO_free)>;
using Cert = std::unique_ptr<X509, decltype(&X509_free)>;
using Key = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;

Bio bio_of(const std::string& pem) {
    return Bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free);
}

Cert first_certificate(const std::string& pem) {
    Bio bio = bio_of(pem);
    return Cert(bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr, &X509_free);
}

Key private_key(const std::string& pem) {
    Bio bio = bio_of(pem);
    return Key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr, &EVP_PKEY_free);
}

}  // namespace

std::string certificate_problem(const std::string& pem) {
    ERR_clear_error();
    if (first_certificate(pem)) return "";
    return pem.find("-----BEGIN CERTIFICATE-----") == std::string::npos
               ? "holds no PEM certificate (-----BEGIN CERTIFICATE----- block)"
               : "holds a PEM certificate block that does not parse";
}

std::string private_key_problem(const std::string& pem) {
    ERR_clear_error();
    if (private_key(pem)) return "";
    return pem.find("PRIVATE KEY-----") == std::string::npos ? "holds no PEM private key"
                                                             : "holds a PEM private key that does not parse";
}

std::string key_pair_problem(const std::string& cert_pem, const std::string& key_pem) {
    Cert cert = first_certificate(cert_pem);
    Key key = private_key(key_pem);
    if (!cert || !key) return "";  // reported by the checks above
    ERR_clear_error();
    return X509_check_private_key(cert.get(), key.get()) == 1 ? "" : "the private key does not match the certificate";
}

void apply_tls(const TlsConfig& tls, boost::asio::ssl::context& ctx) {
    if (!tls.use_system_store) SSL_CTX_set_cert_store(ctx.native_handle(), X509_STORE_new());
    if (!tls.ca_pem.empty()) ctx.add_certificate_authority(boost::asio::buffer(tls.ca_pem));
    if (!tls.cert_pem.empty()) {
        ctx.use_certificate_chain(boost::asio::buffer(tls.cert_pem));
        ctx.use_private_key(boost::asio::buffer(tls.key_pem), boost::asio::ssl::context::pem);
    }
}

}  // namespace kd::core::net
