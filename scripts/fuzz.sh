#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang in build-fuzz/ and runs each for a bounded time:
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
# Fails on any crash, sanitizer report, leak, time-out or out-of-memory; the input that caused it is
# kept as build-fuzz/findings/<target>-*. Each target runs on a copy of its seed corpus (made at
# build time from the shared assets and our own writers) in build-fuzz/corpus/<target>.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift $(( $# > 0 ? 1 : 0 ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(gltf_glb gltf_split skeleton_file package command_script)

# Debian 12's clang 14 and its libFuzzer, installed when missing (as root).
bash scripts/install-deps.sh --fuzz

build=build-fuzz
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
  -DTHRONG_FUZZ=ON -DTHRONG_BUILD_TESTS=OFF -DTHRONG_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --target fuzz_all --parallel "$(nproc)"

mkdir -p "$build/findings" "$build/logs"
status=0
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  mkdir -p "$corpus"
  cp -n "$build/fuzz/seeds/$t"/* "$corpus"/ 2>/dev/null || true
  log="$build/logs/$t.log"
  echo "=== fuzz_$t: ${seconds}s ==="
  # -timeout: one input may take 10 s (a hang otherwise); -rss_limit_mb: memory per process;
  # -max_len: large enough for the biggest seed (a character file of a few MB).
  if ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
      "$build/fuzz/fuzz_$t" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -max_len=4194304 -print_final_stats=1 -artifact_prefix="$build/findings/$t-" >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    echo "fuzz_$t: ok, $runs executions, corpus $(ls "$corpus" | wc -l) files"
  else
    status=1
    echo "fuzz_$t: FAILED (log: $log)"
    grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -20 || true
  fi
done
exit $status
