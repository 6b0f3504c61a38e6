// A throw-away PKI made at test time with the openssl command: a CA, a server certificate for
// 127.0.0.1 (and localhost) and a client certificate (CN "tester") signed by it, and a second,
// unrelated key, in a fresh temporary directory removed afterwards.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace kd_test {

class TestPki {
public:
    TestPki()
        : dir_(std::filesystem::temp_directory_path() /
               ("kdesched-test-pki-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++))) {
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
        const std::string d = dir_.string();
        const std::string key = " -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
        run("openssl req -x509" + key + " -keyout " + d + "/ca.key -out " + d +
            "/ca.crt -days 2 -subj '/CN=kdesched test CA'");
        run("openssl req" + key + " -keyout " + d + "/server.key -out " + d + "/server.csr -subj '/CN=127.0.0.1'");
        write(dir_ / "san.ext", "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        run("openssl x509 -req -in " + d + "/server.csr -CA " + d + "/ca.crt -CAkey " + d +
            "/ca.key -CAcreateserial -days 2 -extfile " + d + "/san.ext -out " + d + "/server.crt");
        run("openssl req" + key + " -keyout " + d + "/client.key -out " + d + "/client.csr -subj '/CN=tester'");
        run("openssl x509 -req -in " + d + "/client.csr -CA " + d + "/ca.crt -CAkey " + d +
            "/ca.key -CAcreateserial -days 2 -out " + d + "/client.crt");
        // A server certificate for the in-cluster name only: reached by IP with tls-server-name.
        write(dir_ / "named.ext", "subjectAltName=DNS:kubernetes.default.svc\n");
        run("openssl req -new -key " + d + "/server.key -out " + d + "/named.csr -subj '/CN=kubernetes'");
        run("openssl x509 -req -in " + d + "/named.csr -CA " + d + "/ca.crt -CAkey " + d +
            "/ca.key -CAcreateserial -days 2 -extfile " + d + "/named.ext -out " + d + "/named.crt");
        run("openssl genpkey -algorithm ec -pkeyopt ec_paramgen_curve:prime256v1 -out " + d + "/other.key");
        write(dir_ / "garbage.pem", "not a certificate\n");
    }
    ~TestPki() { std::filesystem::remove_all(dir_); }
    TestPki(const TestPki&) = delete;
    TestPki& operator=(const TestPki&) = delete;

    std::string ca_cert() const { return (dir_ / "ca.crt").string(); }
    std::string server_cert() const { return (dir_ / "server.crt").string(); }
    std::string server_key() const { return (dir_ / "server.key").string(); }
    std::string garbage() const { return (dir_ / "garbage.pem").string(); }
    std::string named_cert() const { return (dir_ / "named.crt").string(); }  // key: server_key()
    std::string client_cert() const { return (dir_ / "client.crt").string(); }
    std::string client_key() const { return (dir_ / "client.key").string(); }
    std::string other_key() const { return (dir_ / "other.key").string(); }  // belongs to no certificate
    std::string dir() const { return dir_.string(); }

private:
    static int& counter() {
        static int n = 0;
        return n;
    }
    static void write(const std::filesystem::path& file, const std::string& text) { std::ofstream(file) << text; }
    static void run(const std::string& cmd) {
        if (std::system((cmd + " >/dev/null 2>&1").c_str()) != 0)
            throw std::runtime_error("TestPki: failed: " + cmd + " (is the openssl command installed?)");
    }
    std::filesystem::path dir_;
};

}  // namespace kd_test
