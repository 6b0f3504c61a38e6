#!/usr/bin/env bash
# ThreadSanitizer over the daemon's threads (reflectors, network, control, health, leader election,
# events): builds build-tsan with clang and KDESCHED_TSAN — the daemon, our plugins and the tests
# that run those threads — and runs those tests; any data race or lock-order report fails them
# (halt_on_error; the daemon under test exits non-zero). CI runs it (.ci/run).
#   tools/tsan.sh                     # BUILD_DIR=build-tsan, JOBS=$(nproc)
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh clang libclang-rt-14-dev
BUILD_DIR=${BUILD_DIR:-build-tsan}
JOBS=${JOBS:-$(nproc)}
CC=clang CXX=clang++ cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKDESCHED_WERROR=ON \
  -DKDESCHED_TSAN=ON >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS" --target kdesched kdesched_plugins daemon_tests kube_server_tests net_tests \
  daemon_integration_tests
# cpprestsdk is not instrumented: its own synchronisation is invisible to TSan (suppressed by library).
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/data/sanitizer/tsan.supp"
cd "$BUILD_DIR"
ctest --output-on-failure -j "$JOBS" -R '^(daemon|daemon e2e|kube server|net):'
