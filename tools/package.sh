#!/usr/bin/env bash
# Builds kdesched's Debian package into build/: kdesched_<version>_<arch>.deb (CPack; the
# dependencies are computed by dpkg-shlibdeps). Install it with: apt-get install ./build/kdesched_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)" --target kdesched kdesched_plugins kdesched-generate kdesched_changelog
cd build && cpack -G DEB "$@"
