#!/usr/bin/env bash
# Runs every benchmark of every program in BUILD/bench once, briefly (a smoke pass, not a
# measurement): scripts/bench-smoke.sh [BUILD_DIR]. Each runs with --benchmark_min_time=0.01 and
# crowds of at most THRONG_BENCH_MAX_AGENTS agents (default 1000); crowd_bench in each of its
# modes (image-checked paths, BM_CpuFrame, --cpu-frame on llvmpipe and on Mesa's no-op driver,
# --palette). Fails when a program exits non-zero, a benchmark reports an error, or a program of
# bench/ was not run.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
export THRONG_BENCH_MAX_AGENTS=${THRONG_BENCH_MAX_AGENTS:-1000}
logs="$build/bench-smoke"
mkdir -p "$logs"
status=0
ran=()

run() {  # run LOG_NAME [ENV=VALUE ...] PROGRAM [ARGS...]
  local name=$1 start=$SECONDS
  shift
  local log="$logs/$name.log"
  if env "$@" --benchmark_min_time=0.01 >"$log" 2>&1 && ! grep -q "ERROR OCCURRED" "$log"; then
    # A result line: the benchmark's name (BM_...), then its time (colour codes stripped).
    local count
    count=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -cE 'BM_[^ ]+ +[0-9.]+ (ns|us|ms|s) ' || true)
    echo "bench-smoke: $name: ok, $count benchmarks, $((SECONDS - start)) s"
  else
    status=1
    echo "bench-smoke: $name: FAILED ($((SECONDS - start)) s; log: $log)"
    grep -E "ERROR OCCURRED|[a-z_]+_bench:|terminate|Assertion|Segmentation" "$log" | head -20 || true
    tail -5 "$log"
  fi
}

bench=$build/bench
for program in "$bench"/*; do
  [ -f "$program" ] && [ -x "$program" ] || continue
  name=$(basename "$program")
  ran+=("$name")
  if [ "$name" = crowd_bench ]; then
    run crowd_bench "$program" --cpu-agents="$THRONG_BENCH_MAX_AGENTS"
    run crowd_bench-cpu-frame "$program" --cpu-frame
    run crowd_bench-cpu-frame-noop GALLIUM_NOOP=1 "$program" --cpu-frame
    run crowd_bench-noop GALLIUM_NOOP=1 "$program"
    run crowd_bench-palette "$program" --palette
  else
    run "$name" "$program"
  fi
done
# Every benchmark source was built and run (a program left out of the build is a failure here).
for source in bench/*.cpp; do
  name=$(basename "$source" .cpp)
  if ! printf '%s\n' "${ran[@]}" | grep -qx "$name"; then
    echo "bench-smoke: $name (bench/$name.cpp) was not built in $bench"
    status=1
  fi
done
exit $status
