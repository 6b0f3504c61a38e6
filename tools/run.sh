#!/usr/bin/env bash
# Builds kdesched and runs the main job: the offline simulation of the example cluster
# examples/clusters/hotspot.json (embedded in the binary) with the load-aware profile
# profiles/load-aware.yaml (LowNodeLoad + MigrationController), so that the hotspot is relieved.
# The embedded default profile is Koordinator's, which enables no balance plugin and so moves
# nothing. Extra arguments go to `kdesched simulate` (e.g. --cycles 10 --explain, --output json,
# --config PROFILE --cluster SNAPSHOT); a --config of yours replaces the load-aware profile.
# BUILD_DIR (default build) is the CMake build folder.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
tools/install-deps.sh
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$(nproc)" --target kdesched kdesched_plugins
config=(--config profiles/load-aware.yaml)
for a in "$@"; do
  case "$a" in --config | --config=*) config=() ;; esac
done
exec "$build"/bin/kdesched simulate "${config[@]}" "$@"
