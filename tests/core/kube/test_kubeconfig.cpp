// Finding the API server and the credentials as kubectl does: kubeconfig precedence, merging a
// $KUBECONFIG list, contexts, relative paths, TLS material checked where it is configured, the
// in-cluster service account — and a clear message naming file, line, context or user otherwise.
#include "error.hpp"
#include "kube/client/kubeconfig.hpp"
#include "test_pki.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace kd::core;
using namespace kd::core::kube;
namespace fs = std::filesystem;

namespace {

struct Dir {
    fs::path path;
    Dir() {
        std::string t = (fs::temp_directory_path() / "kdesched-kubeconfig-XXXXXX").string();
        path = mkdtemp(t.data());
    }
    ~Dir() { fs::remove_all(path); }
    std::string write(const std::string& name, const std::string& text) const {
        fs::create_directories((path / name).parent_path());
        std::ofstream(path / name) << text;
        return (path / name).string();
    }
};

std::string read(const std::string& file) {
    std::ifstream in(file);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

// Sets an environment variable for the test's lifetime.
struct Env {
    std::string name;
    std::optional<std::string> old;
    Env(std::string n, const std::optional<std::string>& value) : name(std::move(n)) {
        if (const char* v = std::getenv(name.c_str())) old = v;
        if (value)
            ::setenv(name.c_str(), value->c_str(), 1);
        else
            ::unsetenv(name.c_str());
    }
    ~Env() {
        if (old)
            ::setenv(name.c_str(), old->c_str(), 1);
        else
            ::unsetenv(name.c_str());
    }
};

const char* kTwoContexts = R"(apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: dev-cluster
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority: certs/ca.crt
    tls-server-name: kubernetes.default.svc
- name: prod-cluster
  cluster:
    server: https://prod.example:443
    insecure-skip-tls-verify: true
users:
- name: dev-user
  user:
    tokenFile: secrets/token
- name: prod-user
  user:
    token: abc
contexts:
- name: dev
  context: {cluster: dev-cluster, user: dev-user, namespace: shop}
- name: prod
  context: {cluster: prod-cluster, user: prod-user}
)";

}  // namespace

TEST_CASE("kubeconfig: the current context, paths relative to the file, TLS material read and checked",
          "[kube][kubeconfig]") {
    Dir d;
    kd_test::TestPki pki;
    d.write("certs/ca.crt", read(pki.ca_cert()));
    std::string file = d.write("kube/config", kTwoContexts);
    fs::create_directories(d.path / "kube/certs");
    fs::copy_file(d.path / "certs/ca.crt", d.path / "kube/certs/ca.crt");
    Connection c = read_kubeconfig({file}, "");
    CHECK(c.context == "dev");
    CHECK(c.server == "https://127.0.0.1:6443");
    CHECK(c.tls.ca_pem == read(pki.ca_cert()));
    CHECK_FALSE(c.tls.use_system_store);  // a kubeconfig's CA replaces the system's
    CHECK(c.tls.server_name == "kubernetes.default.svc");
    CHECK(c.token_file == (d.path / "kube/secrets/token").string());
    CHECK(c.namespace_ == "shop");
    CHECK(c.warnings.empty());

    Connection prod = read_kubeconfig({file}, "prod");
    CHECK(prod.token == "abc");
    CHECK(prod.tls.insecure_skip_verify);
    REQUIRE(prod.warnings.size() == 1);
    CHECK_THAT(prod.warnings[0],
               Catch::Contains("config:13:31: cluster prod-cluster sets insecure-skip-tls-verify: the "
                               "API server's certificate is not verified"));
}

