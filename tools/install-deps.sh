#!/usr/bin/env bash
# Installs kdesched's build dependencies from Debian packages when any is missing.
# Idempotent and quiet when everything is there; needs root (or sudo) only when installing.
#   tools/install-deps.sh [PACKAGE...]   # extra packages a script needs besides (e.g. clang to fuzz)
set -euo pipefail

packages=(
  build-essential cmake pkg-config     # compiler and build system
  libboost-dev                         # Boost.DLL (plugin loading), Boost.Asio (via cpprestsdk)
  libcpprest-dev libssl-dev            # cpprestsdk: Kubernetes API and Pod Picker HTTP(S) clients
  rapidjson-dev                        # JSON: cluster snapshots, plugin args
  libyaml-cpp-dev                      # YAML: profiles, YAML snapshots
  catch2                               # tests (Catch2 v2)
  libcli11-dev                         # command line
  libspdlog-dev libfmt-dev             # logging
  prometheus-cpp-dev                   # /metrics
  clang-format                         # style check in CI
  lld                                  # the linker the build uses when present (links ~5x faster)
  python3 openssl                      # example Pod Picker service; TLS test certificates
  libprotobuf-dev protobuf-compiler    # kdesched-bench-protobuf only (skipped by the build without them)
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
