#include "cli/secure_serving_flags.hpp"

#include "error.hpp"

#include <boost/asio/ip/address.hpp>

#include <array>
#include <utility>

namespace kd::cli {

namespace {

// --tls-min-version's values, as k8s.io/component-base/cli/flag's TLSVersion reads them.
constexpr std::array<std::pair<std::string_view, int>, 4> kVersions = {{
    {"VersionTLS10", 0x0301},
    {"VersionTLS11", 0x0302},
    {"VersionTLS12", 0x0303},
    {"VersionTLS13", 0x0304},
}};

}  // namespace

void add_secure_serving_flags(CLI::App& cmd, SecureServingFlags& f) {
    cmd.add_option("--secure-port", f.port,
                   "Serve /healthz, /readyz, /metrics and /debug over HTTPS on this port as well (kubernetes-sigs/"
                   "descheduler's and koord-descheduler's 10258, which their command lines get by default); 0: "
                   "not at all")
        ->check(CLI::Range(0, 65535))
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)
        ->capture_default_str();
    cmd.add_option("--bind-address", f.bind_address, "The IP address the secure port listens on")
        ->capture_default_str();
    cmd.add_option("--tls-cert-file", f.certificate_file,
                   "PEM certificate of the secure port (the CA's after it, if any); read again when it changes. "
                   "Without it and --tls-private-key-file, a self-signed certificate made at start-up");
    cmd.add_option("--tls-private-key-file", f.private_key_file, "PEM private key of --tls-cert-file");
    cmd.add_option("--tls-min-version", f.min_version,
                   "Lowest TLS version the secure port accepts: VersionTLS10, VersionTLS11, VersionTLS12 (the "
                   "default) or VersionTLS13");
    cmd.add_option("--cert-dir", f.cert_dir,
                   "Accepted for kubernetes-sigs/descheduler's command line; as there, nothing is written to it: "
                   "the self-signed certificate stays in memory");
}

std::optional<core::daemon::SecureServing> secure_serving_of(const SecureServingFlags& f) {
    if (f.port == 0) return std::nullopt;
    core::daemon::SecureServing out;
    boost::system::error_code ec;
    auto ip = boost::asio::ip::make_address(f.bind_address, ec);
    if (ec)
        throw core::Error("--bind-address", "\"" + f.bind_address + "\" is not an IP address",
                          "give one such as 0.0.0.0, :: or 127.0.0.1");
    out.address = (ip.is_v6() ? "[" + f.bind_address + "]" : f.bind_address) + ":" + std::to_string(f.port);
    if (!f.min_version.empty()) {
        auto v =
            std::find_if(kVersions.begin(), kVersions.end(), [&](const auto& e) { return e.first == f.min_version; });
        if (v == kVersions.end())
            throw core::Error("--tls-min-version", "unknown TLS version \"" + f.min_version + "\"",
                              "use VersionTLS10, VersionTLS11, VersionTLS12 or VersionTLS13");
        out.min_tls_version = v->second;
    }
    out.certificate_file = f.certificate_file;
    out.private_key_file = f.private_key_file;
    return out;
}

}  // namespace kd::cli