TEST_CASE("kubeconfig: a $KUBECONFIG list merges as kubectl merges: the first file naming an entry wins",
          "[kube][kubeconfig]") {
    Dir d;
    std::string a = d.write("a", R"(clusters:
- {name: c, cluster: {server: "https://a:1"}}
users:
- {name: u, user: {token: from-a}}
contexts:
- {name: x, context: {cluster: c, user: u}}
)");
    std::string b = d.write("b", R"(current-context: x
clusters:
- {name: c, cluster: {server: "https://b:2"}}
- {name: only-b, cluster: {server: "https://b:3"}}
users:
- {name: u, user: {token: from-b}}
contexts:
- {name: x, context: {cluster: only-b, user: u}}
)");
    Connection c = read_kubeconfig({a, b}, "");  // current-context comes from b, the context from a
    CHECK(c.context == "x");
    CHECK(c.server == "https://a:1");
    CHECK(c.token == "from-a");

    Env home("HOME", d.path.string());
    Env list("KUBECONFIG", "/nonexistent/x:" + b + ":" + a);
    std::string chosen;
    CHECK(kubeconfig_files({}, chosen) == std::vector<std::string>{b, a});  // missing entries skipped
    CHECK(chosen == "$KUBECONFIG");
    CHECK(kubeconfig_files({"", "", "/profile/kubeconfig"}, chosen) == std::vector<std::string>{"/profile/kubeconfig"});
    CHECK(chosen == "clientConnection.kubeconfig");
    CHECK(kubeconfig_files({"/flag", "", "/profile/kubeconfig"}, chosen) == std::vector<std::string>{"/flag"});
    CHECK(chosen == "--kubeconfig");
    Env none("KUBECONFIG", std::nullopt);
    std::string home_config = d.write(".kube/config", "{}");
    CHECK(kubeconfig_files({}, chosen) == std::vector<std::string>{home_config});
    CHECK(chosen == "~/.kube/config");
}

TEST_CASE("kubeconfig: each problem names the file, line, context or user and the field", "[kube][kubeconfig]") {
    Dir d;
    kd_test::TestPki pki;
    std::string f = d.write("config", kTwoContexts);
    CHECK(error_of([&] { read_kubeconfig({f}, "staging"); }) ==
          f + ": context \"staging\" does not exist (contexts: dev, prod) (give one of them with --context)");
    CHECK_THAT(error_of([&] { read_kubeconfig({f}, "dev"); }),
               Catch::Contains(f + ":8:28: clusters[0].cluster.certificate-authority: " +
                               (d.path / "certs/ca.crt").string() + ": cannot read the certificate-authority file"));

    std::string typed = d.write("typed", R"(current-context: x
clusters:
- name: c
  cluster:
    server: 6443
contexts:
- {name: x, context: {cluster: c}}
)");
    CHECK(error_of([&] { read_kubeconfig({typed}, ""); }) ==
          typed + ":5:13: clusters[0].cluster.server: must be a string, got a number");

    std::string bad_ca = d.write("bad-ca", R"(current-context: x
clusters:
- name: c
  cluster: {server: "https://h", certificate-authority-data: bm90IGEgY2VydA==}
contexts:
- {name: x, context: {cluster: c}}
)");
    CHECK_THAT(error_of([&] { read_kubeconfig({bad_ca}, ""); }),
               Catch::Contains("clusters[0].cluster.certificate-authority-data: holds no PEM certificate "
                               "(-----BEGIN CERTIFICATE----- block) (cluster c)"));

    std::string mismatch = d.write("mismatch",
                                   "current-context: x\nclusters:\n- {name: c, cluster: {server: "
                                   "\"https://h\"}}\nusers:\n- name: u\n  user:\n    client-certificate: " +
                                       pki.client_cert() + "\n    client-key: " + pki.other_key() +
                                       "\ncontexts:\n- {name: x, context: {cluster: c, user: u}}\n");
    CHECK_THAT(error_of([&] { read_kubeconfig({mismatch}, ""); }),
               Catch::Contains("users[0].user.client-key: the private key does not match the certificate (user u)"));

    std::string provider = d.write("provider", R"(current-context: x
clusters:
- {name: c, cluster: {server: "https://h"}}
users:
- name: u
  user:
    auth-provider: {name: gcp}
contexts:
- {name: x, context: {cluster: c, user: u}}
)");
    CHECK_THAT(error_of([&] { read_kubeconfig({provider}, ""); }),
               Catch::Contains("users[0].user.auth-provider: auth-provider plugins are not supported (user u) (use an "
                               "exec credential plugin"));

    std::string exec = d.write("exec", R"(current-context: x
clusters:
- {name: c, cluster: {server: "https://h"}}
users:
- name: u
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1alpha1, command: aws}
contexts:
- {name: x, context: {cluster: c, user: u}}
)");
    CHECK_THAT(error_of([&] { read_kubeconfig({exec}, ""); }),
               Catch::Contains("users[0].user.exec.apiVersion: must be client.authentication.k8s.io/v1 or "
                               "client.authentication.k8s.io/v1beta1, got \"client.authentication.k8s.io/v1alpha1\""));
    std::string none = d.write("none", "clusters: []\n");
    CHECK_THAT(error_of([&] { read_kubeconfig({none}, ""); }),
               Catch::Contains("no current-context is set and no --context was given"));
}

