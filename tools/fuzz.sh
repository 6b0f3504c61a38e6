#!/usr/bin/env bash
# Fuzzes the parsers of outside input (tests/fuzz) with libFuzzer under ASan and UBSan.
#   tools/fuzz.sh TARGET SECONDS   # one target: profile, snapshot_json, snapshot_yaml, watch_stream,
#                                  # list_body, kubeconfig, exec_credential, picker_answer, plugin_args
#   tools/fuzz.sh all SECONDS      # every target for SECONDS, JOBS of them at a time
# Builds in ./build-fuzz with clang (BUILD_DIR=... to change; a build configured with KDESCHED_FUZZ,
# such as CI's sanitizer build, is reused), runs each target on a scratch copy of its seed corpus
# and regressions, and fails on any crash, leak, UB report, timeout or out-of-memory, naming the
# reproducer. JOBS=n sets the parallelism of the build and of the runs (default: nproc).
set -euo pipefail
cd "$(dirname "$0")/.."

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

# clang and its sanitizer and libFuzzer runtimes: only fuzzing needs them.
tools/install-deps.sh clang libclang-rt-14-dev

build=${BUILD_DIR:-build-fuzz}
jobs=${JOBS:-$(nproc)}
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKDESCHED_FUZZ=ON >/dev/null
echo "building ${targets[*]/#/fuzz_} in $build (log: $build/fuzz-build.log)"
if ! cmake --build "$build" -j "$jobs" --target "${targets[@]/#/fuzz_}" >"$build/fuzz-build.log" 2>&1; then
  tail -n 40 "$build/fuzz-build.log" >&2
  exit 1
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
work="$(realpath "$build")/fuzz-runs/$(date +%Y%m%d-%H%M%S)"

# Runs one target; its table line goes to $work/$t/result, what went wrong to $work/$t/failure.
fuzz_one() {
  local t=$1 dir="$work/$1" start=$SECONDS status=0
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp "tests/fuzz/corpus/$t/"* "$dir/corpus/"
  [ -d "tests/fuzz/regressions/$t" ] && cp "tests/fuzz/regressions/$t/"* "$dir/corpus/"
  for d in ${dicts[$t]}; do cat "tests/fuzz/dict/$d.dict"; done >"$dir/dict"
  # -timeout: one input may take 10 s (a slow machine under ASan), no more; 2 GB of RSS at most.
  "$build/bin/fuzz_$t" "$dir/corpus" -dict="$dir/dict" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len="${max_len[$t]}" -print_final_stats=1 -artifact_prefix="$dir/artifacts/" >"$dir/log" 2>&1 || status=$?
  local elapsed=$((SECONDS - start)) last runs cov ft corp
  # The last status line: "#12345  DONE cov: 1234 ft: 5678 corp: 123/45Kb ...".
  last=$(grep -E '^#[0-9]+' "$dir/log" | tail -n 1 || true)
  runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$dir/log")
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
  ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
  corp=$(sed -nE 's/.* corp: ([0-9]+\/[0-9]+[a-zA-Z]*).*/\1/p' <<<"$last")
  printf '%-16s %10s %7s %7s %12s %8s\n' "$t" "${runs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$elapsed" >"$dir/result"
  if [ "$status" -ne 0 ] || ls "$dir/artifacts/"* >/dev/null 2>&1; then
    {
      echo "FAILED: $t (exit $status); its log: $dir/log"
      grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error:|ALARM|==[0-9]+== ERROR)' "$dir/log" | head -n 5 || true
      for a in "$dir/artifacts/"*; do
        [ -e "$a" ] || continue
        echo "  reproducer: $a"
        echo "  replay it:  $build/bin/fuzz_$t $a"
        echo "  once fixed, keep it as a regression test:" \
             "mkdir -p tests/fuzz/regressions/$t && cp $a tests/fuzz/regressions/$t/<what-it-was>"
      done
    } >"$dir/failure"
  fi
}

running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  fuzz_one "$t" &
  running=$((running + 1))
done
wait || true

failed=()
printf '%-16s %10s %7s %7s %12s %8s\n' target runs cov ft corpus seconds
for t in "${targets[@]}"; do
  cat "$work/$t/result"
  if [ -e "$work/$t/failure" ]; then
    failed+=("$t")
    cat "$work/$t/failure" >&2
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing found problems in: ${failed[*]}" >&2
  exit 1
fi
echo "no findings; logs and grown corpora in $work"
