// A serving certificate made at start-up when none is given, as kubernetes-sigs/descheduler and
// koord-descheduler do for their secure port (k8s.io/apiserver's SecureServingOptions at
// sigs.k8s.io/descheduler v0.35.1, vendor/k8s.io/apiserver/pkg/server/options/serving.go): kept
// in memory only, so a restarted pod makes a new one. Clients (the kubelet's HTTPS probes,
// Prometheus with insecureSkipVerify) do not verify it; it exists so that the port speaks TLS.
#pragma once

#include <cstdint>
#include <string>

namespace kd::core::net {

struct PemKeyPair {
    std::string certificate, private_key;
};

// An EC P-256 key and a certificate for it signed by itself: subject CN "<host>@<unix seconds>",
// subject alternative names `host`, localhost, 127.0.0.1 and ::1, valid from an hour before
// `now_s` for a year, for server authentication (and, being its own issuer, a CA: a client
// verifies it by trusting it). Throws kd::core::Error if OpenSSL fails.
PemKeyPair self_signed_certificate(const std::string& host, int64_t now_s);

}  // namespace kd::core::net
