#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, clang + ASan + UBSan) in build/fuzz and runs each
# for a bounded time, starting from its committed seed corpus (tests/fuzz/corpus/<target>/).
# Fails on any crash, sanitizer report, leak, timeout or out-of-memory; the failing input is
# kept under build/fuzz/findings/<target>/ and the log's tail is printed.
#   usage: packaging/run-fuzzers.sh [SECONDS_PER_TARGET]
#   env:   FUZZ_SECONDS (default 60; 30 when CI=true and FUZZ_SECONDS is unset),
#          FUZZ_JOBS (targets run side by side, default 2), FUZZ_TARGETS ("scenario nccl_text"),
#          FUZZ_MERGE=1 (merge inputs that add coverage back into tests/fuzz/corpus/),
#          FUZZ_BUILD_DIR (default build/fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
default_seconds=60
if [ "${CI:-}" = "true" ]; then default_seconds=30; fi
seconds="${1:-${FUZZ_SECONDS:-$default_seconds}}"
jobs="${FUZZ_JOBS:-2}"
build="${FUZZ_BUILD_DIR:-build/fuzz}"

command -v clang++ >/dev/null || { echo "run-fuzzers: clang++ not found (apt-get install clang)" >&2; exit 1; }

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
echo "== configure and build the fuzz targets in $build (clang, ASan+UBSan, libFuzzer)"
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja "${launcher[@]}" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=ON \
  -DCLUSTERPLAN_BUILD_FUZZERS=ON -DCLUSTERPLAN_SANITIZE=ON \
  -DCLUSTERPLAN_BUILD_GUI=OFF -DCLUSTERPLAN_BUILD_PROBES=OFF -DCLUSTERPLAN_BUILD_BENCHMARKS=OFF \
  >"$build.configure.log" 2>&1 || { cat "$build.configure.log"; exit 1; }
cmake --build "$build" --target fuzzers -j "$jobs" >"$build.build.log" 2>&1 \
  || { tail -n 60 "$build.build.log"; exit 1; }

if [ -n "${FUZZ_TARGETS:-}" ]; then
  read -r -a targets <<<"$FUZZ_TARGETS"
else
  targets=()
  for exe in "$build"/tests/fuzz/fuzz_*; do
    name=$(basename "$exe")
    case "$name" in fuzz_replay_*) continue ;; esac
    [ -x "$exe" ] && targets+=("${name#fuzz_}")
  done
fi
[ "${#targets[@]}" -gt 0 ] || { echo "run-fuzzers: no fuzz targets were built" >&2; exit 1; }

# Leaks and every UBSan report are fatal; stack traces make findings actionable.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:symbolize=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}"

run_one() {
  local name=$1
  local exe="$root/$build/tests/fuzz/fuzz_$name"
  local seeds="$root/tests/fuzz/corpus/$name"
  local work="$root/$build/work/$name"
  local findings="$root/$build/findings/$name"
  rm -rf "$findings"
  mkdir -p "$work" "$findings" "$seeds"
  local args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024
              -max_len=65536 -print_final_stats=1 -artifact_prefix="$findings/")
  if [ -f "$root/tests/fuzz/dict/$name.dict" ]; then args+=(-dict="$root/tests/fuzz/dict/$name.dict"); fi
  # New units go to the first directory (the scratch corpus); the seeds are only read.
  local rc=0
  (cd "$work/.." && "$exe" "${args[@]}" "$work" "$seeds") >"$root/$build/fuzz_$name.log" 2>&1 || rc=$?
  echo "$rc" >"$root/$build/fuzz_$name.rc"
}

echo "== fuzzing ${#targets[@]} targets for ${seconds}s each, $jobs at a time"
status=0
for name in "${targets[@]}"; do
  rm -f "$build/fuzz_$name.rc"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  run_one "$name" &
done
wait
declare -A rcs=()
for name in "${targets[@]}"; do rcs[$name]=$(cat "$build/fuzz_$name.rc" 2>/dev/null || echo "no result"); done

total_runs=0
for name in "${targets[@]}"; do
  log="$build/fuzz_$name.log"
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$({ grep -o 'cov: [0-9]*' "$log" || true; } | tail -n 1 | cut -d' ' -f2)  # none if it never started
  units=$(find "$build/work/$name" -type f | wc -l)
  total_runs=$((total_runs + ${runs:-0}))
  if [ "${rcs[$name]}" = 0 ] && [ -z "$(ls -A "$build/findings/$name")" ]; then
    printf 'fuzz_%-28s OK      %10s runs  cov %6s  new units %5s\n' "$name" "${runs:-?}" "${cov:-?}" "$units"
  else
    status=1
    printf 'fuzz_%-28s FAILED  (exit %s) %s runs; findings: %s\n' "$name" "${rcs[$name]}" \
      "${runs:-?}" "$(ls "$build/findings/$name" | tr '\n' ' ')"
    { grep -E 'ERROR: |FUZZ FINDING|runtime error|SUMMARY' "$log" || true; } | head -n 5 | sed 's/^/    /'
    tail -n 40 "$log" | sed 's/^/    | /'
  fi
  if [ "${FUZZ_MERGE:-0}" = "1" ] && [ "${rcs[$name]}" = 0 ]; then
    "$build/tests/fuzz/fuzz_$name" -merge=1 "tests/fuzz/corpus/$name" "$build/work/$name" \
      >"$build/merge_$name.log" 2>&1 || echo "merge into tests/fuzz/corpus/$name failed" >&2
  fi
done
echo "run-fuzzers: ${#targets[@]} targets, ${seconds}s each, $total_runs executions in total:" \
     "$([ "$status" -eq 0 ] && echo 'no findings' || echo 'FINDINGS (see above)')"
exit "$status"
