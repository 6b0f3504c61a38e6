// Credentials kept current: token files re-read when they change, exec credential plugins run,
// cached until their expiry and run again after a 401, with every failure of a plugin said with
// its command, exit code and stderr.
#include "error.hpp"
#include "kube/client/credentials.hpp"

#include <kdesched/rfc3339.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace kd::core;
using namespace kd::core::kube;
namespace fs = std::filesystem;

namespace {

struct Dir {
    fs::path path;
    Dir() {
        std::string t = (fs::temp_directory_path() / "kdesched-credentials-XXXXXX").string();
        path = mkdtemp(t.data());
    }
    ~Dir() { fs::remove_all(path); }
    std::string write(const std::string& name, const std::string& text, bool executable = false) const {
        std::ofstream(path / name) << text;
        if (executable) fs::permissions(path / name, fs::perms::owner_all);
        return (path / name).string();
    }
};

// An exec plugin that counts its runs in `count` and prints an ExecCredential.
std::string plugin_script(const Dir& d, const std::string& body) {
    return d.write("plugin.sh", "#!/bin/sh\necho run >> " + (d.path / "runs").string() + "\n" + body, true);
}

int runs(const Dir& d) {
    std::ifstream in(d.path / "runs");
    int n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
}

Connection exec_connection(const std::string& command, const std::string& version = "client.authentication.k8s.io/v1") {
    Connection c;
    c.server = "https://h";
    ExecConfig e;
    e.api_version = version;
    e.command = command;
    e.env = {{"TOKEN_PREFIX", "tok"}};
    e.install_hint = "install the plugin";
    e.where = "kubeconfig k, user u";
    c.exec = e;
    return c;
}

std::string credential(const std::string& version, const std::string& token, const std::string& expiry) {
    return "cat <<EOF\n{\"apiVersion\":\"" + version + "\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"" +
           token + "\"" + (expiry.empty() ? "" : ",\"expirationTimestamp\":\"" + expiry + "\"") + "}}\nEOF\n";
}

}  // namespace

TEST_CASE("credentials: a static token, and a token file re-read when it changes", "[kube][credentials]") {
    Connection c;
    c.token = "static";
    Credentials fixed(c);
    CHECK(fixed.current().authorization == "Bearer static");

    Dir d;
    Connection f;
    f.token_file = d.write("token", "first\n");
    Credentials file(f);
    Credential one = file.current();
    CHECK(one.authorization == "Bearer first");
    CHECK(file.current().generation == one.generation);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a new modification time
    d.write("token", "second");
    Credential two = file.current();
    CHECK(two.authorization == "Bearer second");
    CHECK(two.generation != one.generation);
    d.write("token", "");
    CHECK_THROWS_WITH(file.current(), Catch::Contains("the token file is empty"));
}

TEST_CASE("credentials: an exec plugin's token is cached until it expires, and fetched again after a 401",
          "[kube][credentials]") {
    Dir d;
    std::string later = kd::format_rfc3339(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count() +
        3'600'000);
    Credentials creds(
        exec_connection(plugin_script(d, credential("client.authentication.k8s.io/v1", "$TOKEN_PREFIX-1", later))));
    Credential c = creds.current();
    CHECK(c.authorization == "Bearer tok-1");  // the kubeconfig's env reached the plugin
    creds.current();
    CHECK(runs(d) == 1);
    creds.rejected(c.generation + 100);  // an old 401: nothing changes
    creds.current();
    CHECK(runs(d) == 1);
    creds.rejected(c.generation);
    CHECK(creds.current().generation != c.generation);
    CHECK(runs(d) == 2);

    // Already expired (within client-go's margin): every call runs the plugin again.
    Dir e;
    Credentials expiring(
        exec_connection(plugin_script(e, credential("client.authentication.k8s.io/v1", "t", "2020-01-01T00:00:00Z"))));
    expiring.current();
    expiring.current();
    CHECK(runs(e) == 2);
}

TEST_CASE("credentials: an exec plugin that fails says how, with its stderr and the install hint",
          "[kube][credentials]") {
    Dir d;
    Credentials failing(exec_connection(plugin_script(d, "echo 'token expired, run login' >&2\nexit 4\n")));
    CHECK_THROWS_WITH(
        failing.current(),
        Catch::Contains("kubeconfig k, user u: exec credential plugin \"" + (d.path / "plugin.sh").string() +
                        "\": exited with code 4: token expired, run login (install the plugin)"));
    Credentials missing(exec_connection("/nonexistent/plugin"));
    CHECK_THROWS_WITH(missing.current(),
                      Catch::Contains("could not run: No such file or directory (install the plugin)"));
    Dir g;
    Credentials garbage(exec_connection(plugin_script(g, "echo 'hello'\n")));
    CHECK_THROWS_WITH(garbage.current(), Catch::Contains("printed something that is not JSON"));
    Dir v;
    Credentials version(exec_connection(plugin_script(v, credential("client.authentication.k8s.io/v1beta1", "t", ""))));
    CHECK_THROWS_WITH(
        version.current(),
        Catch::Contains("printed apiVersion \"client.authentication.k8s.io/v1beta1\" where the kubeconfig "
                        "asks for client.authentication.k8s.io/v1"));
}

TEST_CASE("credentials: ExecCredential answers", "[kube][credentials]") {
    const std::string v1 = "client.authentication.k8s.io/v1";
    auto a = parse_exec_credential(
        R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"x","expirationTimestamp":"2030-01-01T00:00:00Z"}})",
        v1, "p");
    CHECK(a.token == "x");
    REQUIRE(a.expires);
    CHECK_THROWS_WITH(
        parse_exec_credential(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{}})",
                              v1, "p"),
        Catch::Contains("no status.token and no status.clientCertificateData"));
    CHECK_THROWS_WITH(
        parse_exec_credential(
            R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientCertificateData":"x","clientKeyData":"y"}})",
            v1, "p"),
        Catch::Contains("a client certificate or key that is unusable"));
    CHECK_THROWS_WITH(
        parse_exec_credential(
            R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"x","expirationTimestamp":"tomorrow"}})",
            v1, "p"),
        Catch::Contains("status.expirationTimestamp \"tomorrow\", which is not an RFC 3339 time"));

    // Nesting deeper than the JSON limit is refused before it is parsed (it would overflow the stack).
    CHECK_THROWS_WITH(
        parse_exec_credential(R"({"kind":"ExecCredential","status":)" + std::string(300'000, '{'), v1, "p"),
        Catch::Contains("printed JSON nested more than 512 levels deep (the limit)"));

    // Years system_clock cannot hold (past 2262, before 1678): the latest time it can, long past.
    auto far = [&](const std::string& when) {
        return parse_exec_credential(
            R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"x","expirationTimestamp":")" +
                when + R"("}})",
            v1, "p");
    };
    auto now = std::chrono::system_clock::now();
    auto future = far("4052-11-26T07:08:09.123+02:00").expires;
    REQUIRE(future);
    CHECK(*future > now + std::chrono::hours(24 * 365 * 200));
    auto past = far("0001-01-01T00:00:00Z").expires;
    REQUIRE(past);
    CHECK(*past < now - std::chrono::hours(24 * 365 * 200));
}
