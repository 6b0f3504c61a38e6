// `kdesched run`'s secure-port flags, named and read as k8s.io/apiserver's SecureServingOptions
// (kubernetes-sigs/descheduler v0.35.1 and koord-descheduler take them): --secure-port,
// --bind-address, --tls-cert-file, --tls-private-key-file, --tls-min-version, --cert-dir.
// kdesched's own default is no secure port (its manifests probe HTTP 10251); the drop-in command
// line (foreign_command_line.hpp) turns on upstream's 10258.
#pragma once

#include "daemon/secure_serving.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace kd::cli {

constexpr int kUpstreamSecurePort = 10258;

struct SecureServingFlags {
    int port = 0;  // 0: no secure port
    std::string bind_address = "0.0.0.0";
    std::string certificate_file, private_key_file, min_version, cert_dir;
};

void add_secure_serving_flags(CLI::App& cmd, SecureServingFlags& flags);

// What the daemon serves, or nullopt for port 0. Throws kd::core::Error naming the flag for a
// version or address it cannot use (the files are read when the daemon starts).
std::optional<core::daemon::SecureServing> secure_serving_of(const SecureServingFlags& flags);

}  // namespace kd::cli
