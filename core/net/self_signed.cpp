#include "net/self_signed.hpp"

#include "error.hpp"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <functional>
#include <memory>

namespace kd::core::net {

namespace {

using Bio = std::unique_ptr<BIO, decltype(&BIO_free)>;
using Cert = std::unique_ptr<X509, decltype(&X509_free)>;
using Key = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using Extension = std::unique_ptr<X509_EXTENSION, decltype(&X509_EXTENSION_free)>;

[[noreturn]] void fail(const char* step) {
    char detail[256] = "no detail";
    if (unsigned long e = ERR_get_error()) ERR_error_string_n(e, detail, sizeof detail);
    throw Error("the secure port's self-signed certificate", std::string(step) + " failed: " + detail,
                "give a certificate with --tls-cert-file and --tls-private-key-file");
}

void check(int ok, const char* step) {
    if (ok != 1) fail(step);
}

void add_extension(X509* cert, int nid, const std::string& value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
    Extension ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str()), &X509_EXTENSION_free);
    if (!ext) fail("an X.509 extension");
    check(X509_add_ext(cert, ext.get(), -1), "adding an X.509 extension");
}

std::string pem_of(const std::function<int(BIO*)>& write) {
    Bio bio(BIO_new(BIO_s_mem()), &BIO_free);
    if (!bio) fail("a memory buffer");
    check(write(bio.get()), "writing PEM");
    char* data = nullptr;
    long size = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<size_t>(size));
}

}  // namespace

PemKeyPair self_signed_certificate(const std::string& host, int64_t now_s) {
    ERR_clear_error();
    Key key(EVP_EC_gen("P-256"), &EVP_PKEY_free);
    if (!key) fail("generating an EC P-256 key");
    Cert cert(X509_new(), &X509_free);
    if (!cert) fail("a certificate");
    check(X509_set_version(cert.get(), 2), "setting the certificate's version");  // X.509 v3

    // A random positive 127-bit serial: two certificates made by restarts never share one.
    unsigned char serial_bytes[16];
    check(RAND_bytes(serial_bytes, sizeof serial_bytes), "a random serial number");
    serial_bytes[0] &= 0x7f;
    std::unique_ptr<BIGNUM, decltype(&BN_free)> serial(BN_bin2bn(serial_bytes, sizeof serial_bytes, nullptr), &BN_free);
    if (!serial || !BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(cert.get()))) fail("setting the serial");

    // An hour of slack for clocks behind ours; a year, as k8s.io/client-go/util/cert's self-signed ones.
    if (!X509_time_adj_ex(X509_getm_notBefore(cert.get()), 0, -3600, &now_s) ||
        !X509_time_adj_ex(X509_getm_notAfter(cert.get()), 365, 0, &now_s))
        fail("setting the validity");

    const std::string common_name = host + "@" + std::to_string(now_s);
    X509_NAME* name = X509_get_subject_name(cert.get());
    check(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                                     reinterpret_cast<const unsigned char*>(common_name.c_str()), -1, -1, 0),
          "naming the certificate");
    check(X509_set_issuer_name(cert.get(), name), "setting the issuer");
    check(X509_set_pubkey(cert.get(), key.get()), "setting the public key");

    std::string names = "DNS:localhost,IP:127.0.0.1,IP:::1";
    if (!host.empty() && host != "localhost") names = "DNS:" + host + "," + names;
    add_extension(cert.get(), NID_subject_alt_name, names);
    // Its own issuer, so a client that wants to verify it trusts it as a CA (OpenSSL refuses a
    // trust anchor that may not sign certificates).
    add_extension(cert.get(), NID_basic_constraints, "critical,CA:TRUE");
    add_extension(cert.get(), NID_key_usage, "critical,digitalSignature,keyEncipherment,keyCertSign");
    add_extension(cert.get(), NID_ext_key_usage, "serverAuth");
    if (X509_sign(cert.get(), key.get(), EVP_sha256()) <= 0) fail("signing the certificate");

    PemKeyPair out;
    out.certificate = pem_of([&](BIO* b) { return PEM_write_bio_X509(b, cert.get()); });
    out.private_key =
        pem_of([&](BIO* b) { return PEM_write_bio_PrivateKey(b, key.get(), nullptr, nullptr, 0, nullptr, nullptr); });
    return out;
}

}  // namespace kd::core::net
