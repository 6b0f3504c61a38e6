#!/usr/bin/env bash
# Builds everything (warnings are errors) and runs the whole test suite with ctest.
#   tools/test.sh                 # build in ./build
#   BUILD_DIR=b SANITIZE=ON tools/test.sh   # the ASan+UBSan run CI does
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
BUILD_DIR=${BUILD_DIR:-build}
SANITIZE=${SANITIZE:-OFF}
JOBS=${JOBS:-$(nproc)}
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} -DKDESCHED_WERROR=ON \
      -DKDESCHED_SANITIZE="$SANITIZE" >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS"
cd "$BUILD_DIR"
ctest --output-on-failure -j "$JOBS"
