#!/usr/bin/env bash
# Builds kdesched and runs the main job on the embedded default: the offline simulation of the
# example cluster examples/clusters/hotspot.json with the default profile profiles/default.yaml.
# Extra arguments go to `kdesched simulate` (e.g. --cycles 10 --explain, --output json,
# --config PROFILE --cluster SNAPSHOT).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)" --target kdesched kdesched_plugins
exec build/bin/kdesched simulate "$@"