TEST_CASE("kubeconfig: an exec credential plugin's settings", "[kube][kubeconfig]") {
    Dir d;
    std::string f = d.write("config", R"(current-context: x
clusters:
- {name: c, cluster: {server: "https://h:443", certificate-authority-data: "", insecure-skip-tls-verify: false}}
users:
- name: u
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: ./bin/get-token
      args: [--cluster, c]
      env: [{name: REGION, value: eu}]
      installHint: install get-token
      provideClusterInfo: true
contexts:
- {name: x, context: {cluster: c, user: u}}
)");
    Connection c = read_kubeconfig({f}, "");
    REQUIRE(c.exec);
    CHECK(c.exec->api_version == "client.authentication.k8s.io/v1beta1");
    CHECK(c.exec->command == (d.path / "bin/get-token").string());
    CHECK(c.exec->args == std::vector<std::string>{"--cluster", "c"});
    CHECK(c.exec->env == std::vector<std::pair<std::string, std::string>>{{"REGION", "eu"}});
    CHECK(c.exec->install_hint == "install get-token");
    CHECK(c.exec->provide_cluster_info);
}

TEST_CASE("in cluster: the service account's token, CA and namespace, and the service address", "[kube][kubeconfig]") {
    Dir d;
    kd_test::TestPki pki;
    d.write("sa/token", "t0\n");
    d.write("sa/ca.crt", read(pki.ca_cert()));
    d.write("sa/namespace", "kdesched-system\n");
    {
        Env host("KUBERNETES_SERVICE_HOST", "fd00::1");
        Env port("KUBERNETES_SERVICE_PORT", "443");
        Connection c = in_cluster_connection((d.path / "sa").string());
        CHECK(c.in_cluster);
        CHECK(c.server == "https://[fd00::1]:443");
        CHECK(c.token_file == (d.path / "sa/token").string());
        CHECK(c.namespace_ == "kdesched-system");
        CHECK(c.tls.ca_pem == read(pki.ca_cert()));
    }
    Env host("KUBERNETES_SERVICE_HOST", std::nullopt);
    Env list("KUBECONFIG", std::nullopt);
    Env home("HOME", d.path.string());
    CHECK_THAT(error_of([&] { load_connection({}); }),
               Catch::Contains("no kubeconfig was found (--kubeconfig, clientConnection.kubeconfig, $KUBECONFIG, "
                               "~/.kube/config) and this is not a pod"));
    CHECK_THAT(
        error_of([&] {
            load_connection({"/nonexistent/kubeconfig", "", ""});
        }),
        Catch::Contains("/nonexistent/kubeconfig: cannot read the kubeconfig (from --kubeconfig): No such file"));
}
