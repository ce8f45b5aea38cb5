#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang in build-fuzz/ and runs each for a bounded time:
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
# Fails on any crash, sanitizer report, leak, time-out or out-of-memory; the input that caused it is
# kept as build-fuzz/findings/<target>-*. Each target runs on a copy of its seed corpus (made at
# build time: small files of our own writers, the shared assets' characters cut down to a few KB;
# fuzz/make_seeds.cpp) in build-fuzz/corpus/<target>, with its format's dictionary (fuzz/dict/),
# and reports its executions per second. Targets run side by side, one per core. CI runs 30 s per
# target (.ci/run; README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift $(( $# > 0 ? 1 : 0 ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(gltf_glb gltf_split skeleton_file package command_script)

# Debian 12's clang 14 and its libFuzzer, installed when missing (as root).
bash scripts/install-deps.sh --fuzz

build=build-fuzz
# Line tables are all a report needs (file and line of each frame): a third less to compile than
# full debug information.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" \
  -DTHRONG_FUZZ=ON -DTHRONG_BUILD_TESTS=OFF -DTHRONG_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --target fuzz_all --parallel "$(nproc)"

mkdir -p "$build/findings" "$build/logs"

# One target, its seconds on one core: writes its log and, last, a line "ok ..." or "FAILED ...".
fuzz_one() {
  local t=$1 corpus="$build/corpus/$1" log="$build/logs/$1.log" dict=fuzz/dict/$1.dict
  case "$t" in gltf_*) dict=fuzz/dict/gltf.dict ;; esac
  mkdir -p "$corpus"
  cp -n "$build/fuzz/seeds/$t"/* "$corpus"/ 2>/dev/null || true
  # -timeout: one input may take 10 s (a hang otherwise); -rss_limit_mb: memory per process;
  # -max_len: 64 KiB, room to grow the largest seed (kMaxSeedBytes in fuzz/make_seeds.cpp) several
  # times over without spending executions on megabyte inputs.
  if ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
      "$build/fuzz/fuzz_$t" "$corpus" -dict="$dict" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$build/findings/$t-" >"$log" 2>&1; then
    local runs rate
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    echo "fuzz_$t: ok, ${seconds} s, $runs executions ($rate per second), dictionary $dict, corpus $(ls "$corpus" | wc -l) files" >>"$log.result"
  else
    echo "fuzz_$t: FAILED (log: $log)" >>"$log.result"
  fi
}

# The targets run side by side, one per core (each is one process on one core): every target
# still gets its seconds.
status=0
jobs=$(nproc)
for t in "${targets[@]}"; do rm -f "$build/logs/$t.log.result"; done
running=0
for t in "${targets[@]}"; do
  echo "=== fuzz_$t: ${seconds}s ==="
  fuzz_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait
for t in "${targets[@]}"; do
  result=$(cat "$build/logs/$t.log.result" 2>/dev/null || echo "fuzz_$t: FAILED (no result)")
  echo "$result"
  case "$result" in
    *FAILED*)
      status=1
      # What failed and where: the finding's own line, the sanitizer's or libFuzzer's report and
      # the first frames of its stack.
      grep -E "finding:|bad error report|terminate called|what\(\)|ERROR|SUMMARY|Test unit written|^ +#[0-9] " \
        "$build/logs/$t.log" | head -30 || true
      ;;
  esac
done
exit $status
