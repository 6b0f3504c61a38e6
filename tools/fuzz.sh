#!/usr/bin/env bash
# Fuzzes the parsers of outside input (tests/fuzz) with libFuzzer under ASan and UBSan.
#   tools/fuzz.sh TARGET SECONDS   # one target: profile, snapshot_json, snapshot_yaml, watch_stream,
#                                  # list_body, kubeconfig, exec_credential, picker_answer, plugin_args
#   tools/fuzz.sh all SECONDS      # every target, one after the other, SECONDS each
# Builds in ./build-fuzz with clang (BUILD_DIR=... to change), runs each target on a scratch copy of
# its seed corpus and regressions, and fails on any crash, leak, UB report, timeout or out-of-memory,
# naming the reproducer. JOBS=n sets the build's parallelism (default: nproc).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# target → largest input (-max_len): a little above the largest meaningful seed, small enough that
# the slow readers (yaml-cpp) keep thousands of runs a second.
declare -A max_len=(
  [profile]=8192 [snapshot_json]=65536 [snapshot_yaml]=16384 [watch_stream]=32768 [list_body]=32768
  [kubeconfig]=8192 [exec_credential]=4096 [picker_answer]=2048 [plugin_args]=4096
)
# target → the dictionaries of tests/fuzz/dict it is given (joined: libFuzzer takes one).
declare -A dicts=(
  [profile]="yaml profile" [snapshot_json]="json kubernetes" [snapshot_yaml]="yaml kubernetes"
  [watch_stream]="json kubernetes" [list_body]="json kubernetes" [kubeconfig]="yaml kubeconfig"
  [exec_credential]="json exec_credential" [picker_answer]="json picker_answer" [plugin_args]="json plugin_args"
)
all_targets=(profile snapshot_json snapshot_yaml watch_stream list_body kubeconfig exec_credential picker_answer
             plugin_args)

usage() {
  echo "usage: tools/fuzz.sh TARGET|all SECONDS   (targets: ${all_targets[*]})" >&2
  exit 2
}
[ $# -eq 2 ] || usage
[[ $2 =~ ^[1-9][0-9]*$ ]] || usage
seconds=$2
if [ "$1" = all ]; then
  targets=("${all_targets[@]}")
else
  [ -n "${max_len[$1]:-}" ] || usage
  targets=("$1")
fi

tools/install-deps.sh
# clang and its sanitizer and libFuzzer runtimes: only fuzzing needs them.
missing=()
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build=${BUILD_DIR:-build-fuzz}
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKDESCHED_FUZZ=ON >/dev/null
echo "building ${targets[*]/#/fuzz_} in $build (log: $build/fuzz-build.log)"
if ! cmake --build "$build" -j "${JOBS:-$(nproc)}" --target "${targets[@]/#/fuzz_}" >"$build/fuzz-build.log" 2>&1; then
  tail -n 40 "$build/fuzz-build.log" >&2
  exit 1
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
work="$root/$build/fuzz-runs/$(date +%Y%m%d-%H%M%S)"
failed=()
printf '%-16s %10s %7s %7s %12s %8s\n' target runs cov ft corpus seconds
for t in "${targets[@]}"; do
  dir="$work/$t"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp "tests/fuzz/corpus/$t/"* "$dir/corpus/"
  [ -d "tests/fuzz/regressions/$t" ] && cp "tests/fuzz/regressions/$t/"* "$dir/corpus/"
  for d in ${dicts[$t]}; do cat "tests/fuzz/dict/$d.dict"; done >"$dir/dict"
  start=$SECONDS
  status=0
  # -timeout: one input may take 10 s (a slow machine under ASan), no more; 2 GB of RSS at most.
  "$build/bin/fuzz_$t" "$dir/corpus" -dict="$dir/dict" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len="${max_len[$t]}" -print_final_stats=1 -artifact_prefix="$dir/artifacts/" >"$dir/log" 2>&1 || status=$?
  elapsed=$((SECONDS - start))
  # The last status line: "#12345  DONE cov: 1234 ft: 5678 corp: 123/45Kb ...".
  last=$(grep -E '^#[0-9]+' "$dir/log" | tail -n 1 || true)
  runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$dir/log")
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
  ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
  corp=$(sed -nE 's/.* corp: ([0-9]+\/[0-9]+[a-zA-Z]*).*/\1/p' <<<"$last")
  printf '%-16s %10s %7s %7s %12s %8s\n' "$t" "${runs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$elapsed"
  if [ "$status" -ne 0 ] || ls "$dir/artifacts/"* >/dev/null 2>&1; then
    failed+=("$t")
    echo "FAILED: $t (exit $status); its log: $dir/log" >&2
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error:|ALARM|==[0-9]+== ERROR)' "$dir/log" | head -n 5 >&2 || true
    for a in "$dir/artifacts/"*; do
      [ -e "$a" ] || continue
      echo "  reproducer: $a" >&2
      echo "  replay it:  $build/bin/fuzz_$t $a" >&2
      echo "  once fixed, keep it as a regression test:" \
           "mkdir -p tests/fuzz/regressions/$t && cp $a tests/fuzz/regressions/$t/<what-it-was>" >&2
    done
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing found problems in: ${failed[*]}" >&2
  exit 1
fi
echo "no findings; logs and grown corpora in $work"
