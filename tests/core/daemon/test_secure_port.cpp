// The secure port as kubernetes-sigs/descheduler's chart (an HTTPS liveness probe on 10258) and a
// Prometheus scraping over TLS see it: every endpoint answers over TLS, with a self-signed
// certificate that a client can verify for 127.0.0.1 and localhost when it trusts it, or with the
// operator's files, read again when they change; a plain-HTTP client and a TLS version under the
// minimum get no answer; files that do not make a key pair are refused naming the file.
#include "daemon/health_server.hpp"
#include "daemon/secure_serving.hpp"
#include "error.hpp"
#include "net/http_client.hpp"
#include "net/self_signed.hpp"

#include "temp_dir.hpp"
#include "test_pki.hpp"

#include <openssl/x509.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <catch2/catch.hpp>

#include <ctime>
#include <fstream>
#include <sstream>

using namespace kd::core;
using namespace std::chrono_literals;

namespace {

// Certificates made for the test are valid from an hour before this.
int64_t now_s() {
    return std::time(nullptr);
}

std::string read(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// GET over HTTPS trusting only `ca_pem` (the server's own certificate when self-signed).
std::pair<int, std::string> get_tls(int port, const std::string& path, const std::string& ca_pem,
                                    const std::string& host = "127.0.0.1") {
    net::ClientConfig config;
    config.timeout = 3s;
    config.tls.use_system_store = false;
    config.tls.ca_pem = ca_pem;
    net::HttpClient c("https://" + host + ":" + std::to_string(port), config);
    auto r = c.send({"GET", path, {}, "", ""});
    return {r.answered() ? r.status : 0, r.body};
}

std::pair<int, std::string> get_plain(int port, const std::string& path) {
    net::ClientConfig config;
    config.timeout = 3s;
    net::HttpClient c("http://127.0.0.1:" + std::to_string(port), config);
    auto r = c.send({"GET", path, {}, "", ""});
    return {r.answered() ? r.status : 0, r.body};
}

struct Served {
    daemon::HealthState state;
    std::shared_ptr<daemon::ServingCertificates> certificates;
    std::unique_ptr<daemon::HealthServer> server;
    int plain_port = 0, secure_port = 0;
    int64_t made_at = now_s();

    explicit Served(daemon::SecureServing serving) {
        serving.address = "127.0.0.1:0";
        certificates = std::make_shared<daemon::ServingCertificates>(serving, "kdesched-0", made_at);
        state.beat();
        state.set_ready("");
        server = std::make_unique<daemon::HealthServer>(
            "127.0.0.1:0", "127.0.0.1:0", state, [] { return std::string("m 1\n"); }, nullptr,
            daemon::HealthServerLimits{}, nullptr, certificates);
        auto ports = server->ports();
        REQUIRE(ports.size() == 2);
        plain_port = ports[0];
        secure_port = ports[1];
    }
};

// The certificate the secure port presents, as PEM: what a client that trusts only it needs.
std::string presented_certificate(int port) {
    boost::asio::io_context io;
    boost::asio::ssl::context ctx(boost::asio::ssl::context::tls_client);
    boost::asio::ssl::stream<boost::asio::ip::tcp::socket> s(io, ctx);
    s.next_layer().connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)});
    s.handshake(boost::asio::ssl::stream_base::client);
    X509* peer = SSL_get1_peer_certificate(s.native_handle());
    REQUIRE(peer);
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_X509(bio, peer);
    char* data = nullptr;
    long size = BIO_get_mem_data(bio, &data);
    std::string pem(data, static_cast<size_t>(size));
    BIO_free(bio);
    X509_free(peer);
    return pem;
}

// Whether a TLS client capped at `max_version` completes a handshake.
bool handshake_with_max(int port, int max_version) {
    boost::asio::io_context io;
    boost::asio::ssl::context ctx(boost::asio::ssl::context::tls_client);
    SSL_CTX_set_max_proto_version(ctx.native_handle(), max_version);
    boost::asio::ssl::stream<boost::asio::ip::tcp::socket> s(io, ctx);
    s.next_layer().connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)});
    boost::system::error_code ec;
    s.handshake(boost::asio::ssl::stream_base::client, ec);
    return !ec;
}

std::string subject_of(const std::string& pem) {
    BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
    X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    REQUIRE(cert);
    char buf[256];
    X509_NAME_oneline(X509_get_subject_name(cert), buf, sizeof buf);
    X509_free(cert);
    return buf;
}

}  // namespace

