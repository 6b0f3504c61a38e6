#!/usr/bin/env bash
# Builds kdesched and runs the main job on the embedded default: loads the default profile and
# every plugin, and prints what each descheduling cycle would run. Extra arguments go to
# `kdesched plan` (e.g. --config my-profile.yaml).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)" --target kdesched kdesched_plugins
exec build/bin/kdesched plan "$@"
