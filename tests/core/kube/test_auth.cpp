// Connecting as kubectl does, against the test API server: TLS verified against the kubeconfig's
// CA (and refused without it), bearer tokens, client certificates, exec credential plugins run
// again after a 401, and tls-server-name.
#include "fake_apiserver.hpp"
#include "kube/client/api_client.hpp"
#include "test_pki.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace kd::core;
using kd_test::FakeApiServer;

namespace {

std::string read(const std::string& file) {
    std::ifstream in(file);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

kube::ApiResult list_pods(kube::ApiClient& client) {
    return client.call({"GET", "/api/v1/pods", {{"Accept", "application/json"}}, "", ""});
}

kube::ClientOptions quick() {
    kube::ClientOptions o;
    o.qps = 0;
    o.max_attempts = 2;
    o.backoff_base = std::chrono::milliseconds(10);
    return o;
}

// The user the server saw on its last request.
std::string last_user(FakeApiServer& s, net::HttpClient& via) {
    rapidjson::Document d;
    d.Parse(s.control("GET", "requests", "", &via).c_str());
    const auto& all = d["requests"].GetArray();
    return all[all.Size() - 1]["user"].IsString() ? all[all.Size() - 1]["user"].GetString() : "";
}

}  // namespace

TEST_CASE("auth: TLS is verified against the kubeconfig's CA — a bearer token authenticates", "[kube][auth]") {
    kd_test::TestPki pki;
    FakeApiServer server({{"--tls-cert", pki.server_cert(), "--tls-key", pki.server_key(), "--token", "s3cret"}, true});
    kube::Connection c;
    c.server = server.url();
    c.tls.ca_pem = read(pki.ca_cert());
    c.tls.use_system_store = false;
    c.token = "s3cret";
    kube::ApiClient ok(c, quick());
    CHECK(list_pods(ok).code == 200);

    c.token = "wrong";
    kube::ApiClient wrong(c, quick());
    kube::ApiResult r = list_pods(wrong);
    CHECK(r.code == 401);
    CHECK(r.describe() == "HTTP 401 Unauthorized: Unauthorized");

    kube::Connection untrusted = c;  // the system store does not know the test CA
    untrusted.tls.ca_pem.clear();
    untrusted.tls.use_system_store = true;
    r = list_pods(*std::make_unique<kube::ApiClient>(untrusted, quick()));
    CHECK_FALSE(r.answered());
    CHECK_THAT(r.describe(), Catch::StartsWith("no connection"));

    kube::Connection insecure = untrusted;  // insecure-skip-tls-verify
    insecure.tls.insecure_skip_verify = true;
    insecure.token = "s3cret";
    CHECK(list_pods(*std::make_unique<kube::ApiClient>(insecure, quick())).code == 200);
}

TEST_CASE("auth: tls-server-name verifies the certificate for that name when the server is reached by address",
          "[kube][auth]") {
    kd_test::TestPki pki;
    FakeApiServer server({{"--tls-cert", pki.named_cert(), "--tls-key", pki.server_key()}, true});
    kube::Connection c;
    c.server = server.url();  // https://127.0.0.1:port; the certificate names kubernetes.default.svc only
    c.tls.ca_pem = read(pki.ca_cert());
    c.tls.use_system_store = false;
    CHECK_FALSE(list_pods(*std::make_unique<kube::ApiClient>(c, quick())).answered());
    c.tls.server_name = "kubernetes.default.svc";
    CHECK(list_pods(*std::make_unique<kube::ApiClient>(c, quick())).code == 200);
}

TEST_CASE("auth: a client certificate authenticates as its common name", "[kube][auth]") {
    kd_test::TestPki pki;
    FakeApiServer server(
        {{"--tls-cert", pki.server_cert(), "--tls-key", pki.server_key(), "--client-ca", pki.ca_cert()}, true});
    kube::Connection c;
    c.server = server.url();
    c.tls.ca_pem = read(pki.ca_cert());
    c.tls.use_system_store = false;
    c.tls.cert_pem = read(pki.client_cert());
    c.tls.key_pem = read(pki.client_key());
    kube::ApiClient client(c, quick());
    CHECK(list_pods(client).code == 200);
    net::ClientConfig control;
    control.tls = c.tls;
    net::HttpClient via(server.url(), control);
    CHECK(last_user(server, via) == "tester");

    c.tls.cert_pem.clear();
    c.tls.key_pem.clear();
    CHECK(list_pods(*std::make_unique<kube::ApiClient>(c, quick())).code == 401);
}

TEST_CASE("auth: an exec credential plugin's token, fetched again after a 401", "[kube][auth]") {
    FakeApiServer server({{"--token", "t1"}, false});
    std::string dir = std::filesystem::temp_directory_path() / ("kdesched-exec-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    // Prints t1 on its first run, t2 after (a token that rotated).
    std::string script = dir + "/plugin.sh";
    std::ofstream(script)
        << "#!/bin/sh\nn=$(cat " + dir + "/n 2>/dev/null || echo 0)\nn=$((n+1))\necho $n > " + dir +
               "/n\necho '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
               "\"status\":{\"token\":\"t'$n'\"}}'\n";
    std::filesystem::permissions(script, std::filesystem::perms::owner_all);
    kube::Connection c;
    c.server = server.url();
    kube::ExecConfig e;
    e.api_version = "client.authentication.k8s.io/v1";
    e.command = script;
    e.where = "test";
    c.exec = e;
    kube::ApiClient client(c, quick());
    CHECK(list_pods(client).code == 200);
    CHECK(client.credentials().exec_runs() == 1);
    server.settings(R"({"tokens":["t2"]})");  // t1 is revoked
    CHECK(list_pods(client).code == 200);     // 401, then the plugin again, then t2
    CHECK(client.credentials().exec_runs() == 2);
    std::filesystem::remove_all(dir);
}