TEST_CASE("secure port: every endpoint over TLS with a self-signed certificate for the pod, localhost and 127.0.0.1") {
    Served s{daemon::SecureServing{}};
    const std::string cert = presented_certificate(s.secure_port);
    CHECK(subject_of(cert) == "/CN=kdesched-0@" + std::to_string(s.made_at));
    // Verified as a client that trusts it: the names hold for 127.0.0.1 and localhost.
    CHECK(get_tls(s.secure_port, "/healthz", cert) == std::pair<int, std::string>{200, "ok"});
    CHECK(get_tls(s.secure_port, "/healthz", cert, "localhost") == std::pair<int, std::string>{200, "ok"});
    CHECK(get_tls(s.secure_port, "/readyz", cert) == std::pair<int, std::string>{200, "ok"});
    CHECK(get_tls(s.secure_port, "/metrics", cert) == std::pair<int, std::string>{200, "m 1\n"});
    CHECK(get_tls(s.secure_port, "/nope", cert).first == 404);
    // The plain listeners are unchanged; plain HTTP to the secure port gets no answer.
    CHECK(get_plain(s.plain_port, "/healthz") == std::pair<int, std::string>{200, "ok"});
    CHECK(get_plain(s.secure_port, "/healthz").first == 0);
    // A client that trusts another certificate refuses it (a real handshake, not a pass-through).
    CHECK(get_tls(s.secure_port, "/healthz", net::self_signed_certificate("other", now_s()).certificate).first == 0);
    CHECK(s.certificates->source() == "a self-signed certificate for kdesched-0 (in memory)");
}

TEST_CASE("secure port: the minimum TLS version is enforced, TLS 1.2 is the default") {
    daemon::SecureServing tls13;
    tls13.min_tls_version = 0x0304;
    Served strict{tls13};
    CHECK_FALSE(handshake_with_max(strict.secure_port, 0x0303));
    CHECK(handshake_with_max(strict.secure_port, 0x0304));
    Served by_default{daemon::SecureServing{}};
    CHECK(handshake_with_max(by_default.secure_port, 0x0303));
    CHECK_FALSE(handshake_with_max(by_default.secure_port, 0x0302));
}

TEST_CASE("secure port: the operator's files are served, and served again when they change") {
    kd_test::TestPki pki;
    kd_test::TempDir dir("secure-port");
    const auto first = net::self_signed_certificate("first", now_s());
    std::string cert_file = dir.write("tls.crt", first.certificate);
    std::string key_file = dir.write("tls.key", first.private_key);
    daemon::SecureServing serving;
    serving.certificate_file = cert_file;
    serving.private_key_file = key_file;
    Served s{serving};
    s.certificates->recheck = 0ms;
    CHECK(s.certificates->source() == cert_file + " and " + key_file);
    CHECK(get_tls(s.secure_port, "/healthz", first.certificate).first == 200);

    // Rotated in place (cert-manager): the next connection gets the CA-signed pair.
    dir.write("tls.crt", read(pki.server_cert()));
    dir.write("tls.key", read(pki.server_key()));
    CHECK(get_tls(s.secure_port, "/healthz", read(pki.ca_cert())).first == 200);
    CHECK(get_tls(s.secure_port, "/healthz", first.certificate).first == 0);

    // Half-written (a key that is not the certificate's): the last good pair stays in use.
    dir.write("tls.key", read(pki.other_key()));
    CHECK(get_tls(s.secure_port, "/healthz", read(pki.ca_cert())).first == 200);
}

TEST_CASE("secure port: files that do not make a key pair are refused, naming the file and what to do") {
    kd_test::TestPki pki;
    auto problem = [](const std::string& cert, const std::string& key) -> std::string {
        try {
            daemon::read_key_pair(cert, key);
        } catch (const Error& e) {
            return e.what();
        }
        return "";
    };
    CHECK(problem(pki.server_cert(), pki.server_key()).empty());
    CHECK(problem(pki.server_cert(), "") ==
          "--tls-cert-file / --tls-private-key-file: only one of the two is given (give both (a certificate and "
          "its key), or neither for a self-signed certificate)");
    CHECK(problem(pki.server_cert(), "/nonexistent/tls.key") ==
          "/nonexistent/tls.key: cannot read the file given to --tls-private-key-file (check the path and its mount)");
    CHECK(problem(pki.garbage(), pki.server_key()) ==
          pki.garbage() +
              ": holds no PEM certificate (-----BEGIN CERTIFICATE----- block) (give --tls-cert-file a PEM "
              "certificate (the CA's after it, if any))");
    CHECK(problem(pki.server_cert(), pki.garbage()) ==
          pki.garbage() + ": holds no PEM private key (give --tls-private-key-file the certificate's PEM private key)");
    CHECK(problem(pki.server_cert(), pki.other_key()) ==
          pki.other_key() + ": the private key does not match the certificate in " + pki.server_cert() +
              " (give the key the certificate was issued for)");
    // At start-up the same: the daemon does not start with a secure port it cannot serve.
    daemon::SecureServing serving;
    serving.address = "127.0.0.1:0";
    serving.certificate_file = pki.server_cert();
    serving.private_key_file = pki.other_key();
    CHECK_THROWS_WITH(daemon::ServingCertificates(serving, "h", 0), Catch::Contains("does not match"));
}
